import type { EventBus, EventMap, Snapshot } from '@tessera/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineService } from './timeline.service.js';

export type SnapshotsState =
  | { phase: 'idle' }
  | { phase: 'loading'; snapshots: Snapshot[] }
  | { phase: 'ready'; snapshots: Snapshot[] }
  | { phase: 'failed'; snapshots: Snapshot[]; error: string };

/**
 * The sheet's Timeline entries: fetched while `active` (the menu is open), again on refresh()
 * and on 'sheet-history-refresh' for this sheet. The previous list stays shown while a new one loads.
 */
export function useSnapshots(service: TimelineService, bus: EventBus<EventMap>, sheetId: string, active: boolean) {
  const [state, setState] = useState<SnapshotsState>({ phase: 'idle' });
  const [requested, setRequested] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (!active) return;
    const call = ++latest.current;
    setState((s) => ({ phase: 'loading', snapshots: s.phase === 'idle' ? [] : s.snapshots }));
    void service.list(sheetId).then((result) => {
      // Only the newest request's answer counts: a slow older one must not overwrite it.
      if (call !== latest.current) return;
      setState((s) =>
        result.success
          ? { phase: 'ready', snapshots: result.data }
          : { phase: 'failed', snapshots: s.phase === 'idle' ? [] : s.snapshots, error: result.error },
      );
    });
  }, [service, sheetId, active, requested]);

  // Another sheet: its list, not the last one's.
  useEffect(() => setState({ phase: 'idle' }), [sheetId]);

  const refresh = useCallback(() => setRequested((n) => n + 1), []);

  useEffect(
    () =>
      bus.on('sheet-history-refresh', (e) => {
        if (e.sheetId === sheetId) refresh();
      }),
    [bus, sheetId, refresh],
  );

  return { state, refresh };
}
