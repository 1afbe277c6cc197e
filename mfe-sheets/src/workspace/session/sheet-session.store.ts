import type { AccessLevel, ChartDefinition, GridData, SheetSize } from '@tessera/contracts';
import { createStore, type StoreApi } from 'zustand';
import type { FormulaEngine } from '../grid/formula-engine.js';
import type { GridPlace } from '../grid/grid-link.js';
import type { WindowedSheet } from '../windowed/windowed-sheet.js';
import type { SheetFreeze } from '../freeze/sheet-freeze.js';

/** The sheet as the Workspace holds it once loaded (spec 01 §3 Loaded sheet). */
export interface LoadedSheet {
  id: string;
  /** The grid's rows, edited in place by Handsontable. */
  data: GridData;
  /** The column headers, edited in place when columns are inserted or removed. */
  headers: { current: string[] };
  /** Raised on each (re)load: the grid is built anew. */
  loadKey: number;
  /**
   * A sheet too large to load whole (issue 23): its rows are read a window at a time and `data`
   * stays empty; null for a sheet loaded whole.
   */
  windowed: WindowedSheet | null;
  /**
   * A windowed sheet with formulas (contracts opensWindowed: past the formula engine's bound): the
   * cells the engine would hold, as the server counted them when it opened, or when a formula came
   * (typed, pasted or another user's) into one opened without any. Its formulas show as
   * text, and the Workspace says so as for a sheet loaded whole past the bound.
   */
  formulaCellsOverLimit?: number;
  /** Loaded whole in place of the windowed sheet shown (a formula came, issue 23): where the user was in it. */
  place?: GridPlace | null;
  /** The user's own frozen rows and columns (freeze/), remembered per sheet; moved with every row and column op. */
  freeze: SheetFreeze;
}

export interface SheetSessionState {
  phase: 'idle' | 'loading' | 'ready' | 'failed';
  sheet: LoadedSheet | null;
  name: string;
  size: SheetSize;
  version: number;
  formulaEngine: FormulaEngine | null;
  /** The dismissible error box: load failures, conflicts and failed commands. */
  error: string | null;
  /** The last failed save (the save status shows Error until a save passes). */
  saveError: string | null;
  lastSavedAt: string | null;
  /** Edits wait to be sent. */
  pending: boolean;
  /** The user's level on the sheet (issue 18); null when the server did not say. */
  access: AccessLevel | null;
  /** The sheet's charts (issue 20), moved with its rows and columns as the server moves them. */
  charts: ChartDefinition[];
  /** Raised on every change of the cells (own or others'): the charts read them again. */
  dataTick: number;
  /**
   * A windowed sheet is being switched to whole (a formula came, issue 23): its grid stays shown,
   * without input (its live link is closed), until the whole one replaces it.
   */
  switching: boolean;
}

export const createSheetSessionStore = () =>
  createStore<SheetSessionState>(() => ({
    phase: 'idle',
    sheet: null,
    name: '',
    size: { rows: 0, cols: 0 },
    version: 0,
    formulaEngine: null,
    error: null,
    saveError: null,
    lastSavedAt: null,
    pending: false,
    access: null,
    charts: [],
    dataTick: 0,
    switching: false,
  }));

export type SheetSessionStore = ReturnType<typeof createSheetSessionStore>;

/** The session's version to follow (a SheetSessionStore is one): what the Timeline and an open version preview compare with. */
export type LiveVersion = Pick<StoreApi<{ version: number }>, 'getState' | 'getInitialState' | 'subscribe'>;
