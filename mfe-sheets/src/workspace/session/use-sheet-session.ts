import {
  SHEET_LOADED_EVENT_DELAY_MS,
  columnLabel,
  normalizeHeaders,
  type CellChange,
  type ExportFormat,
  type ShellContext,
} from '@tessera/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { downloadFile, exportFileName } from '../export-file-name.js';
import { loadFormulaEngine } from '../grid/formula-engine.js';
import { hasFormula, isFormula, sizeAfterEdits, sizeAfterStructure, storedCells, storedSize } from '../grid/grid-shape.js';
import type { StructureChange } from '../grid/SheetGrid.js';
import type { SheetService } from '../sheet.service.js';
import { CellSync } from './cell-sync.js';
import { createSheetSessionStore, type LoadedSheet, type SheetSessionState } from './sheet-session.store.js';

export interface SheetSession {
  state: SheetSessionState;
  onCellsChanged(changes: CellChange[]): void;
  onStructureChanged(change: StructureChange): void;
  onSelect(row: number, col: number): void;
  save(): Promise<void>;
  exportAs(format: ExportFormat): Promise<void>;
  duplicate(): Promise<void>;
  remove(): Promise<boolean>;
  dismissError(): void;
  /** Sends the edits still on their way (before a restore replaces the sheet). */
  flush(): Promise<void>;
  /** The sheet changed on the server (a Timeline restore): load it again and tell the others. */
  reload(version: number): void;
}

/**
 * The Workspace's sheet: loads the route's sheet (spec 01 §4: loading flag, dismissible error,
 * sheet-loaded 200 ms later), sends edits through CellSync, runs the File menu's commands,
 * and reports name, headers, size, version and getData() to the shell.
 */
