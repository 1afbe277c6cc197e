import { WINDOWED_SHEET_MIN_ROWS } from './sheet-rows.schema.js';

/**
 * Frozen rows and columns (every peer has them: Google Sheets' View › Freeze, Excel's Freeze Panes):
 * the first rows or columns of one user's grid stay in view while the rest scrolls. Personal, like
 * the row filter: never sent, remembered per sheet in the user's browser.
 */

/**
 * Most rows and columns one grid keeps frozen. A frozen block larger than the screen leaves nothing
 * to scroll (Google Sheets refuses one larger than the visible area): 30 rows of about 23 px and 10
 * columns of 120 px fill a laptop's grid. Also the bound of what is read back from local storage.
 */
export const FREEZE_LIMITS = { rows: 30, columns: 10 } as const;

/** Where the grid remembers each sheet's frozen rows and columns (local storage), suffixed with the user's id. */
export const FREEZE_STORAGE_KEY = 'tessera.sheetFreeze';
/** Sheets whose freeze is remembered (the most recently frozen): the entry stays a few KB however many sheets one opens. */
export const FREEZE_REMEMBERED_SHEETS = 100;

/** A header label in a menu entry: long user text cut (the menu is one line). */
const shortLabel = (label: string) => (label.length > 24 ? `${label.slice(0, 23)}…` : label);

export const FREEZE_TEXTS = {
  /** The context menu's entries; the column by its header label, the row by its number. */
  columns: (label: string) => `Freeze up to column ${shortLabel(label)}`,
  rows: (row: number) => `Freeze up to row ${row.toLocaleString('en-US')}`,
  /** Past FREEZE_LIMITS: the entry is shown disabled, saying why. */
  columnsTooMany: (label: string) => `Freeze up to column ${shortLabel(label)} (at most ${FREEZE_LIMITS.columns} columns can be frozen)`,
  rowsTooMany: (row: number) => `Freeze up to row ${row.toLocaleString('en-US')} (at most ${FREEZE_LIMITS.rows} rows can be frozen)`,
  /**
   * A windowed sheet's grid holds a slab of rows that moves as one scrolls (issue 23): its first rows
   * are the slab's, not the sheet's. The entry is shown disabled, saying why.
   */
  rowsWindowed: `Freeze rows (available for sheets of up to ${WINDOWED_SHEET_MIN_ROWS.toLocaleString('en-US')} rows)`,
  unfreeze: 'Unfreeze',
} as const;
