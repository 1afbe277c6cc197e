import { Alert, Button } from '@chakra-ui/react';

/** A load or command failure, in a box the user can dismiss (spec 01 §2). */
export function ErrorBox({ message, onDismiss }: { message: string; onDismiss(): void }) {
  return (
    <Alert.Root status="error" size="sm" data-testid="sheet-error" m="2" width="auto">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
      <Button size="xs" variant="outline" onClick={onDismiss}>
        Dismiss
      </Button>
    </Alert.Root>
  );
}
