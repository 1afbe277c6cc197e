import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';
import { RelativeTime } from '@tessera/ui-kit';
import { useRepository } from '../repository/repository-context.js';

/** The commit list: the newest 50, each with its relative time and, from the Code tab, the sheet version. */
export function CommitList() {
  const history = useRepository((s) => s.history);
  const emptyRepo = useRepository((s) => s.emptyRepo);
  if (emptyRepo) {
    return <Text color="fg.muted">{MESSAGES.emptyRepository}</Text>;
  }
  return (
    <Box as="ol" aria-label="Commits" listStyleType="none" m="0" p="0">
      {history.map((commit) => (
        <Box as="li" key={commit.hash} py="1.5" borderBottomWidth="1px">
          <Stack gap="0.5">
            <Text fontSize="sm" lineClamp={2} title={commit.message}>
              {commit.message.split('\n')[0]}
            </Text>
            <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
              <Text as="span" fontFamily="mono">
                {commit.hash.slice(0, 7)}
              </Text>
              <Text as="span">{commit.author}</Text>
              <RelativeTime iso={commit.timestamp} />
              {commit.sheetVersion !== null && <Badge size="xs">sheetVersion {commit.sheetVersion}</Badge>}
            </HStack>
          </Stack>
        </Box>
      ))}
    </Box>
  );
}
