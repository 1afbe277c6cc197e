import {
  ACCESS_TEXTS,
  type AccessLevel,
  LiveSheet,
  applyChartChange,
  chartsOf,
  moveCharts,
  type ChartDefinition,
  NEW_SHEET_EDITOR_DEFAULT,
  SHEET_LOADED_EVENT_DELAY_MS,
  columnLabel,
  isInsertStructure,
  isRowStructure,
  meetsAccess,
  normalizeHeaders,
  type CellChange,
  type ClearBlock,
  type ExportFormat,
  type GridData,
  type LiveServerFrame,
  type RowRange,
  type Sheet,
  type ShellContext,
  type SheetRows,
  type SheetSize,
  type SheetSummary,
  type SortDirection,
  inverseOrder,
} from '@tessera/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { downloadFile, exportFileName } from '../export-file-name.js';
import { workerFormulaEngine } from '../grid/formula-engine.js';
import { cellKey, gridLink, type GridPlace, type PresenceMark } from '../grid/grid-link.js';
import { hasFormula, isFormula, padRows, padRowsInSlices, sizeAfterEdits, sizeAfterStructure, storedCells, storedSize } from '../grid/grid-shape.js';
import { applyRemoteCells, applyRemoteSort, applyRemoteStructure, clearedChanges, refreshHeaders, replaceRows, showPresence } from '../grid/live-grid.js';
import type { StructureChange } from '../grid/SheetGrid.js';
import type { SheetService } from '../sheet.service.js';
import { cellOperations, clearOperation, clearUndoOperation, sortOperation, structureOperation } from './live-ops.js';
import { CellChangeLog, type ChangedCellRef } from './cell-change-log.js';
import { createSheetSessionStore, type LoadedSheet, type SheetSessionState, type SheetSessionStore } from './sheet-session.store.js';
import { WindowedSheet } from '../windowed/windowed-sheet.js';
import { rememberedFreeze } from '../freeze/remembered-freeze.js';
import { ROW_WINDOW_SIZE } from '../windowed/row-windows.js';
import { gridUndo, keepUndo } from '../undo/grid-undo.js';
import { syncKeepsUndo } from '../undo/sync-undo.js';
import type { UndoStack } from '../undo/undo-stack.js';

/** An own rows_sort on its way (see useSheetSession's ownSorts). */
type OwnSort = { kind: 'new'; column: number; direction: SortDirection } | { kind: 'undo' } | { kind: 'redo' };

/**
 * What the Workspace renders from: the state less what changes with every edit — the data tick,
 * the pending edits, the version and time of the last save (each acknowledged edit). The charts,
 * the save status, the Timeline's list and an open version preview follow those themselves
 * (through `store`), so an edit does not render the whole Workspace again.
 */
export type SheetSessionView = Omit<SheetSessionState, 'dataTick' | 'pending' | 'version' | 'lastSavedAt'>;

const sessionView = ({ dataTick: _tick, pending: _pending, version: _version, lastSavedAt: _saved, ...view }: SheetSessionState): SheetSessionView => view;

export interface SheetSession {
  state: SheetSessionView;
  /** The whole state, for the few parts that follow every edit (WithDataTick, LiveSaveStatus). */
  store: SheetSessionStore;
  onCellsChanged(changes: CellChange[]): void;
  /** `undo`: an insert that undoes the own remove the server applied at that version (it fills the new rows or columns with its cells). */
  onStructureChanged(change: StructureChange, undo?: number): void;
  /** Sorts the sheet's rows by a column (a live rows_sort): the grid shows the order once the server has applied it. */
  sortRows(column: number, direction: SortDirection, history?: { undo?: number }): void;
  /**
   * Own blocks cleared on a windowed sheet (whole columns, a long Shift range): one cells_clear
   * each, shown at once in the windows held; the server empties every row of them. Returns their
   * operations' ids (none when nothing was sent).
   */
  clearCells(blocks: ClearBlock[]): readonly string[];
  /**
   * Undo of own clears on a windowed sheet: a cells_clear_undo of each version; once the server
   * has put their cells back, the windows held of `blocks` (null: not known, every one) are read again.
   */
  undoClears(versions: number[], blocks: ClearBlock[] | null): void;
  onSelect(row: number, col: number): void;
  save(): Promise<void>;
  exportAs(format: ExportFormat): Promise<void>;
  duplicate(): Promise<void>;
  remove(): Promise<boolean>;
  dismissError(): void;
  /** Resolves once the edits on their way are acknowledged by the server (before a restore replaces the sheet). */
  flush(): Promise<void>;
  /** The sheet changed on the server (a Timeline restore): load it again and tell the others. */
  reload(version: number): void;
  /** The charts as the server answered a chart change. */
  setCharts(charts: ChartDefinition[]): void;
  /** The version the sheet shown is at now (own edits on their way not counted). */
  currentVersion(): number;
  /** Own edits are on their way to the server. */
  hasPending(): boolean;
  /** The cells changed after data tick `since` up to `until` (null: unknown, or anything may have): the charts read only those again. */
  changedCells(since: number, until: number): ChangedCellRef[] | null;
}

