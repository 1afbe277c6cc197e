import { SHEET_MAX_COLUMNS } from './sheet.schema.js';

/**
 * How big one sheet may be. Every path that can grow a sheet (create, save, cell edits, live
 * operations, import, restore, accepted proposals) checks the size it would have against these
 * before anything is allocated or stored, and clients show the same texts.
 */

/** Default SHEET_MAX_CELLS: Google Sheets' cap on cells per spreadsheet. */
export const SHEET_MAX_CELLS_DEFAULT = 10_000_000;
/** Values SHEET_MAX_CELLS accepts: below 1,000 a sheet is useless, above 100 million one sheet outgrows the api's memory. */
export const SHEET_MAX_CELLS_MIN = 1_000;
export const SHEET_MAX_CELLS_MAX = 100_000_000;

/** Default IMPORT_MAX_EXPANDED_MB: what an .xlsx upload may inflate to (all its zip parts together). */
export const IMPORT_MAX_EXPANDED_MB_DEFAULT = 200;
export const IMPORT_MAX_EXPANDED_MB_MIN = 1;
export const IMPORT_MAX_EXPANDED_MB_MAX = 2_048;

const grouped = (n: number) => n.toLocaleString('en-US');

/** 413 text for a sheet beyond the cell cap, e.g. 'A sheet can hold at most 10,000,000 cells (this would be 17,179,869,184)'. */
export function tooManyCellsMessage(maxCells: number, cells: number): string {
  return `A sheet can hold at most ${grouped(maxCells)} cells (this would be ${grouped(cells)})`;
}

/** 413 text for a sheet wider than an XLSX worksheet (16,384 columns). */
export function tooManyColumnsMessage(columns: number): string {
  return `A sheet can hold at most ${grouped(SHEET_MAX_COLUMNS)} columns (this would be ${grouped(columns)})`;
}

/** Why a sheet of rows × columns is too big, or null when it fits (columns first: their limit holds whatever the cap). */
export function sheetSizeError(rows: number, columns: number, maxCells: number): string | null {
  if (columns > SHEET_MAX_COLUMNS) return tooManyColumnsMessage(columns);
  const cells = rows * columns;
  return cells > maxCells ? tooManyCellsMessage(maxCells, cells) : null;
}

/** 400 text for an .xlsx whose parts inflate past IMPORT_MAX_EXPANDED_MB. */
export function workbookTooLargeMessage(maxMb: number): string {
  return `The workbook expands beyond ${maxMb} MB`;
}