export function useSheetSession(shell: ShellContext, service: SheetService): SheetSession {
  const [store] = useState(createSheetSessionStore);
  const state = useStore(store);
  const id = shell.sheet.id;
  // The latest shell, for callbacks and effects that must not re-run when its object changes
  // (it changes with every report and selection).
  const shellRef = useRef(shell);
  shellRef.current = shell;
  const syncRef = useRef<CellSync | null>(null);
  const [reloads, setReloads] = useState(0);
  const keepErrorRef = useRef<string | null>(null);
  const loadCount = useRef(0);

  // Load the route's sheet (again after a conflict).
  useEffect(() => {
    if (id === null) {
      store.setState({ phase: 'idle', sheet: null });
      return;
    }
    let current = true;
    const keptError = keepErrorRef.current;
    keepErrorRef.current = null;
    store.setState({ phase: 'loading', sheet: null, error: keptError, saveError: keptError, pending: false, formulaEngine: null });
    let loadedTimer: ReturnType<typeof setTimeout> | undefined;
    let stopSession = () => {};

    void (async () => {
      const result = await service.load(id);
      if (!current) return;
      if (!result.success) {
        store.setState({ phase: 'failed', error: result.error });
        return;
      }
      const sheet = result.data;
      let formulaEngine = null;
      if (hasFormula(sheet.data)) {
        try {
          formulaEngine = await loadFormulaEngine();
        } catch (error) {
          console.error('[sheets] the formula engine could not be loaded; formulas show as text', error);
        }
        if (!current) return;
      }
      const size = storedSize(sheet.data, sheet.metadata.rows, sheet.metadata.columns);
      const loaded: LoadedSheet = { id, data: sheet.data, headers: { current: [...sheet.metadata.headers] }, loadKey: ++loadCount.current };
      // This sheet's size as edits change it; kept here so that edits still sent after
      // switching to another sheet are sent with their own sheet's size.
      let sizeNow = size;
      const unsubscribe = store.subscribe((s) => {
        if (s.sheet === loaded) sizeNow = s.size;
      });
      // The navigator shows each sheet's size: tell it when typing beyond the grid grew it.
      let announcedSize = size;
      const sync = new CellSync({
        version: sheet.version,
        patch: (base, changes) => service.patchCells(id, base, changes),
        saveAll: (base) =>
          // Without the name: the Workspace does not rename, and a stale name would undo someone's rename.
          service.save({ id, headers: loaded.headers.current, data: storedCells(loaded.data, sizeNow), baseVersion: base }),
        onSaved: (version, at) => {
          if (!current) return;
          const before = store.getState();
          store.setState({ version, lastSavedAt: at, saveError: null, error: before.error === before.saveError ? null : before.error });
          if (sizeNow.rows !== announcedSize.rows || sizeNow.cols !== announcedSize.cols) {
            announcedSize = sizeNow;
            shellRef.current.bus.emit('sheet-updated', { sheetId: id, version });
          }
        },
        onFailed: (failure) => {
          if (!current) return;
          store.setState({ saveError: failure.error, error: failure.error });
          if (failure.status === 409) {
            // The same cells changed on the server: show it, then show the server's sheet.
            keepErrorRef.current = failure.error;
            setReloads((n) => n + 1);
          }
        },
        onPending: (pending) => current && store.setState({ pending }),
      });
      syncRef.current = sync;
      stopSession = () => {
        unsubscribe();
        sync.stop();
      };
      store.setState({
        phase: 'ready',
        sheet: loaded,
        name: sheet.name,
        size,
        version: sheet.version,
        formulaEngine,
        lastSavedAt: sheet.updated_at,
      });
      loadedTimer = setTimeout(() => shellRef.current.bus.emit('sheet-loaded', { sheetId: id }), SHEET_LOADED_EVENT_DELAY_MS);
    })();

    return () => {
      current = false;
      clearTimeout(loadedTimer);
      const sync = syncRef.current;
      syncRef.current = null;
      // Edits typed just before leaving still reach the server.
      if (sync) void sync.flush().then(stopSession);
    };
  }, [id, service, store, reloads]);

  // A rename in the navigator (sheet-updated with a name) shows here at once.
  useEffect(
    () =>
      shell.bus.on('sheet-updated', (e) => {
        if (e.sheetId === id && e.name !== undefined && e.name !== store.getState().name) store.setState({ name: e.name });
      }),
    [shell.bus, id, store],
  );

  // Tell the shell what is loaded: the chat and git remotes read it from shell.sheet.
  const { phase, sheet, name, size, version } = state;
  useEffect(() => {
    if (phase !== 'ready' || !sheet) return;
    shellRef.current.sheet.report({
      id: sheet.id,
      name,
      headers: normalizeHeaders(sheet.headers.current, size.cols),
      size,
      version,
      getData: () => storedCells(sheet.data, store.getState().size),
    });
  }, [phase, sheet, name, size, version, store]);
  useEffect(() => () => shellRef.current.sheet.report(null), [id]);

  return useMemo<SheetSession>(() => {
    const sheetId = () => store.getState().sheet?.id ?? null;
    const fail = (error: string) => store.setState({ error });

    return {
      state,
      onCellsChanged(changes) {
        const { size } = store.getState();
        const grown = sizeAfterEdits(size, changes);
        // A new size object only when it changed: the shell is told of every new one.
        if (grown.rows !== size.rows || grown.cols !== size.cols) store.setState({ size: grown });
        syncRef.current?.edit(changes);
        if (!store.getState().formulaEngine && changes.some((c) => isFormula(c.value))) {
          // The first formula typed into a plain sheet engages the engine; the grid is rebuilt with it.
          loadFormulaEngine().then(
            (engine) => store.setState({ formulaEngine: engine }),
            (error: unknown) => console.error('[sheets] the formula engine could not be loaded', error),
          );
        }
      },
      onStructureChanged({ axis, index, amount }) {
        const held = store.getState().sheet;
        if (axis === 'col' && held) {
          const headers = held.headers.current;
          // Letter headers stay letters in order; named ones keep their names and a new column
          // is named by its letter, as a spreadsheet shows it.
          const generated = headers.every((h, i) => h === columnLabel(i));
          if (amount > 0) headers.splice(index, 0, ...Array.from({ length: amount }, (_, i) => columnLabel(index + i)));
          else headers.splice(index, -amount);
          if (generated) held.headers.current = normalizeHeaders([], headers.length);
        }
        store.setState((s) => ({ size: sizeAfterStructure(s.size, axis, index, amount) }));
        syncRef.current?.structureChanged();
      },
      onSelect(row, col) {
        shellRef.current.sheet.select(row, col);
      },
      async save() {
        const sync = syncRef.current;
        const sheetIdNow = sheetId();
        if (!sync || !sheetIdNow) return;
        await sync.saveNow();
        const s = store.getState();
        if (s.saveError === null) shellRef.current.bus.emit('sheet-updated', { sheetId: sheetIdNow, name: s.name, version: s.version });
      },
      async exportAs(format) {
        await syncRef.current?.flush();
        const result = await service.exportFile(sheetId(), format);
        if (!result.success) return fail(result.error);
        downloadFile(result.data, exportFileName(store.getState().name, format));
      },
      async duplicate() {
        const sheetIdNow = sheetId();
        if (!sheetIdNow) return;
        await syncRef.current?.flush();
        const result = await service.duplicate(sheetIdNow);
        if (!result.success) return fail(result.error);
        const copy = result.data;
        shellRef.current.bus.emit('sheet-created', { sheetId: copy.id, name: copy.name });
        shellRef.current.bus.emit('sheet-updated', { sheetId: copy.id, name: copy.name, version: copy.version });
      },
      async remove() {
        const sheetIdNow = sheetId();
        if (!sheetIdNow) return false;
        const result = await service.remove(sheetIdNow);
        if (!result.success) {
          fail(result.error);
          return false;
        }
        syncRef.current?.stop();
        shellRef.current.bus.emit('sheet-updated', { sheetId: sheetIdNow });
        // Deleting the current sheet clears the selection (spec 01 §4).
        shellRef.current.sheet.open(null);
        return true;
      },
      dismissError() {
        store.setState({ error: null });
      },
      async flush() {
        await syncRef.current?.flush();
      },
      reload(version) {
        const sheetIdNow = sheetId();
        if (!sheetIdNow) return;
        setReloads((n) => n + 1);
        shellRef.current.bus.emit('sheet-updated', { sheetId: sheetIdNow, version });
      },
    };
  }, [state, store, service]);
}
