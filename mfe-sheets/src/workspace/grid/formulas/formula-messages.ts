import type { CellValue } from '@tessera/contracts';

/**
 * The messages between the grid (main thread) and the formula worker. Every message carries the
 * generation of the engine it is about: a reload starts a new one, and whatever either side still
 * sends about an older one is dropped.
 */

/** A cell by its stored position and what it holds (a value or a formula's text). */
export type CellInput = [row: number, col: number, value: CellValue];

/** What a cell shows: a formula's result, an error as its code ('#DIV/0!'), null for empty. */
export type ShownValue = string | number | boolean | null;
export type CellResult = [row: number, col: number, value: ShownValue];

export type ToFormulaWorker =
  /**
   * A new engine: the rows follow in slices, then `build`. Its license and bounds come with it:
   * the worker's bundle imports nothing shared with the page (@tessera/contracts is a federated
   * singleton, which a worker cannot consume).
   */
  | { type: 'begin'; generation: number; licenseKey: string; maxRows: number; maxColumns: number }
  | { type: 'rows'; generation: number; rows: CellValue[][] }
  | { type: 'build'; generation: number }
  /** Cells edited (by the user, another user, undo, paste…): their new contents. */
  | { type: 'cells'; generation: number; cells: CellInput[] }
  /** Rows or columns inserted (amount > 0) or removed (amount < 0) at `index`: references move with them. */
  | { type: 'structure'; generation: number; axis: 'row' | 'col'; index: number; amount: number };

export type FromFormulaWorker =
  /** Computed values; `complete` on the last slice of the values after a build. */
  | { type: 'values'; generation: number; cells: CellResult[]; complete: boolean }
  | { type: 'failed'; generation: number; error: string };
