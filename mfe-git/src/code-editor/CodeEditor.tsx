import { Box, Heading, Text } from '@chakra-ui/react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';
import { RepositoryContext, useRepository } from '../repository/repository-context.js';
import { RepositoryFiles } from '../repository/RepositoryFiles.js';
import { useRepositoryStore } from '../repository/use-repository-store.js';

/**
 * The current sheet's version, when the shell gives one. ShellContext.sheet
 * may not carry `version` yet (another issue adds it): read it defensively, so
 * the trailer is left out rather than guessed.
 */
export function currentSheetVersion(shell: ShellContext): number | undefined {
  const sheet: object = shell.sheet;
  if (!shell.sheet.id || !('version' in sheet)) return undefined;
  const version = (sheet as { version?: unknown }).version;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : undefined;
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
