import { startFormulaWorker, type FormulaPort } from './formulas/start-formula-worker.js';

/** How a grid starts the worker that computes its formulas (formulas/): one per grid shown. */
export type FormulaEngine = () => FormulaPort;

/**
 * The formula engine of a sheet that holds formulas: each grid starts a worker that loads
 * HyperFormula (formulas/formula.worker.ts), so a sheet without formulas never downloads it. A
 * worker that fails to start is the grid's concern (FormulaValues: formulas then show as text).
 */
export const workerFormulaEngine: FormulaEngine = () => startFormulaWorker();