/**
 * The Workspace's sheet: loads the route's sheet (spec 01 §4: loading flag, dismissible error,
 * sheet-loaded 200 ms later), keeps it live on the shell's socket (own edits shown at once and
 * sent as operations, others' applied as they come, see LiveSheet), shows others' selected
 * cells, runs the File menu's commands, and reports name, headers, size, version, getData()
 * and loadData() to the shell.
 */
export function useSheetSession(shell: ShellContext, service: SheetService): SheetSession {
  const [store] = useState(createSheetSessionStore);
  // What each data tick changed: cells, or null (anything may have).
  const [changeLog] = useState(() => new CellChangeLog());
  /** The cells changed (null: anything may have): recorded, then dataTick raised (with `more` of the state). */
  const dataChanged = (cells: readonly ChangedCellRef[] | null, more: (s: SheetSessionState) => Partial<SheetSessionState> = () => ({})) => {
    const tick = store.getState().dataTick + 1;
    changeLog.record(tick, cells);
    store.setState((s) => ({ ...more(s), dataTick: tick }));
  };
  const state = useStore(store, useShallow(sessionView));
  const id = shell.sheet.id;
  // The latest shell, for callbacks and effects that must not re-run when its object changes
  // (it changes with every report and selection).
  const shellRef = useRef(shell);
  shellRef.current = shell;
  const liveRef = useRef<LiveSheet | null>(null);
  const [reloads, setReloads] = useState(0);
  const keepErrorRef = useRef<string | null>(null);
  const loadCount = useRef(0);
  // A windowed sheet a formula came into, read whole (see startWindowed's formulasCame): the next load is this.
  const wholeRef = useRef<SwitchToWhole | null>(null);
  // The windowed sheet's check of formulas the user typed or pasted (its own edits reach the session outside its load).
  const windowedFormulasRef = useRef<((changes: readonly CellChange[]) => void) | null>(null);
  // The user's rows_sort operations on their way, by id: a new sort (a step once the server gave its version), an undo, or a redo.
  const ownSorts = useRef(new Map<string, OwnSort>());
  /**
   * The user's cells_clear_undo operations on their way, by id: the clear's version they undo, the
   * blocks their cells lie in (null: not known) as the windowed sheet's rows stood (its `moves`) when they were sent.
   */
  const ownClearUndos = useRef(new Map<string, { version: number; blocks: ClearBlock[] | null; moves: number }>());
  /** The user's inserts undoing a remove (`undo`) on their way, by id: the remove's version (a refusal drops its step). */
  const ownStructureUndos = useRef(new Map<string, number>());
  /** What an applied sort does to `undo`: the steps follow the rows (or go, see UndoStack.sorted); an own new sort becomes a step. */
  const sortedSteps = (undo: UndoStack, { version, own, order }: { version: number; own?: string; order: readonly number[] | null }, rowCount?: number) => {
    const mine = own === undefined ? undefined : ownSorts.current.get(own);
    if (own !== undefined) ownSorts.current.delete(own);
    const inverse = order === null ? null : inverseOrder(order);
    if (mine?.kind === 'new') undo.sorted(inverse, { step: { version, column: mine.column, direction: mine.direction } }, rowCount);
    else if (mine?.kind === 'redo') undo.sorted(inverse, { redone: version }, rowCount);
    else undo.sorted(inverse, undefined, rowCount);
  };

  // Load the route's sheet (again after a conflict or a restore) and follow it live.
  useEffect(() => {
    if (id === null) {
      store.setState({ phase: 'idle', sheet: null, switching: false });
      return;
    }
    let current = true;
    const keptError = keepErrorRef.current;
    keepErrorRef.current = null;
    const switched = wholeRef.current;
    wholeRef.current = null;
    // A switch to whole keeps the windowed grid shown (switching) until the whole one is ready: no 'Loading sheet...'.
    if (!switched) store.setState({ phase: 'loading', sheet: null, error: keptError, saveError: keptError, pending: false, formulaEngine: null, switching: false });
    let loadedTimer: ReturnType<typeof setTimeout> | undefined;
    let stopSession = () => {};

    // Subscribed before loading: frames that come while the sheet loads are held, then applied
    // above the loaded version (an edit committed just after the read is not lost).
    let live: LiveSheet | null = null;
    const early: LiveServerFrame[] = [];
    // The level a sharing change gave us while the sheet loaded wins over the one the load read.
    let toldAccess: AccessLevel | null = null;
    const unsubscribeLive = shellRef.current.live.subscribe((frame) => {
      if (!current || !aboutSheet(frame, id)) return;
      if (frame.type === 'access') {
        toldAccess = frame.data.access;
        if (live) store.setState(accessChange(store.getState(), frame.data.access));
        return;
      }
      if (frame.type === 'new_proposal') shellRef.current.bus.emit('sheet-proposal', { sheetId: id, versionId: frame.data.version_id });
      if (frame.type === 'live_update_accepted') shellRef.current.bus.emit('sheet-history-refresh', { sheetId: id });
      if (live) live.receive(frame);
      else early.push(frame);
    });

    /**
     * The live link's onVersion, for a sheet loaded whole or windowed: the version held; an own
     * edit in the database is saved, and a save error of before is over. The navigator shows each
     * sheet's size: it is told when an edit (typing beyond the grid, a row op) changed it, the
     * user's or someone else's (their 20,000 rows inserted left it at the old count here otherwise).
     */
    const versionHandler = (size: SheetSize) => {
      let announcedSize = size;
      // The navigator reads the sizes from the server: told while own operations were still on
      // their way (a filtered Remove rows sends one per run), it read a size the server had not
      // reached yet; it is told again once they are all in.
      let toldEarly = false;
      return (version: number, savedAt: string | null) => {
        const before = store.getState();
        if (savedAt === null) store.setState({ version });
        else store.setState({ version, lastSavedAt: savedAt, saveError: null, error: before.error === before.saveError ? null : before.error });
        const now = store.getState().size;
        const inFlight = (liveRef.current?.pending ?? 0) > 0;
        if (now.rows !== announcedSize.rows || now.cols !== announcedSize.cols || (toldEarly && !inFlight)) {
          announcedSize = now;
          toldEarly = inFlight;
          shellRef.current.bus.emit('sheet-updated', { sheetId: id, version });
        }
      };
    };

    /**
     * A sheet of WINDOWED_SHEET_MIN_ROWS rows or more without formulas the engine would compute (it
     * reads the whole grid: contracts opensWindowed) is read a window at a time (issue 23): the session
     * holds its size and the windows read, and follows it live the same way; its charts read the rows
     * of their ranges through the windows (WindowedSheet.keep).
     */
    const startWindowed = (first: SheetRows, summary: SheetSummary) => {
      const windowed = new WindowedSheet(first, async (start, count, columns) => {
        const reply = await service.rows(id, start, count, false, columns);
        return reply.success ? reply.data : null;
      });
      // Windowed with formulas only past the engine's bound (opensWindowed): the count says by how much.
      const overLimit = summary.may_have_formulas !== false && summary.held_cells !== undefined ? { formulaCellsOverLimit: summary.held_cells } : {};
      const loaded: LoadedSheet = { id, data: [], headers: { current: [...summary.metadata.headers] }, loadKey: ++loadCount.current, windowed, freeze: rememberedFreeze(shellRef.current.user.id, id), ...overLimit };
      const sizeNow = () => store.getState().size;
      const resize = (next: { rows: number; cols: number }) => {
        const before = sizeNow();
        if (next.rows !== before.rows || next.cols !== before.cols) store.setState({ size: next });
      };
      const versionHeld = versionHandler({ rows: first.row_count, cols: first.column_count });
      const touched = (cells: readonly ChangedCellRef[] | null) => dataChanged(cells);
      // A formula came (formulasCame): the server is asked once at a time.
      let asking = false;
      /**
       * A formula typed, pasted or sent by another user into a sheet opened windowed without any (a
       * windowed grid has no formula engine, which reads the whole grid). Once the user's own edits
       * are acknowledged, the server says (GET /sheets/:id, as at opening: contracts opensWindowed on
       * the sheet's exact count of held cells) whether the engine can take the sheet: then it comes
       * whole and the session switches to it, keeping the user's place and undo steps; past the
       * engine's bound it comes windowed with that count, and the Workspace shows the notice a sheet
       * opened windowed with formulas shows. The switch waits until the whole sheet read holds every
       * edit shown: nothing is pending and no version came after it (then it is read again).
       * `changes` null: the sheet was replaced (a sync: a restore, an api write, a repair), any cell may hold one.
       */
      const formulasCame = (changes: readonly CellChange[] | null) => {
        if (asking || store.getState().sheet?.formulaCellsOverLimit !== undefined || (changes !== null && !changes.some((c) => isFormula(c.value)))) return;
        asking = true;
        void (async () => {
          for (let attempt = 0; attempt < SWITCH_READS_MAX; attempt++) {
            await sheetLive.whenSaved();
            if (!current) return;
            // A window of one row when it stays windowed: only the count is wanted then.
            const reply = await service.load(id, 1);
            if (!current) return;
            if (!reply.success) break;
            if (reply.data.windowed) {
              const shown = store.getState().sheet;
              const held = reply.data.held_cells;
              if (held !== undefined && reply.data.may_have_formulas !== false && shown?.windowed === windowed) store.setState({ sheet: { ...shown, formulaCellsOverLimit: held } });
              break;
            }
            if (sheetLive.pending === 0 && sheetLive.version <= reply.data.version) {
              wholeRef.current = { sheet: reply.data, place: gridLink(loaded.data).place?.() ?? null, undo: windowed.undo };
              store.setState({ switching: true });
              setReloads((n) => n + 1);
              return;
            }
          }
          asking = false;
        })();
      };
      windowedFormulasRef.current = formulasCame;
      const sheetLive: LiveSheet = new LiveSheet({
        version: first.version,
        // Its socket says so (the report's `windowed`): its syncs come without the cells.
        windowed: true,
        send: (operation) => shellRef.current.live.send(operation),
        applyCells: (changes) => {
          windowed.remoteCells(sheetLive.version, changes);
          resize(sizeAfterEdits(sizeNow(), changes));
          touched(changes);
          formulasCame(changes);
        },
        // Someone's clear: the windows held (and copies being read) empty its cells, but own edits on their way.
        applyClear: (blocks, keep) => {
          windowed.remoteClear(sheetLive.version, blocks, keep);
          touched(null);
        },
        // A clear undone (someone's, or the user's own once applied): the windows held of its cells are read again.
        applyClearUndo: (blocks, own) => {
          const mine = own === undefined ? undefined : ownClearUndos.current.get(own);
          if (own !== undefined) ownClearUndos.current.delete(own);
          // The user's own: where its cells are is known if no row or column moved since it was sent.
          const where = own === undefined ? blocks : mine && mine.moves === windowed.moves ? mine.blocks : null;
          windowed.putBack(sheetLive.version, where);
          touched(null);
        },
        // An own clear applied: its undo step can be undone by the server now.
        onCleared: (id, version) => windowed.undo.clearApplied(id, version),
        // An own row or column op applied: a remove's undo step can be undone by the server now; an insert undoing one is no longer refusable.
        onStructureApplied: (id, version) => {
          windowed.undo.removeApplied(id, version);
          ownStructureUndos.current.delete(id);
        },
        // An own clear's undo refused (its reason shown by onError): its step is undone by its cells next.
        // An own remove's undo refused: its step goes (UndoStack.removeUndoRefused).
        onRefused: (id) => {
          const mine = ownClearUndos.current.get(id);
          ownClearUndos.current.delete(id);
          if (mine) windowed.undo.clearUndoRefused(mine.version);
          const removal = ownStructureUndos.current.get(id);
          ownStructureUndos.current.delete(id);
          if (removal !== undefined) windowed.undo.removeUndoRefused(removal);
        },
        applyStructure: ({ type, index, count }) => {
          if (!isRowStructure(type)) shiftHeaders(loaded, index, isInsertStructure(type) ? count : -count);
          // Charts are anchored to their cells: moved as the server moved them (their rows are read again).
          const moved = moveCharts(store.getState().charts, { type, index, count });
          if (moved.changed) store.setState({ charts: moved.charts });
          windowed.remoteStructure(sheetLive.version, type, index, count);
          // The user's frozen columns move with theirs (after the slab is rebuilt with the columns moved).
          loaded.freeze.moved(isRowStructure(type) ? 'row' : 'col', index, isInsertStructure(type) ? count : -count);
          resize({ rows: windowed.rowCount, cols: windowed.colCount });
          touched(null);
        },
        applyChart: (chartId, chart) => store.setState({ charts: applyChartChange(store.getState().charts, chartId, chart) }),
        // The rows shown are read again (the sync that repairs them); the user's steps follow, or go (UndoStack.sorted).
        onSorted: (sorted) => sortedSteps(windowed.undo, sorted, windowed.rowCount),
        // A sync carries no cells here (the socket is windowed): the windows shown are read again at its version.
        replace: (sync) => {
          // The user's undo steps go (see syncKeepsUndo): a windowed sheet's own Save sends no sheet, so a
          // sync here is never of the user's doing (someone's PUT, or a repair of positions not known).
          // Sorts and clears stay: the server undoes them by version (or refuses, with the reason).
          windowed.undo.clearButSorts(sync.metadata.rows);
          loaded.headers.current = [...sync.metadata.headers];
          store.setState({ name: sync.name, charts: chartsOf(sync.metadata) });
          windowed.replace(sync.version, sync.metadata.rows, sync.metadata.columns);
          resize({ rows: sync.metadata.rows, cols: sync.metadata.columns });
          touched(null);
          formulasCame(null);
        },
        onVersion: (version, savedAt) => {
          windowed.advance(version);
          versionHeld(version, savedAt);
        },
        onPending: (count) => {
          if (count === 0) windowed.ownSaved();
          store.setState({ pending: count > 0 });
        },
        onError: (message) => store.setState({ saveError: message, error: message, ...(message === ACCESS_TEXTS.viewOnly ? { access: 'viewer' as const } : {}) }),
        // The server's sheet, without its cells: the windows shown are read again at its version.
        fetch: async () => {
          const reply = await service.rows(id, 0, 1, true);
          if (!reply.success || !reply.data.sheet) return null;
          const { name, metadata, updated_at } = reply.data.sheet;
          return { sheet_id: id, version: reply.data.version, name, metadata: { ...metadata, rows: reply.data.row_count, columns: reply.data.column_count }, timestamp: updated_at };
        },
      });
      live = sheetLive;
      liveRef.current = sheetLive;
      stopSession = () => {
        sheetLive.stop();
        windowed.stop();
        if (windowedFormulasRef.current === formulasCame) windowedFormulasRef.current = null;
      };
      store.setState({
        phase: 'ready',
        sheet: loaded,
        name: summary.name,
        size: { rows: first.row_count, cols: first.column_count },
        version: first.version,
        formulaEngine: null,
        lastSavedAt: summary.updated_at,
        access: toldAccess ?? summary.access ?? null,
        charts: chartsOf(summary.metadata),
      });
      for (const frame of early.splice(0)) sheetLive.receive(frame);
      loadedTimer = setTimeout(() => shellRef.current.bus.emit('sheet-loaded', { sheetId: id }), SHEET_LOADED_EVENT_DELAY_MS);
    };

    void (async () => {
      // One request either way: a sheet shown a window at a time comes with its first window only
      // (the server decides by the same opensWindowed), any other whole.
      const result = switched ? { success: true as const, data: switched.sheet } : await service.load(id, ROW_WINDOW_SIZE);
      if (!current) return;
      if (!result.success) {
        store.setState({ phase: 'failed', error: result.error });
        return;
      }
      if (result.data.windowed) {
        const { data, windowed: _windowed, ...summary } = result.data;
        startWindowed({ id, version: summary.version, row_count: summary.metadata.rows, column_count: summary.metadata.columns, start: 0, data }, summary);
        return;
      }
      const sheet = result.data;
      const formulaEngine = hasFormula(sheet.data) ? workerFormulaEngine : null;
      const size = storedSize(sheet.data, sheet.metadata.rows, sheet.metadata.columns);
      // Issue 23: the reply's parsing and the grid's first render are separate tasks, and the rows
      // get the editor's spare columns (spec 01 §9) here, a slice per task: Handsontable would
      // otherwise add them to every row while it first renders, in that one long task.
      if (!(await padRowsInSlices(sheet.data, Math.max(size.cols, NEW_SHEET_EDITOR_DEFAULT.columns), () => current))) return;
      const loaded: LoadedSheet = { id, data: sheet.data, headers: { current: [...sheet.metadata.headers] }, loadKey: ++loadCount.current, windowed: null, freeze: rememberedFreeze(shellRef.current.user.id, id) };
      if (switched) {
        // Switched from windowed: the grid opens where the user was, and their steps can be undone.
        loaded.place = switched.place;
        keepUndo(sheet.data, switched.undo);
      }
      const versionHeld = versionHandler(size);
      const sizeNow = () => store.getState().size;
      const resize = (next: { rows: number; cols: number }) => {
        const before = sizeNow();
        // A new size object only when it changed: the shell is told of every new one.
        if (next.rows !== before.rows || next.cols !== before.cols) store.setState({ size: next });
      };

      const touched = (cells: readonly ChangedCellRef[] | null) => dataChanged(cells);
      live = new LiveSheet({
        version: sheet.version,
        send: (operation) => shellRef.current.live.send(operation),
        applyCells: (changes) => {
          applyRemoteCells(loaded.data, changes);
          resize(sizeAfterEdits(sizeNow(), changes));
          engageFormulas(changes);
          touched(changes);
        },
        applyStructure: ({ type, index, count }) => {
          applyRemoteStructure(loaded.data, type, index, count);
          const axis = isRowStructure(type) ? 'row' : 'col';
          const amount = isInsertStructure(type) ? count : -count;
          // The user's frozen rows and columns move with theirs (Handsontable itself only lowers them on a remove).
          loaded.freeze.moved(axis, index, amount);
          if (axis === 'col') shiftHeaders(loaded, index, amount);
          resize(sizeAfterStructure(sizeNow(), axis, index, amount));
          if (axis === 'col') refreshHeaders(loaded.data);
          // Charts are anchored to their cells: moved here as the server moved them.
          const moved = moveCharts(store.getState().charts, { type, index, count });
          if (moved.changed) store.setState({ charts: moved.charts });
          touched(null);
        },
        // Someone's clear (a windowed page's whole-column Delete): its cells holding a value, emptied as cells are.
        applyClear: (blocks, keep) => {
          const changes = clearedChanges(loaded.data, blocks, keep);
          if (changes.length === 0) return;
          applyRemoteCells(loaded.data, changes);
          touched(changes);
        },
        // Rows sorted (anyone's sort, the own one once the server gave its order); charts stay on their ranges.
        applySort: (order) => {
          applyRemoteSort(loaded.data, order);
          touched(null);
        },
        onSorted: (sorted) => sortedSteps(gridUndo(loaded.data), sorted),
        // A chart added, changed or deleted by anyone: that chart alone, the grid is as it was.
        applyChart: (chartId, chart) => store.setState({ charts: applyChartChange(store.getState().charts, chartId, chart) }),
        replace: (sync) => {
          // Always with its cells here: LiveSheet repairs from fetch() a sync without them (see its `windowed`).
          const cells = sync.data ?? [];
          // Compared with the rows shown before they go: the user's undo steps stay only if the sync left every cell as it was.
          if (!syncKeepsUndo(loaded.data, cells, live?.ownCellsShown() ?? null)) gridUndo(loaded.data).clearButSorts();
          // Measured before the grid pads the rows to its spare columns.
          const syncSize = storedSize(cells, sync.metadata.rows, sync.metadata.columns);
          replaceRows(loaded.data, padRows(cells, syncSize.cols));
          loaded.headers.current = [...sync.metadata.headers];
          store.setState({ name: sync.name });
          resize(syncSize);
          refreshHeaders(loaded.data);
          if (!store.getState().formulaEngine && hasFormula(cells)) engageFormulas([{ row: 0, col: 0, value: '=' }]);
          store.setState({ charts: chartsOf(sync.metadata) });
          touched(null);
        },
        onVersion: versionHeld,
        onPending: (count) => store.setState({ pending: count > 0 }),
        // A refusal naming view-only means the sheet was made view-only for us since it loaded: lock the grid.
        onError: (message) => store.setState({ saveError: message, error: message, ...(message === ACCESS_TEXTS.viewOnly ? { access: 'viewer' as const } : {}) }),
        fetch: async () => {
          const reply = await service.load(id);
          if (!reply.success) return null;
          const { data, version, name, metadata, updated_at } = reply.data;
          return { sheet_id: id, data, version, name, metadata, timestamp: updated_at };
        },
      });
      liveRef.current = live;
      stopSession = () => live?.stop();
      store.setState({
        phase: 'ready',
        sheet: loaded,
        name: sheet.name,
        size,
        version: sheet.version,
        formulaEngine,
        switching: false,
        lastSavedAt: sheet.updated_at,
        access: toldAccess ?? sheet.access ?? null,
        charts: chartsOf(sheet.metadata),
      });
      for (const frame of early.splice(0)) live.receive(frame);
      loadedTimer = setTimeout(() => shellRef.current.bus.emit('sheet-loaded', { sheetId: id }), SHEET_LOADED_EVENT_DELAY_MS);
    })();

    return () => {
      current = false;
      clearTimeout(loadedTimer);
      unsubscribeLive();
      liveRef.current = null;
      stopSession();
    };
  }, [id, service, store, reloads]);

  /** The first formula (typed here or by someone else) engages the engine; the grid is rebuilt with it. */
  function engageFormulas(changes: readonly CellChange[]) {
    if (store.getState().formulaEngine || !changes.some((c) => isFormula(c.value))) return;
    // Once the grid's hook that reported the change has returned: the grid is rebuilt with the engine.
    queueMicrotask(() => store.setState({ formulaEngine: workerFormulaEngine }));
  }

  // A rename in the navigator (sheet-updated with a name) shows here at once.
  useEffect(
    () =>
      shell.bus.on('sheet-updated', (e) => {
        if (e.sheetId === id && e.name !== undefined && e.name !== store.getState().name) store.setState({ name: e.name });
      }),
    [shell.bus, id, store],
  );

  // Tell the shell what is loaded: the chat and git remotes read it from shell.sheet, and the
  // shell's socket asks for what it missed since this version when it reconnects. Told from the
  // store (each acknowledged edit moves the version), not from a render of the Workspace.
  const { phase, sheet } = state;
  useEffect(() => {
    if (phase !== 'ready' || !sheet) return;
    const report = ({ name, size, version }: SheetSessionState) =>
      shellRef.current.sheet.report({
        id: sheet.id,
        name,
        headers: normalizeHeaders(sheet.headers.current, size.cols),
        size,
        version,
        // A windowed sheet's cells are not all in the browser: null, as before a sheet is loaded (issue 23).
        getData: () => (sheet.windowed ? null : storedCells(sheet.data, store.getState().size)),
        // Any sheet's cells: a windowed one's rows are read through the api (the chat, Run on sheet).
        loadData: async (rows) => (sheet.windowed ? sheet.windowed.cells(rows) : heldCells(sheet.data, store.getState().size, rows)),
        // The shell's socket then says grid 'windowed': its syncs come without the cells (issue 23).
        windowed: sheet.windowed !== null,
      });
    report(store.getState());
    return store.subscribe((now, before) => {
      if (now.version !== before.version || now.name !== before.name || now.size !== before.size) report(now);
    });
  }, [phase, sheet, store]);
  useEffect(() => () => shellRef.current.sheet.report(null), [id]);

  // Other users' selected cells, in their colours.
  const onSheet = shell.presence.onSheet;
  const me = shell.user.id;
  useEffect(() => {
    if (!sheet) return;
    const marks = new Map<string, PresenceMark>();
    for (const user of onSheet) {
      if (user.userId === me || !user.selection) continue;
      marks.set(cellKey(user.selection.row, user.selection.col), { color: user.color, name: user.displayName });
    }
    showPresence(sheet.data, marks);
  }, [sheet, onSheet, me]);

  return useMemo<SheetSession>(() => {
    const sheetId = () => store.getState().sheet?.id ?? null;
    const fail = (error: string) => store.setState({ error });
    const userId = () => shellRef.current.user.id;

    return {
      state,
      store,
      onCellsChanged(changes) {
        const { size } = store.getState();
        const grown = sizeAfterEdits(size, changes);
        if (grown.rows !== size.rows || grown.cols !== size.cols) store.setState({ size: grown });
        const windowed = store.getState().sheet?.windowed;
        // A windowed sheet's rows are edited in place by the grid; the windows remember the edit
        // for a copy of its window read before the server had it.
        windowed?.ownEdits(changes);
        liveRef.current?.send(cellOperations(changes, userId()));
        // The formula engine needs the whole grid: a windowed sheet is loaded whole for it, if the engine can take it.
        if (!windowed) engageFormulas(changes);
        else windowedFormulasRef.current?.(changes);
        dataChanged(changes);
      },
      onStructureChanged(change, undo) {
        const held = store.getState().sheet;
        // In the stored grid's terms, before the change moves them.
        const operation = structureOperation(change, store.getState().size, userId(), undo);
        if (operation && undo !== undefined) ownStructureUndos.current.set(operation.id, undo);
        if (change.axis === 'col' && held) shiftHeaders(held, change.index, change.amount);
        // The user's frozen rows and columns move with theirs (spare ones too: they are frozen in the grid as well).
        held?.freeze.moved(change.axis, change.index, change.amount);
        dataChanged(null, (s) => ({ size: sizeAfterStructure(s.size, change.axis, change.index, change.amount) }));
        if (operation && operation.type !== 'cell_update' && operation.type !== 'cells_update' && 'index' in operation) {
          const moved = moveCharts(store.getState().charts, { type: operation.type, index: operation.index, count: operation.count });
          if (moved.changed) store.setState({ charts: moved.charts });
        }
        // A windowed sheet (issue 23): its size moves now, the rows held once the server has the op.
        if (operation && held?.windowed && 'index' in operation) held.windowed.ownStructure(operation.type, operation.index, operation.count, operation.id);
        if (operation) liveRef.current?.send([operation]);
      },
      sortRows(column, direction, history) {
        const operation = sortOperation(column, direction, userId(), history?.undo);
        ownSorts.current.set(operation.id, history === undefined ? { kind: 'new', column, direction } : history.undo === undefined ? { kind: 'redo' } : { kind: 'undo' });
        liveRef.current?.send([operation]);
      },
      clearCells(blocks) {
        const windowed = store.getState().sheet?.windowed;
        const live = liveRef.current;
        if (!windowed || !live || blocks.length === 0) return [];
        for (const block of blocks) windowed.ownClear(block);
        const operations = blocks.map((block) => clearOperation(block, userId()));
        live.send(operations);
        dataChanged(null);
        return operations.map((op) => op.id);
      },
      undoClears(versions, blocks) {
        const windowed = store.getState().sheet?.windowed;
        const live = liveRef.current;
        if (!windowed || !live || versions.length === 0) return;
        const operations = versions.map((version) => clearUndoOperation(version, userId()));
        operations.forEach((op, i) => ownClearUndos.current.set(op.id, { version: versions[i], blocks, moves: windowed.moves }));
        live.send(operations);
      },
      onSelect(row, col) {
        shellRef.current.sheet.select(row, col);
      },
      async save() {
        const live = liveRef.current;
        const loaded = store.getState().sheet;
        if (!live || !loaded) return;
        // The edits go first; then the whole grid, based on the version that holds them. The
        // server answers everyone on the sheet with a sync of what it stored.
        await live.whenSaved();
        if (loaded.windowed) {
          // Every edit of a windowed sheet is saved as it is made (a live operation): Save waits
          // for them; the whole grid is not in the browser to be sent.
          if (liveRef.current !== live) return;
          const before = store.getState();
          if (before.saveError === null) shellRef.current.bus.emit('sheet-updated', { sheetId: loaded.id, name: before.name, version: live.version });
          return;
        }
        const result = await service.save({
          id: loaded.id,
          headers: loaded.headers.current,
          data: storedCells(loaded.data, store.getState().size),
          baseVersion: live.version,
        });
        if (liveRef.current !== live) return;
        if (!result.success) {
          store.setState({ saveError: result.error, error: result.error });
          if (result.status === 409) {
            // The same cells changed on the server: show it, then show the server's sheet.
            keepErrorRef.current = result.error;
            setReloads((n) => n + 1);
          }
          return;
        }
        const before = store.getState();
        store.setState({ lastSavedAt: result.data.updated_at, saveError: null, error: before.error === before.saveError ? null : before.error });
        shellRef.current.bus.emit('sheet-updated', { sheetId: loaded.id, name: before.name, version: result.data.version });
      },
      async exportAs(format) {
        await liveRef.current?.whenSaved();
        const result = await service.exportFile(sheetId(), format);
        if (!result.success) return fail(result.error);
        downloadFile(result.data, exportFileName(store.getState().name, format));
      },
      async duplicate() {
        const sheetIdNow = sheetId();
        if (!sheetIdNow) return;
        await liveRef.current?.whenSaved();
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
        liveRef.current?.stop();
        shellRef.current.bus.emit('sheet-updated', { sheetId: sheetIdNow });
        // Deleting the current sheet clears the selection (spec 01 §4).
        shellRef.current.sheet.open(null);
        return true;
      },
      dismissError() {
        store.setState({ error: null });
      },
      setCharts(charts) {
        store.setState({ charts });
      },
      currentVersion() {
        return liveRef.current?.version ?? store.getState().version;
      },
      changedCells(since, until) {
        return changeLog.since(since, until);
      },
      hasPending() {
        return store.getState().pending;
      },
      async flush() {
        await liveRef.current?.whenSaved();
      },
      reload(version) {
        const sheetIdNow = sheetId();
        if (!sheetIdNow) return;
        setReloads((n) => n + 1);
        shellRef.current.bus.emit('sheet-updated', { sheetId: sheetIdNow, version });
      },
    };
    // engageFormulas is not a dependency: it reads only the store.
  }, [state, store, service]);
}

