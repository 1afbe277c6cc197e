import { Box, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';
import { RepositoryContext, useRepository } from '../repository/repository-context.js';
import { RepositoryFiles } from '../repository/RepositoryFiles.js';
import { useRepositoryStore } from '../repository/use-repository-store.js';
import { CommitList } from './CommitList.js';
import { DebugStrip } from './DebugStrip.js';
import { SheetVersions } from '../sheet-versions/SheetVersions.js';

function PanelBody({ shell }: { shell: ShellContext }) {
  const status = useRepository((s) => s.status);
  const error = useRepository((s) => s.error);
  return (
    <Stack gap="4">
      {status === 'loading' && <Spinner size="sm" />}
      {error && (
        <Text role="alert" color="fg.error">
          {error}
        </Text>
      )}
      <Flex gap="6" align="start" wrap="wrap">
        <Box as="section" aria-labelledby="git-commits-title" flex="1 1 260px" maxH="45vh" overflow="auto">
          <Heading id="git-commits-title" size="sm" mb="2">
            Commits
          </Heading>
          <CommitList />
        </Box>
        <Box flex="1 1 260px" maxH="45vh" overflow="auto">
          <SheetVersions shell={shell} />
        </Box>
        <Box flex="3 1 520px" minW="0">
          <RepositoryFiles />
        </Box>
      </Flex>
      <DebugStrip />
    </Stack>
  );
}

/**
 * The git tab (spec 02 §2 Git History panel): commits and, beside them, the current sheet's
 * versions; the Git Tree, the code preview and editor, the diff preview, AI recommendations
 * and the debug strip.
 */
export default function GitPanel({ shell }: RemoteProps) {
  const store = useRepositoryStore(shell);
  return (
    <RepositoryContext.Provider value={store}>
      <Box as="section" aria-labelledby="git-history-title" p="6">
        <Heading id="git-history-title" size="md" mb="3">
          Git History
        </Heading>
        <PanelBody shell={shell} />
      </Box>
    </RepositoryContext.Provider>
  );
}
