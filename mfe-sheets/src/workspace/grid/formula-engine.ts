import { startFormulaWorker, type FormulaPort } from './formulas/start-formula-worker.js';

/** How a grid starts the worker that computes its formulas (formulas/): one per grid shown. */
export type FormulaEngine = () => FormulaPort;

/**
 * The formula engine for a sheet that holds formulas. HyperFormula is no longer loaded on the
 * page: each grid starts a worker that loads it (formulas/formula.worker.ts), so a sheet
 * without formulas still never downloads it. Kept async: its callers wait for it before the
 * grid is shown with formulas.
 */
export function loadFormulaEngine(): Promise<FormulaEngine> {
  return Promise.resolve(startFormulaWorker);
}