/** Whole reads of a windowed sheet a formula came into, while edits keep coming after each: then it waits for the next formula. */
const SWITCH_READS_MAX = 3;

/** A windowed sheet read whole because a formula came: the next load shows it, where the user was, with their undo steps. */
interface SwitchToWhole {
  sheet: Sheet;
  place: GridPlace | null;
  undo: UndoStack;
}

/**
 * A sharing change moved the user's level on the open sheet (the socket's `access` frame): the
 * grid locks with 'View only', or takes input again. The refusal a downgrade caused is over once
 * the user may edit again.
 */
export function accessChange(state: SheetSessionState, access: AccessLevel): Partial<SheetSessionState> {
  if (!meetsAccess(access, 'edit')) return { access };
  const viewOnly = (text: string | null) => text === ACCESS_TEXTS.viewOnly;
  return {
    access,
    ...(viewOnly(state.error) ? { error: null } : {}),
    ...(viewOnly(state.saveError) ? { saveError: null } : {}),
  };
}

/** Rows [start, start + count) (all by default) of a sheet loaded whole, as getData() gives them. */
function heldCells(data: GridData, size: SheetSize, rows?: RowRange): GridData {
  if (!rows) return storedCells(data, size);
  const start = Math.min(Math.max(0, rows.start), size.rows);
  const end = Math.min(size.rows, start + Math.max(0, rows.count));
  return storedCells(data.slice(start, end), { rows: end - start, cols: size.cols });
}

/** A frame about another sheet (a late one from the socket of the sheet shown before) is not this sheet's. */
function aboutSheet(frame: LiveServerFrame, sheetId: string): boolean {
  const data = frame.data as { sheet_id?: unknown };
  return typeof data.sheet_id !== 'string' || data.sheet_id === sheetId;
}

/**
 * Columns inserted (amount > 0) or removed at `index`: letter headers stay letters in order;
 * named ones keep their names and a new column is named by its letter, as a spreadsheet shows it.
 */
function shiftHeaders(sheet: LoadedSheet, index: number, amount: number): void {
  const headers = sheet.headers.current;
  const generated = headers.every((h, i) => h === columnLabel(i));
  if (amount > 0) headers.splice(index, 0, ...Array.from({ length: amount }, (_, i) => columnLabel(index + i)));
  else headers.splice(index, -amount);
  if (generated) sheet.headers.current = normalizeHeaders([], headers.length);
}
