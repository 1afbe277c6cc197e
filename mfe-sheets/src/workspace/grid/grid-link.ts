import type { GridData } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import type { FormulaValues } from './formulas/formula-values.js';

/** The change source of what other users did: never sent back, never in the undo stack. */
export const LIVE_SOURCE = 'live';

/** Another user's selected cell, drawn in their colour. */
export interface PresenceMark {
  color: string;
  name: string;
}

/**
 * What the session and the grid that shows a sheet's rows share: the Handsontable instance
 * while it is mounted (it is not while the Code view or the git tab is shown), and the cells
 * other users have selected. Keyed by the rows array, which is the identity of a loaded sheet,
 * so the Workspace needs no extra prop between the two.
 */
export interface GridLink {
  hot: Handsontable | null;
  /** `row:col` → who selected it. */
  presence: Map<string, PresenceMark>;
  /** Remote values held back for the cell whose editor is open (its typing is not broken). */
  deferred: Map<string, { row: number; col: number; value: unknown }>;
  /** The formulas' values computed in the worker, while a grid with formulas is mounted (the charts read them). */
  formulas: FormulaValues | null;
  /** A windowed grid (issue 23), while mounted: shows absolute row `row` at its top (its slab moved there if need be); `select`: cell (row, col) selected too (find). */
  jumpTo: ((row: number, col: number, select?: boolean) => void) | null;
  /** A windowed grid (issue 23), while mounted: where the user is in it, at absolute rows (kept when the sheet switches to whole). */
  place: (() => GridPlace | null) | null;
  /** A windowed grid with the user's row filter on, while mounted: does it show absolute row `row`? (find passes over hidden rows.) */
  rowShown?: ((row: number) => boolean) | null;
  /**
   * A windowed grid with a row filter, while mounted: settles once the rows the filter shows now are
   * in (a filter just set asks the api for them): find goes to a match only then, else its row would
   * be judged, and its place found, by the rows of the filter before.
   */
  filterSettled?: (() => Promise<void>) | null;
}

/** Where the user is in a grid, at absolute rows: the row shown at its top and the cells selected. */
export interface GridPlace {
  top: number;
  /** [row, col, row2, col2] of the last selected range, or null. */
  selection: [number, number, number, number] | null;
}

const links = new WeakMap<GridData, GridLink>();

export function gridLink(data: GridData): GridLink {
  let link = links.get(data);
  if (!link) {
    link = { hot: null, presence: new Map(), deferred: new Map(), formulas: null, jumpTo: null, place: null };
    links.set(data, link);
  }
  return link;
}

export const cellKey = (row: number, col: number) => `${row}:${col}`;
