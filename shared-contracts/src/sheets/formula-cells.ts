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
