import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FORMULA_ENGINE_SETTINGS, HYPERFORMULA_LICENSE_KEY } from '@tessera/contracts';
import { chunkRows, type ExportSource } from './export-source.js';
import { isFormulaText, isInsideFormula } from './formula-safety.js';

// Plain .mjs in src/ (tsc does not copy it to dist/): from src/export/ and dist/export/ alike
// this resolves to src/export/formula-worker.mjs.
const FORMULA_WORKER_SCRIPT = fileURLToPath(new URL('../../src/export/formula-worker.mjs', import.meta.url));

/** The grid's engine settings (so a file caches the values the grid shows), with the licence the grid passes. */
const GRID_ENGINE_SETTINGS = { ...FORMULA_ENGINE_SETTINGS, licenseKey: HYPERFORMULA_LICENSE_KEY, maxRows: Infinity };

/**
 * Stored cells beyond which a sheet's formulas are written without cached values (LibreOffice
 * and Excel compute them when they open the file). HyperFormula holds the whole sheet: measured
 * here at about 850 bytes and 40 µs a cell (100,000 × 10 took 38 s and 850 MB), so 100,000
 * cells cost about 100 MB and a few seconds of one worker thread.
 */
export const FORMULA_EVALUATION_MAX_CELLS = 100_000;
/** The worker's heap limit: past it the worker dies (the api does not) and values are left out. */
const WORKER_HEAP_MB = 384;
/** The worker's time limit, for the same outcome. */
const WORKER_TIME_LIMIT_MS = 60_000;

/** Excel's error values; HyperFormula's own (#CYCLE!, #LIC!) are not. */
const EXCEL_ERRORS = new Set(['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#SPILL!']);

/** A formula's computed value, as a workbook caches it; undefined when the file should hold none. */
export type FormulaResult = number | string | boolean | { error: string } | undefined;

export interface FormulaValues {
  /** Whether the grid reads the formula at (row, col) as one (not a parse error): else it is written as text. */
  parses(row: number, col: number): boolean;
  result(row: number, col: number): FormulaResult;
}

/** No evaluation: every inside formula is a formula, none has a cached value. */
const NOT_EVALUATED: FormulaValues = { parses: () => true, result: () => undefined };

type WorkerResult = [row: number, col: number, kind: 'value' | 'error' | 'unparsed', value: number | string | boolean | null];

// One evaluation at a time per process: each holds a whole sheet in a worker's heap.
let queue: Promise<unknown> = Promise.resolve();

function runWorker(chunks: string[]): Promise<WorkerResult[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(FORMULA_WORKER_SCRIPT, {
      workerData: { chunks, settings: GRID_ENGINE_SETTINGS },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`formula evaluation took over ${WORKER_TIME_LIMIT_MS} ms`));
    }, WORKER_TIME_LIMIT_MS);
    worker.once('message', (results: WorkerResult[]) => {
      clearTimeout(timer);
      resolve(results);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`formula worker exited with code ${code}`));
    });
  });
}

/**
 * The grid's values of a sheet's formulas, computed as the grid does (HyperFormula, one sheet,
 * row 1 the first data row) in a worker thread, or NOT_EVALUATED when the sheet has no inside
 * formula, is over FORMULA_EVALUATION_MAX_CELLS, or the worker fails (reported to onFailure).
 * Reads (does not release) the source's chunks.
 */
export async function evaluateFormulas(source: ExportSource, gridFunctions: ReadonlySet<string>, onFailure: (err: unknown) => void): Promise<FormulaValues> {
  let cells = 0;
  let formulas = false;
  for (const rows of chunkRows(source, false)) {
    for (const row of rows) {
      cells += row.length;
      if (!formulas && row.some((v) => isFormulaText(v) && isInsideFormula(v, gridFunctions))) formulas = true;
    }
  }
  if (!formulas || cells > FORMULA_EVALUATION_MAX_CELLS) return NOT_EVALUATED;

  const turn = queue.then(() => runWorker(source.chunks as string[]));
  queue = turn.catch(() => undefined);
  let results: WorkerResult[];
  try {
    results = await turn;
  } catch (err) {
    onFailure(err);
    return NOT_EVALUATED;
  }
  const byCell = new Map<string, WorkerResult>();
  for (const r of results) byCell.set(`${r[0]}:${r[1]}`, r);
  return {
    parses: (row, col) => byCell.get(`${row}:${col}`)?.[2] !== 'unparsed',
    result: (row, col) => {
      const found = byCell.get(`${row}:${col}`);
      if (!found) return undefined;
      const [, , kind, value] = found;
      if (kind === 'error') return EXCEL_ERRORS.has(value as string) ? { error: value as string } : undefined;
      return value === null ? undefined : value;
    },
  };
}
