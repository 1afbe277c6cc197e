import { Badge, Box, Button, Flex, HStack, Spinner, Text } from '@chakra-ui/react';
import { relativeTime, TRASH_TEXTS, type ShellContext, type TrashItem } from '@tessera/contracts';
import { ConfirmDialog, DialogFrame } from '@tessera/ui-kit';
import { useCallback, useEffect, useState } from 'react';
import { can } from '../access/can.js';
import { serverMessage } from '../access/server-message.js';
import { deleteForever, loadTrash, restoreFromTrash } from './trash.service.js';

export const TRASH_UI_TEXTS = {
  title: 'Trash',
  empty: 'The trash is empty.',
  loadFailed: 'Failed to load the trash',
  restoreFailed: 'Failed to restore',
  deleteFailed: 'Failed to delete forever',
  deleteForever: 'Delete forever',
  restore: 'Restore',
} as const;

export interface TrashDialogProps {
  shell: Pick<ShellContext, 'api'>;
  open: boolean;
  onClose(): void;
  /** After a restore: the navigator reloads its tree (the workspace socket tells it too). */
  onRestored(): void;
}

/** 'Deleted by bob · 2h ago' */
export const deletedLabel = (item: TrashItem, now: number) =>
  `Deleted by ${item.deleted_by.username ?? 'a removed member'} · ${relativeTime(item.deleted_at, now)}`;

/** 'Purged on 2026-12-26': the day the api deletes it for good (UTC, as the server counts). */
export const purgeLabel = (item: TrashItem) => `Purged on ${item.purge_at.slice(0, 10)}`;

/**
 * The Trash (issue 18): what the user may restore, with who deleted it and when, and when it
 * goes for good. Restore puts it back; Delete forever (owners) asks first: it cannot be undone.
 */
export function TrashDialog({ shell, open, onClose, onRestored }: TrashDialogProps) {
  const [items, setItems] = useState<TrashItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TrashItem | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const { api } = shell;

  const load = useCallback(async () => {
    try {
      setItems(await loadTrash(api));
    } catch (e) {
      setError(serverMessage(e, TRASH_UI_TEXTS.loadFailed));
    }
  }, [api]);

  useEffect(() => {
    if (!open) return;
    setItems(null);
    setError(null);
    setNow(Date.now());
    void load();
  }, [open, load]);

  const restore = async (item: TrashItem) => {
    setBusy(item.id);
    setError(null);
    try {
      await restoreFromTrash(api, item.id);
      setItems((list) => list?.filter((i) => i.id !== item.id) ?? null);
      onRestored();
    } catch (e) {
      setError(serverMessage(e, TRASH_UI_TEXTS.restoreFailed));
    } finally {
      setBusy(null);
    }
  };

  const purge = async () => {
    if (!confirming) return;
    const item = confirming;
    setBusy(item.id);
    setError(null);
    try {
      await deleteForever(api, item.id);
      setItems((list) => list?.filter((i) => i.id !== item.id) ?? null);
    } catch (e) {
      setError(serverMessage(e, TRASH_UI_TEXTS.deleteFailed));
    } finally {
      setBusy(null);
      setConfirming(null);
    }
  };

  return (
    <>
      <DialogFrame
        open={open}
        onClose={onClose}
        title={TRASH_UI_TEXTS.title}
        size="lg"
        scrollBehavior="inside"
        contentProps={{ 'data-testid': 'trash-dialog' }}
        footer={
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        }
      >
        <>
          {error && (
            <Text role="alert" color="fg.error" fontSize="sm" mb="2">
              {error}
            </Text>
          )}
          {items === null ? (
            !error && (
              <HStack>
                <Spinner size="sm" />
                <Text fontSize="sm">Loading...</Text>
              </HStack>
            )
          ) : items.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              {TRASH_UI_TEXTS.empty}
            </Text>
          ) : (
            <Box as="ul" m="0" p="0" aria-label="Deleted items">
              {items.map((item) => (
                <Flex as="li" key={item.id} listStyleType="none" align="center" gap="3" py="2" borderBottomWidth="1px" aria-label={item.name}>
                  <Badge size="sm">{item.type === 'group' ? 'Group' : 'Sheet'}</Badge>
                  <Box flex="1" minW="0">
                    <Text fontSize="sm" fontWeight="medium" truncate>
                      {item.name}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {deletedLabel(item, now)} · {purgeLabel(item)}
                    </Text>
                  </Box>
                  <Button size="xs" variant="outline" loading={busy === item.id} aria-label={`${TRASH_UI_TEXTS.restore} ${item.name}`} onClick={() => void restore(item)}>
                    {TRASH_UI_TEXTS.restore}
                  </Button>
                  {can(item.access, 'own') && (
                    <Button size="xs" variant="outline" colorPalette="red" disabled={busy === item.id} aria-label={`${TRASH_UI_TEXTS.deleteForever} ${item.name}`} onClick={() => setConfirming(item)}>
                      {TRASH_UI_TEXTS.deleteForever}
                    </Button>
                  )}
                </Flex>
              ))}
            </Box>
          )}
        </>
      </DialogFrame>
      <ConfirmDialog
        open={confirming !== null}
        title={TRASH_TEXTS.deleteForeverConfirm}
        description={confirming?.name}
        confirmLabel={TRASH_UI_TEXTS.deleteForever}
        busy={busy !== null && busy === confirming?.id}
        onConfirm={() => void purge()}
        onCancel={() => setConfirming(null)}
      />
    </>
  );
}
