import { Box, Heading, Text } from '@chakra-ui/react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';
import { RepositoryContext, useRepository } from '../repository/repository-context.js';
import { RepositoryFiles } from '../repository/RepositoryFiles.js';
import { useRepositoryStore } from '../repository/use-repository-store.js';

/** The current sheet's version as the Workspace reported it; none until a sheet is loaded. */
export function currentSheetVersion(shell: ShellContext): number | undefined {
  return shell.sheet.id ? (shell.sheet.version ?? undefined) : undefined;
}

function Body({ sheetVersion }: { sheetVersion?: number }) {
  const error = useRepository((s) => s.error);
  return (
    <>
      {error && (
        <Text role="alert" color="fg.error" mb="2">
          {error}
        </Text>
      )}
      <RepositoryFiles sheetVersion={sheetVersion} />
    </>
  );
}

/**
 * The toolbar's Code tab: the repository's files and the editor. A commit
 * made here records the current sheet's version as its `Sheet-Version` trailer.
 */
export default function CodeEditor({ shell }: RemoteProps) {
  const store = useRepositoryStore(shell);
  const sheetVersion = currentSheetVersion(shell);
  return (
    <RepositoryContext.Provider value={store}>
      <Box as="section" aria-labelledby="code-editor-title" p="4">
        <Heading id="code-editor-title" size="sm" mb="3">
          Code
        </Heading>
        <Body sheetVersion={sheetVersion} />
      </Box>
    </RepositoryContext.Provider>
  );
}
