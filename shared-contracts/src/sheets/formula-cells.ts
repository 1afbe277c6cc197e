import type { GridData } from './sheet.schema.js';

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
