import { Box, Heading, Text } from '@chakra-ui/react';
import { MESSAGES, type RemoteProps } from '@tessera/contracts';

/**
 * The git tab. The repository service arrives with a later issue; until then
 * there is no commit to list, so the panel shows the spec's empty-repository message.
 */
export default function GitPanel(_props: RemoteProps) {
  return (
    <Box as="section" aria-labelledby="git-history-title" p="6">
      <Heading id="git-history-title" size="md" mb="3">
        Git History
      </Heading>
      <Text color="fg.muted">{MESSAGES.emptyRepository}</Text>
    </Box>
  );
}
