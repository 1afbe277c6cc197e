// One HiGHS solve in a worker thread (highs' solve is synchronous: it would block the
// service's event loop). Plain .mjs so it runs the same under tsx and from dist (the
// build does not copy it: highs-runner.ts points at this file in src/, like runner/child.mjs).
// Receives { text, options, wasmModule } (HiGHS compiled once by the parent), answers one message: { ok: true, ... } or { ok: false, error }.
import { parentPort } from 'node:worker_threads';
import highsLoader from 'highs';

// HiGHS's model status codes (highs.constants.modelStatus) in the words of its legacy Status string.
const STATUS_TEXT = {
  0: 'Not Set',
  1: 'Load error',
  2: 'Model error',
  3: 'Presolve error',
  4: 'Solve error',
  5: 'Postsolve error',
  6: 'Empty',
  7: 'Optimal',
  8: 'Infeasible',
  9: 'Primal infeasible or unbounded',
  10: 'Unbounded',
  11: 'Bound on objective reached',
  12: 'Target for objective reached',
  13: 'Time limit reached',
  14: 'Iteration limit reached',
  15: 'Unknown',
  16: 'Solution limit reached',
  17: 'Interrupted by user',
};

parentPort.once('message', async ({ text, options, wasmModule }) => {
  try {
    const highs = await highsLoader(wasmModule ? { wasmModule } : {});
    const model = highs.createModel({ format: 'lp', data: text });
    try {
      model.options.set({ output_flag: false, ...options });
      const started = performance.now();
      const { modelStatus } = model.run();
      const seconds = (performance.now() - started) / 1000;
      // primal_solution_status 2: a feasible solution is at hand (also after a limit stopped the search).
      const hasSolution = Number(model.info.get('primal_solution_status')) === 2;
      const result = { ok: true, modelStatus, statusText: STATUS_TEXT[modelStatus] ?? `Status ${modelStatus}`, seconds, hasSolution };
      if (hasSolution) {
        const { colValue } = model.getSolution();
        const names = [];
        for (let i = 0; i < colValue.length; i++) names.push(model.getColName(i));
        result.objective = model.getObjectiveValue();
        result.gap = readInfo(model, 'mip_gap');
        result.names = names;
        result.values = colValue;
      }
      parentPort.postMessage(result);
    } finally {
      model.dispose();
    }
  } catch (error) {
    parentPort.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

function readInfo(model, name) {
  try {
    const value = Number(model.info.get(name));
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}
