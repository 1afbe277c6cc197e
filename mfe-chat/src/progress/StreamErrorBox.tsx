import { Alert, Button } from '@chakra-ui/react';

/** The Stream Error box (spec 02 §2): what failed, and Reload to send the request again. */
export function StreamErrorBox({ error, onReload }: { error: string; onReload(): void }) {
  return (
    <Alert.Root status="error" size="sm" mx="3" my="2" width="auto" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Stream Error</Alert.Title>
        <Alert.Description>{error}</Alert.Description>
      </Alert.Content>
      <Button size="xs" variant="outline" onClick={onReload}>
        Reload
      </Button>
    </Alert.Root>
  );
}
