import type { HyperFormula } from 'hyperformula';

export type FormulaEngine = typeof HyperFormula;

let loading: Promise<FormulaEngine> | null = null;

/**
 * HyperFormula, fetched on first need through a dynamic import: a sheet without formulas
 * never downloads it (it is most of the grid's weight) nor pays its start-up.
 */
export function loadFormulaEngine(): Promise<FormulaEngine> {
  loading ??= import('hyperformula').then((m) => m.HyperFormula).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
