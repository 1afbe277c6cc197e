import {
  describeError,
  errorStatus,
  failedToLoadVersions,
  failedVersionAction,
  type SheetVersionEntry,
  type ShellContext,
} from '@tessera/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { VersionsClient } from './versions.client.js';

export interface SheetVersionsState {
  phase: 'idle' | 'loading' | 'ready' | 'failed';
  versions: SheetVersionEntry[];
  error: string | null;
  /** The version a button was pressed on, while its call runs. */
  busy: string | null;
  /** The version the Workspace previews now (its banner is open). */
  previewing: string | null;
}

// The events after which the list may be out of date (spec 02 §7 browser events, issue 6 Events).
const REFRESH_EVENTS = ['sheet-proposal', 'sheet-history-refresh', 'sheet-snapshot-merged'] as const;

/**
 * The current sheet's versions for the git tab: loaded for shell.sheet.id, refreshed on the bus
 * events above, with Preview (shown by the Workspace on the data tab), accept / checkout /
 * discard and labels. Spec 02 §4: these do nothing without a current sheet id, and after a
 * checkout or an accept the product sends reload_request on the live socket.
 */
export function useSheetVersions(shell: ShellContext) {
  const sheetId = shell.sheet.id;
  const client = useMemo(() => new VersionsClient(shell.api), [shell.api]);
  const [state, setState] = useState<SheetVersionsState>({ phase: 'idle', versions: [], error: null, busy: null, previewing: null });
  const [requested, setRequested] = useState(0);
  const shellRef = useRef(shell);
  shellRef.current = shell;
  const latest = useRef(0);
  // A preview asked for while the Workspace was not mounted yet: asked again once it has loaded the sheet.
  const pendingPreview = useRef<{ sheetId: string; versionId: string } | null>(null);

  const refresh = useCallback(() => setRequested((n) => n + 1), []);

  useEffect(() => {
    if (!sheetId) {
      setState((s) => ({ ...s, phase: 'idle', versions: [], error: null }));
      return;
    }
    const call = ++latest.current;
    setState((s) => ({ ...s, phase: 'loading' }));
    client.history(sheetId).then(
      (history) => call === latest.current && setState((s) => ({ ...s, phase: 'ready', versions: history.versions, error: null })),
      (error: unknown) => call === latest.current && setState((s) => ({ ...s, phase: 'failed', error: failedToLoadVersions(describeError(error)) })),
    );
  }, [client, sheetId, requested]);

  const { bus } = shell;
  useEffect(() => {
    const offs = REFRESH_EVENTS.map((event) =>
      bus.on(event, (e) => {
        if (e.sheetId === sheetId) refresh();
      }),
    );
    offs.push(
      bus.on('sheet-version-previewing', (e) => {
        if (e.sheetId !== sheetId) return;
        if (pendingPreview.current?.versionId === e.versionId) pendingPreview.current = null;
        setState((s) => ({ ...s, previewing: e.versionId }));
      }),
      bus.on('sheet-loaded', (e) => {
        const pending = pendingPreview.current;
        if (pending && pending.sheetId === e.sheetId) bus.emit('sheet-version-preview', pending);
      }),
    );
    return () => offs.forEach((off) => off());
  }, [bus, sheetId, refresh]);

  const run = useCallback(
    async (entry: SheetVersionEntry, action: 'accept' | 'checkout' | 'discard') => {
      const current = shellRef.current.sheet.id;
      if (!current) return;
      setState((s) => ({ ...s, busy: entry.version_id, error: null }));
      try {
        if (action === 'discard') {
          await client.discard(current, entry.version_id);
        } else {
          const result = await client.transition(current, entry.version_id, action);
          // Spec 02 §4: after a checkout (or a switch) everyone on the sheet reloads it.
          shellRef.current.live.requestReload();
          shellRef.current.bus.emit('sheet-updated', { sheetId: current, version: result.version });
        }
        setState((s) => ({ ...s, busy: null }));
        shellRef.current.bus.emit('sheet-history-refresh', { sheetId: current });
      } catch (error) {
        if (action === 'discard') {
          setState((s) => ({ ...s, busy: null, error: failedVersionAction(action, describeError(error)) }));
        } else {
          // Spec 02 §8: a failed accept or checkout is only logged, with its status and body.
          console.error(`[git] ${action} of version ${entry.version_id} failed`, errorStatus(error) ?? 'no reply', describeError(error));
          setState((s) => ({ ...s, busy: null }));
        }
      }
    },
    [client],
  );

  const setLabel = useCallback(
    async (entry: SheetVersionEntry, label: string) => {
      const current = shellRef.current.sheet.id;
      if (!current) return;
      try {
        await client.label(current, entry.version_id, label);
        refresh();
      } catch (error) {
        setState((s) => ({ ...s, error: failedVersionAction('label', describeError(error)) }));
      }
    },
    [client, refresh],
  );

  /** Shows the version read-only in the Workspace, on the data tab. */
  const preview = useCallback((entry: SheetVersionEntry) => {
    const current = shellRef.current.sheet.id;
    if (!current) return;
    const request = { sheetId: current, versionId: entry.version_id };
    pendingPreview.current = request;
    shellRef.current.navigate(`/sheets/${encodeURIComponent(current)}?tab=data`);
    shellRef.current.bus.emit('sheet-version-preview', request);
  }, []);

  return { state, refresh, run, setLabel, preview };
}
