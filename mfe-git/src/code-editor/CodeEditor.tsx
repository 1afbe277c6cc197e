import { Box, Heading, Text } from '@chakra-ui/react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';
import { RepositoryContext, useRepository } from '../repository/repository-context.js';
import { RepositoryFiles } from '../repository/RepositoryFiles.js';
import { useRepositoryStore } from '../repository/use-repository-store.js';
import { RunOnSheet } from './RunOnSheet.js';

/** The current sheet's version as the Workspace reported it; none until a sheet is loaded. */
export function currentSheetVersion(shell: ShellContext): number | undefined {
  return shell.sheet.id ? (shell.sheet.version ?? undefined) : undefined;
}

function Body({ shell, sheetVersion }: { shell: ShellContext; sheetVersion?: number }) {
  const error = useRepository((s) => s.error);
  return (
    <>
      <RunOnSheet shell={shell} />
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
 * The toolbar's Code tab: the repository's files and the editor, and 'Run on sheet' (the open
 * .py file through the AI's Direct Exec on the current sheet). A commit made here records the
 * current sheet's version as its `Sheet-Version` trailer.
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
        <Body shell={shell} sheetVersion={sheetVersion} />
      </Box>
    </RepositoryContext.Provider>
  );
}
