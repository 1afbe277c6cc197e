import { Box, Button, Flex, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { TIMELINE_TEXTS, VERSION_PREVIEW_TEXTS, confirmRestoreSnapshot, confirmRestoreSnapshotDetail, snapshotDeltaLabel, type EventBus, type EventMap, type Snapshot, type VersionTransitionResult } from '@tessera/contracts';
import { ConfirmDialog, RelativeTime } from '@tessera/ui-kit';
import { useState } from 'react';
import { useStore } from 'zustand';
import type { LiveVersion } from '../session/sheet-session.store.js';
import type { TimelineService } from './timeline.service.js';
import { useSnapshots } from './use-snapshots.js';

export interface TimelineMenuProps {
  sheetId: string;
  /** The sheet's live version (read while the menu is open): its entry is what the sheet already shows, so it has no Restore. */
  live: LiveVersion;
  service: TimelineService;
  bus: EventBus<EventMap>;
  /** Called before the restore is sent: edits still on their way reach the server first. */
  beforeRestore(): Promise<void>;
  /** The restore is done: the Workspace reloads the sheet at the new version. */
  onRestored(result: VersionTransitionResult): void;
  /** Shows that version read-only in the grid (the version preview). */
  onPreview(version: number): void;
  readOnly?: boolean;
}


/**
 * The toolbar's Timeline menu (spec 01 §2, spec 02 §2): the sheet's Snapshots list (60, newest
 * first) with author, relative time and changed-cell count, a Refresh button, Preview (the
 * version read-only in the grid) and Restore with a confirmation. The list loads each time the menu opens, so a closed menu costs no request.
 */
export function TimelineMenu({ sheetId, live, service, bus, beforeRestore, onRestored, onPreview, readOnly = false }: TimelineMenuProps) {
  const [open, setOpen] = useState(false);
  // Followed only while open: a closed menu does not render again for each acknowledged edit.
  const liveVersion = useStore(live, (s) => (open ? s.version : null));
  const { state, refresh } = useSnapshots(service, bus, sheetId, open);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [restoreError, setRestoreError] = useState<string | null>(null);

  const ask = (version: number) => {
    setRestoreError(null);
    setConfirming(version);
    setOpen(false);
  };

  const restore = async () => {
    if (confirming === null) return;
    setRestoring(true);
    await beforeRestore();
    const result = await service.restore(sheetId, confirming);
    setRestoring(false);
    if (!result.success) {
      setRestoreError(result.error);
      return;
    }
    setConfirming(null);
    // Spec 02 §4: the restore replaces the sheet, then the snapshot list is reloaded; the list
    // is fetched each time the menu opens, so the next look at it is the reloaded list.
    onRestored(result.data);
  };

  const preview = (version: number) => {
    setOpen(false);
    onPreview(version);
  };

  const snapshots = state.phase === 'idle' ? [] : state.snapshots;
  const now = Date.now();

  return (
    <>
      <Popover.Root open={open} onOpenChange={(e) => setOpen(e.open)} positioning={{ placement: 'bottom-start' }} lazyMount>
        <Popover.Trigger asChild>
          <Button size="xs" variant="outline" data-testid="timeline-menu">
            {TIMELINE_TEXTS.menu}
          </Button>
        </Popover.Trigger>
        <Portal>
          <Popover.Positioner>
            <Popover.Content data-testid="timeline-panel" width="24rem">
              <Popover.Header>
                <Flex align="center" gap="2">
                  <Popover.Title fontWeight="semibold">{TIMELINE_TEXTS.title}</Popover.Title>
                  {state.phase === 'loading' && <Spinner size="xs" aria-label={TIMELINE_TEXTS.loading} />}
                  <Button size="xs" variant="ghost" ms="auto" onClick={refresh} disabled={state.phase === 'loading'} data-testid="timeline-refresh">
                    {TIMELINE_TEXTS.refresh}
                  </Button>
                </Flex>
              </Popover.Header>
              <Popover.Body maxH="24rem" overflowY="auto" pt="0">
                {state.phase === 'failed' && (
                  <Text color="fg.error" fontSize="sm" role="alert" data-testid="timeline-error">
                    {state.error}
                  </Text>
                )}
                {state.phase === 'loading' && snapshots.length === 0 && (
                  <Text fontSize="sm" color="fg.muted">
                    {TIMELINE_TEXTS.loading}
                  </Text>
                )}
                {state.phase === 'ready' && snapshots.length === 0 && (
                  <Text fontSize="sm" color="fg.muted">
                    {TIMELINE_TEXTS.empty}
                  </Text>
                )}
                <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" data-testid="timeline-list">
                  {snapshots.map((s) => (
                    <SnapshotRow key={s.version} snapshot={s} now={now} live={s.version === liveVersion} readOnly={readOnly} onRestore={ask} onPreview={preview} />
                  ))}
                </Stack>
              </Popover.Body>
            </Popover.Content>
          </Popover.Positioner>
        </Portal>
      </Popover.Root>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming !== null ? confirmRestoreSnapshot(confirming) : ''}
        description={confirmRestoreSnapshotDetail}
        error={restoreError}
        tone="primary"
        confirmLabel={TIMELINE_TEXTS.restore}
        busy={restoring}
        onConfirm={() => void restore()}
        onCancel={() => !restoring && setConfirming(null)}
        testId="timeline-restore-dialog"
        errorTestId="timeline-restore-error"
      />
    </>
  );
}

interface SnapshotRowProps {
  snapshot: Snapshot;
  now: number;
  live: boolean;
  readOnly: boolean;
  onRestore(version: number): void;
  onPreview(version: number): void;
}

function SnapshotRow({ snapshot, now, live, readOnly, onRestore, onPreview }: SnapshotRowProps) {
  return (
    <Flex as="li" align="center" gap="2" py="1" borderBottomWidth="1px" data-testid="timeline-entry" data-version={snapshot.version}>
      <Box flex="1" minW="0">
        <Text fontSize="sm" truncate>
          #{snapshot.version}
          {snapshot.label ? ` · ${snapshot.label}` : ''} · {snapshot.author ?? TIMELINE_TEXTS.unknownAuthor}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          <RelativeTime iso={snapshot.created_at} now={now} />{' '}
          · {snapshotDeltaLabel(snapshot.delta_cells)}
        </Text>
      </Box>
      {live ? (
        <Text fontSize="xs" color="fg.muted">
          {TIMELINE_TEXTS.current}
        </Text>
      ) : (
        <>
          <Button size="xs" variant="ghost" onClick={() => onPreview(snapshot.version)} aria-label={`${VERSION_PREVIEW_TEXTS.preview} #${snapshot.version}`}>
            {VERSION_PREVIEW_TEXTS.preview}
          </Button>
          <Button size="xs" variant="outline" disabled={readOnly} onClick={() => onRestore(snapshot.version)} aria-label={`${TIMELINE_TEXTS.restore} #${snapshot.version}`}>
            {TIMELINE_TEXTS.restore}
          </Button>
        </>
      )}
    </Flex>
  );
}
