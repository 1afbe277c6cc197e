import { type GridData, MESSAGES, type SheetVersion, type ShellContext } from '@tessera/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { LiveVersion } from '../session/sheet-session.store.js';
import { workerFormulaEngine, type FormulaEngine } from '../grid/formula-engine.js';
import { hasFormula } from '../grid/grid-shape.js';
import { diffGrids, type GridDiff } from './grid-diff.js';
import type { VersionService } from './version.service.js';
import type { WindowedSheet } from '../windowed/windowed-sheet.js';
import { WindowedVersion } from './windowed-version.js';

export type PreviewState =
  | { phase: 'off' }
  | { phase: 'loading'; versionId: string }
  | {
      phase: 'ready';
      /** The version; its `rows` empty when it is read a window at a time (`windowed`). */
      version: SheetVersion;
      applying: boolean;
      formulaEngine: FormulaEngine | null;
      /** The version of a windowed sheet (issue 23): its rows a window at a time, the differences for the rows shown. */
      windowed?: WindowedVersion;
    }
  | { phase: 'failed'; versionId: string; error: string };

export interface VersionPreviewOptions {
  /** The sheet the Workspace shows (null: none loaded). */
  sheetId: string | null;
  /** The live grid as the Workspace holds it now (the user's own edits included). */
  liveGrid(): GridData | null;
  /** The live version, followed while a version is shown: when it moves (an edit, a remote change) the highlights are computed again. */
  live: LiveVersion;
  /** The live sheet when it is shown a window at a time (issue 23): its versions are previewed the same way. */
  windowedLive?: WindowedSheet | null;
  /** Sends the edits still on their way before Apply replaces the sheet. */
  beforeApply(): Promise<void>;
  /** Apply made `version` the live one: the Workspace reloads the sheet. */
  onApplied(version: number): void;
}

/**
 * The read-only preview of a version (spec 02 §2, §4): open(versionId) from the Timeline menu or
 * the git tab (bus 'sheet-version-preview'), Exit Preview, Apply (accept a proposal, check out
 * any other version, then reload_request on the live socket). The cells that differ from the
 * live grid are computed once per version and live version, not at each render.
 */
export function useVersionPreview(shell: ShellContext, service: VersionService, options: VersionPreviewOptions) {
  const { sheetId } = options;
  const [state, setState] = useState<PreviewState>({ phase: 'off' });
  // Not followed without a version shown: the Workspace would render again for each acknowledged edit.
  const liveVersion = useStore(options.live, (s) => (state.phase === 'ready' ? s.version : null));
  // AI Editing Mode's staged edit: its badge's Commit / Discard decide, so Apply is not offered.
  const [staged, setStaged] = useState(false);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const shellRef = useRef(shell);
  shellRef.current = shell;
  const latest = useRef(0);

  const open = useCallback(
    (versionId: string, asStaged = false) => {
      if (!sheetId) return;
      setStaged(asStaged);
      const call = ++latest.current;
      setState({ phase: 'loading', versionId });
      const live = optionsRef.current.windowedLive;
      if (live) {
        // A windowed sheet's version is not read whole either: its summary with one row first.
        void service.rows(sheetId, versionId, 0, 1, true).then((result) => {
          if (call !== latest.current) return;
          if (!result.success || !result.data.version) {
            setState({ phase: 'failed', versionId, error: result.success ? MESSAGES.unknownError : result.error });
            return;
          }
          const windowed = new WindowedVersion(
            { ...result.data, version: result.data.version },
            (start, count, columns) => service.rows(sheetId, versionId, start, count, false, columns).then((r) => (r.success ? r.data : null)),
            (start, count) => live.cells({ start, count }),
          );
          setState({ phase: 'ready', version: windowed.version, applying: false, formulaEngine: null, windowed });
        });
        return;
      }
      void service.get(sheetId, versionId).then(async (result) => {
        // Only the newest request counts: a slow older one must not replace it.
        if (call !== latest.current) return;
        if (!result.success) {
          setState({ phase: 'failed', versionId, error: result.error });
          return;
        }
        // A version that holds formulas shows them computed, as the live sheet does.
        const engine = hasFormula(result.data.rows) ? workerFormulaEngine : null;
        if (call === latest.current) setState({ phase: 'ready', version: result.data, applying: false, formulaEngine: engine });
      });
    },
    [service, sheetId],
  );

  const exit = useCallback(() => {
    latest.current++;
    setState({ phase: 'off' });
    setStaged(false);
  }, []);

  const apply = useCallback(async () => {
    // Spec 02 §4: Apply does nothing without a current sheet id.
    const current = shellRef.current.sheet.id;
    if (state.phase !== 'ready' || staged || !current || current !== sheetId) return;
    const { version } = state;
    setState({ ...state, applying: true });
    await optionsRef.current.beforeApply();
    const result = await service.apply(sheetId, version.version_id, version.status);
    if (result === null) {
      // The live version: the sheet already shows it.
      exit();
      return;
    }
    if (!result.success) {
      // Spec 02 §8: a failed accept or checkout is only logged, with its status and body.
      console.error(`[sheets] apply of version ${version.version_id} failed`, result.status ?? 'no reply', result.error);
      setState({ ...state, applying: false });
      return;
    }
    exit();
    const bus = shellRef.current.bus;
    // Spec 02 §4: after a checkout or switch, everyone on the sheet reloads it.
    shellRef.current.live.requestReload();
    optionsRef.current.onApplied(result.data.version);
    bus.emit('sheet-history-refresh', { sheetId });
  }, [state, staged, service, sheetId, exit]);

  // Another sheet: no preview of the last one's version.
  useEffect(() => exit, [sheetId, exit]);

  // The git tab and AI Editing Mode's staged edit ask for a preview through the bus (null: end it).
  useEffect(
    () =>
      shell.bus.on('sheet-version-preview', (e) => {
        if (e.sheetId !== sheetId) return;
        if (e.versionId === null) exit();
        else open(e.versionId, e.staged === true);
      }),
    [shell.bus, sheetId, open, exit],
  );

  // Tell the other remotes (the git tab's list) which version is previewed now.
  const previewed = state.phase === 'off' ? null : state.phase === 'ready' ? state.version.version_id : state.versionId;
  useEffect(() => {
    if (sheetId) shellRef.current.bus.emit('sheet-version-previewing', { sheetId, versionId: previewed });
  }, [sheetId, previewed]);

  // A windowed version stops reading when it is no longer shown, and compares again when the live sheet changes.
  const windowed = state.phase === 'ready' ? (state.windowed ?? null) : null;
  useEffect(() => (windowed ? () => windowed.stop() : undefined), [windowed]);
  useEffect(() => windowed?.liveChanged(), [windowed, liveVersion]);

  const version = state.phase === 'ready' ? state.version : null;
  const diff = useMemo<GridDiff | null>(() => {
    const live = version ? optionsRef.current.liveGrid() : null;
    return version && live ? diffGrids(live, version.rows) : null;
    // liveVersion is a dependency on purpose: the live grid is edited in place, so its version says when it changed.
  }, [version, liveVersion]);

  return { state, staged, diff, open, exit, apply };
}

export type VersionPreview = ReturnType<typeof useVersionPreview>;
