import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useRepository } from '../repository/repository-context.js';
import { relativeTime } from '@tessera/contracts';

/** The debug strip (spec 02 §2): Full Refresh, Reload, file history and Graph Refresh, with what they found. */
export function DebugStrip() {
  const fullRefresh = useRepository((s) => s.fullRefresh);
  const reloadFile = useRepository((s) => s.reloadFile);
  const loadFileHistory = useRepository((s) => s.loadFileHistory);
  const refreshGraph = useRepository((s) => s.refreshGraph);
  const selected = useRepository((s) => s.selected);
  const fileHistory = useRepository((s) => s.fileHistory);
  const graph = useRepository((s) => s.graph);
  const head = useRepository((s) => s.head);

  return (
    <Box as="section" aria-label="Debug" borderTopWidth="1px" pt="2" fontSize="xs">
      <HStack gap="1" wrap="wrap">
        <Button size="xs" variant="outline" onClick={() => void fullRefresh()}>
          Full Refresh
        </Button>
        <Button size="xs" variant="outline" disabled={!selected} onClick={() => void reloadFile()}>
          Reload
        </Button>
        <Button size="xs" variant="outline" disabled={!selected} onClick={() => void loadFileHistory()}>
          file history
        </Button>
        <Button size="xs" variant="outline" onClick={() => void refreshGraph()}>
          Graph Refresh
        </Button>
        <Text color="fg.muted" fontFamily="mono">
          {head ? `main @ ${head.slice(0, 7)}` : 'main'}
        </Text>
      </HStack>
      {graph && (
        <Text mt="1" color={graph.status === 'error' ? 'fg.error' : 'fg.muted'} data-testid="graph-summary">
          {graph.status === 'error' ? graph.error : graph.data ? `Graph: ${graph.data.count} commits on ${graph.data.branch}` : '…'}
        </Text>
      )}
      {fileHistory && (
        <Box mt="1" data-testid="file-history">
          <Text fontWeight="semibold">History of {fileHistory.path}</Text>
          {fileHistory.status === 'error' && <Text color="fg.error">{fileHistory.error}</Text>}
          {fileHistory.commits.map((c) => (
            <Text key={c.hash} fontFamily="mono">
              {c.hash.slice(0, 7)} {c.message.split('\n')[0]} · {relativeTime(c.timestamp)}
            </Text>
          ))}
        </Box>
      )}
    </Box>
  );
}
