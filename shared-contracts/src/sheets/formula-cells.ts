import type { CellValue, GridData } from './sheet.schema.js';

/**
 * A cell holds a formula when its text starts with '=' — the one definition the grid (which
 * loads the formula engine for it) and the api (which keeps a sheet's "may have formulas" fact,
 * SheetSummary.may_have_formulas) share.
 */
export const isFormula = (value: unknown): boolean => typeof value === 'string' && value.startsWith('=');

/** Does any cell hold a formula? */
export function hasFormula(data: GridData): boolean {
  for (const row of data) {
    for (const cell of row) if (isFormula(cell)) return true;
  }
  return false;
}

/**
 * How many of a row's cells the formula engine is given (the grid's FormulaValues): those up to its
 * last non-empty one. Trailing empty cells (null, or missing: the grid pads rows to its spare
 * columns) give HyperFormula no vertex and do not size its sheet, so they are neither sent nor
 * counted. An empty string is a value, held like any other.
 */
export function heldLength(row: readonly (CellValue | undefined)[]): number {
  let length = row.length;
  while (length > 0 && (row[length - 1] === null || row[length - 1] === undefined)) length--;
  return length;
}

/**
 * The cells a grid gives the formula engine (heldLength of every row): what its bound
 * (HYBRID_MAX_CELLS) is counted in, by the grid while it holds the rows, and by the api for a
 * stored sheet (SheetSummary.held_cells, kept by the database with the same rule).
 */
export function heldCells(data: GridData): number {
  let total = 0;
  for (const row of data) total += heldLength(row);
  return total;
}

/**
 * The formula engine's settings (HyperFormula), those Handsontable's Formulas plugin gave it
 * (handsontable 18.1, plugins/formulas/engine/settings), so values show as they always did: the
 * grid's formula worker and the api's export (the cached values written into a file) both use them.
 * Not the licence key nor the size bounds: each caller adds its own.
 */
export const FORMULA_ENGINE_SETTINGS = {
  useArrayArithmetic: true,
  useColumnIndex: false,
  useStats: false,
  evaluateNullToZero: true,
  precisionEpsilon: 1e-13,
  precisionRounding: 14,
  smartRounding: true,
  leapYear1900: false,
  nullDate: { year: 1899, month: 12, day: 30 },
  nullYear: 30,
  dateFormats: ['YYYY-MM-DD'],
  timeFormats: ['hh:mm', 'hh:mm:ss', 'hh:mm:ss.sss'],
  matchWholeCell: true,
  useRegularExpressions: false,
  useWildcards: true,
  functionArgSeparator: ',',
  thousandSeparator: '',
  decimalSeparator: '.',
  language: 'enGB',
} as const;
