import { Badge, Box, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import {
  VERSION_PREVIEW_TEXTS,
  cellHistoryTitle,
  cellValueText,
  columnLabel,
  type CellHistory,
} from '@tessera/contracts';
import { DialogFrame, RelativeTime } from '@tessera/ui-kit';
import { useEffect, useState } from 'react';
import type { CellHistoryService } from './cell-history.service.js';

export interface CellHistoryDialogProps {
  sheetId: string;
  /** The cell whose history is shown (0-based); null: the dialog is closed. */
  cell: { row: number; col: number } | null;
  service: CellHistoryService;
  onClose(): void;
}

type Loaded = { phase: 'loading' } | { phase: 'ready'; history: CellHistory } | { phase: 'failed'; error: string };

/**
 * A cell's history (grist-core#2372), opened from the grid's context menu: each change with its
 * author, relative time (spec 02 §9), version, and the value before and after; newest first.
 */
export function CellHistoryDialog({ sheetId, cell, service, onClose }: CellHistoryDialogProps) {
  const [loaded, setLoaded] = useState<Loaded>({ phase: 'loading' });
  const row = cell?.row;
  const col = cell?.col;

  useEffect(() => {
    if (row === undefined || col === undefined) return;
    let current = true;
    setLoaded({ phase: 'loading' });
    void service.history(sheetId, row, col).then((result) => {
      if (current) setLoaded(result.success ? { phase: 'ready', history: result.data } : { phase: 'failed', error: result.error });
    });
    return () => {
      current = false;
    };
  }, [service, sheetId, row, col]);

  const now = Date.now();
  return (
    <DialogFrame
      open={cell !== null}
      onClose={onClose}
      title={cell ? cellHistoryTitle(`${columnLabel(cell.col)}${cell.row + 1}`) : ''}
      contentProps={{ 'data-testid': 'cell-history' }}
      bodyProps={{ maxH: '60vh', overflowY: 'auto' }}
      footer={
        <Button variant="outline" onClick={onClose}>
          {VERSION_PREVIEW_TEXTS.close}
        </Button>
      }
    >
      <>
        {loaded.phase === 'loading' && (
          <Flex align="center" gap="2">
            <Spinner size="xs" />
            <Text fontSize="sm">{VERSION_PREVIEW_TEXTS.cellHistoryLoading}</Text>
          </Flex>
        )}
        {loaded.phase === 'failed' && (
          <Text color="fg.error" fontSize="sm" role="alert">
            {loaded.error}
          </Text>
        )}
        {loaded.phase === 'ready' && loaded.history.changes.length === 0 && (
          <Text fontSize="sm" color="fg.muted">
            {VERSION_PREVIEW_TEXTS.cellHistoryEmpty}
          </Text>
        )}
        {loaded.phase === 'ready' && loaded.history.changes.length > 0 && (
          <Stack as="ol" gap="1" listStyleType="none" m="0" p="0" aria-label={cellHistoryTitle(`${columnLabel(loaded.history.col)}${loaded.history.row + 1}`)}>
            {loaded.history.changes.map((change) => (
              <Box as="li" key={change.version} py="1" borderBottomWidth="1px" data-testid="cell-history-entry">
                <Flex gap="2" align="center" fontSize="xs" color="fg.muted">
                  <Badge size="xs">#{change.version}</Badge>
                  <Text as="span">{change.author ?? VERSION_PREVIEW_TEXTS.unknownAuthor}</Text>
                  <RelativeTime iso={change.created_at} now={now} />
                </Flex>
                <Text fontSize="sm">
                  <Text as="span" color="fg.muted" textDecoration="line-through">
                    {cellValueText(change.old)}
                  </Text>
                  {' → '}
                  <Text as="span" fontWeight="medium">
                    {cellValueText(change.new)}
                  </Text>
                </Text>
              </Box>
            ))}
          </Stack>
        )}
      </>
    </DialogFrame>
  );
}
