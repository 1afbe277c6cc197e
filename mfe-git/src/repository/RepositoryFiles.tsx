import { Box, Flex, HStack, Stack } from '@chakra-ui/react';
import { useContext, useEffect } from 'react';
import { EditorLoaderContext } from '../editor/editor-loader.js';
import { CodePreview } from './CodePreview.js';
import { EditPane } from './EditPane.js';
import { FileTree } from './FileTree.js';
import { NewFileButton } from './NewFileButton.js';
import { useRepository } from './repository-context.js';

/** The files and the code: the tree on the left, the preview or the editor on the right. Shared by the git tab and the Code tab. */
export function RepositoryFiles({ sheetVersion }: { sheetVersion?: number }) {
  const editing = useRepository((s) => s.edit !== null);
  const loadEditor = useContext(EditorLoaderContext);
  // The tab is open: fetch the editor now, so Edit and New File show it without a wait.
  useEffect(() => {
    loadEditor().catch(() => {
      // The boundary reports a failed load when the editor is shown.
    });
  }, [loadEditor]);
  return (
    // Wraps by the room the panel has (the chat panel may take half the screen): the code goes below the tree when narrow.
    <Flex gap="4" align="start" wrap="wrap">
      <Stack flex="1 1 220px" maxW={{ base: 'full', md: '320px' }} gap="2">
        <HStack justify="space-between">
          <NewFileButton />
        </HStack>
        <Box maxH="50vh" overflow="auto">
          <FileTree />
        </Box>
      </Stack>
      <Box flex="3 1 420px" minW="0">
        {editing ? <EditPane sheetVersion={sheetVersion} /> : <CodePreview />}
      </Box>
    </Flex>
  );
}
