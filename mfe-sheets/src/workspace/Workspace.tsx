import { Center, Heading, Text, VStack } from '@chakra-ui/react';
import { MESSAGES, type RemoteProps } from '@tessera/contracts';

/**
 * The data tab. With no sheet selected it shows the spec's placeholder; the grid,
 * toolbar and loading state arrive with the Sheets issue, so a selected sheet shows
 * only its id for now.
 */
export default function Workspace({ shell }: RemoteProps) {
  const { id } = shell.sheet;
  if (id === null) {
    return (
      <Center height="full" p="8">
        <VStack gap="2">
          <Heading size="md">{MESSAGES.noSheetSelected}</Heading>
          <Text color="fg.muted">{MESSAGES.noSheetSelectedHint}</Text>
        </VStack>
      </Center>
    );
  }
  return (
    <Heading size="md" p="4">
      Sheet {id}
    </Heading>
  );
}
