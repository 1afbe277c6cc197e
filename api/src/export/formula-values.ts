import { fileURLToPath } from 'node:url';
import { FORMULA_ENGINE_SETTINGS, HYBRID_MAX_CELLS, HYPERFORMULA_LICENSE_KEY, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '@tessera/contracts';
import type { ExportSource } from './export-source.js';
import { WorkerLane } from '../worker-threads/worker-answer.js';

// Plain .mjs in src/ (tsc does not copy it to dist/): from src/export/ and dist/export/ alike
// this resolves to src/export/formula-worker.mjs.
const FORMULA_WORKER_SCRIPT = fileURLToPath(new URL('../../src/export/formula-worker.mjs', import.meta.url));

/**
 * The grid's engine settings (so a file caches the values the grid shows), with the licence and the
 * size bounds the grid's worker passes (mfe-sheets formula-values.ts, 'begin').
 */
const GRID_ENGINE_SETTINGS = { ...FORMULA_ENGINE_SETTINGS, licenseKey: HYPERFORMULA_LICENSE_KEY, maxRows: SHEET_MAX_ROWS, maxColumns: SHEET_MAX_COLUMNS };

/**
 * Held cells (contracts heldCells: each row up to its last non-empty cell) beyond which a sheet's
 * formulas are written without cached values (LibreOffice and Excel compute them when they open
 * the file): the grid's own bound (its FormulaValues computes a sheet loaded whole up to
 * HYBRID_MAX_CELLS), so the file has values exactly when the grid shows them.
 */
export const FORMULA_EVALUATION_MAX_CELLS = HYBRID_MAX_CELLS;
/**
 * The worker's heap limit: past it the worker dies (the api does not) and values are left out.
 * Sized for a sheet at the bound (2026-11-28, 2 shared cores): 236,000 × 11 (2,596,000 held cells,
 * text and numbers, one =SUM(Bn:Cn) column) leaves HyperFormula holding about 690 MB after a
 * collection (a range vertex a row; about 400 MB with =Bn+Dn instead), beside the parsed rows
 * while it builds. With 768 MB the worker ran out of heap; with 1,024 and 1,280 MB it finished
 * in 21-26 s, mostly collecting (load 4-6); with 1,536 MB in 13-22 s (load 4.6-6), the process
 * peaking at 1.46-1.48 GB RSS. In the api (bench/export.mjs, PGlite in the same process) the
 * export's peak RSS rose by 1.08-1.31 GB. One evaluation runs at a time: that is the most it adds.
 */
const WORKER_HEAP_MB = 1_536;
/** The least heap a worker gets when an operator lowers the bound (EXPORT_FORMULA_MAX_CELLS). */
const WORKER_HEAP_MIN_MB = 256;

/** The worker's heap for a bound of `maxCells` held cells: WORKER_HEAP_MB at the grid's bound, in proportion below it. */
function workerHeapMb(maxCells: number): number {
  return Math.max(WORKER_HEAP_MIN_MB, Math.ceil((WORKER_HEAP_MB * maxCells) / FORMULA_EVALUATION_MAX_CELLS));
}
/**
 * The worker's time limit, for the same outcome: a sheet at the bound took 13-22 s alone (above)
 * and about 20-29 s inside a whole export at load 5-8 (24.5-34.8 s, of which ~6 s writing the file);
 * 100,000 × 10 with a SUM column, 4-6 s. Past 60 s the machine is too busy for it: no values.
 */
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

/** A value's kind in FormulaColumns (the codes of formula-worker.mjs KIND). */
const enum FormulaKind {
  Number = 0,
  Text = 1,
  True = 2,
  False = 3,
  Empty = 4,
  Error = 5,
  Unparsed = 6,
}

/**
 * The worker's answer: every formula cell in row order, as columns (typed arrays, transferred,
 * not copied: a sheet of 2.6 million formulas is 40 MB here, not millions of small arrays), its
 * value a number in `numbers` or, for a text or an error, `texts[numbers[i]]`. Or `over`: the
 * held cells it had counted when they went past the bound (nothing was built).
 */
interface FormulaColumns {
  rows: Int32Array;
  cols: Int32Array;
  kinds: Uint8Array;
  numbers: Float64Array;
  texts: string[];
}
type WorkerAnswer = FormulaColumns | { over: number };

// One evaluation at a time per process: each holds a whole sheet in a worker's heap.
const lane = new WorkerLane('formula evaluation');

/** The index of (row, col) in the worker's columns (sorted by row, then column), or -1. */
function find(found: FormulaColumns, row: number, col: number): number {
  let lo = 0;
  let hi = found.rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const r = found.rows[mid];
    const c = found.cols[mid];
    if (r === row && c === col) return mid;
    if (r < row || (r === row && c < col)) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The grid's values of a sheet's formulas, computed as the grid does (HyperFormula built from the
 * held rows, row 1 the first data row) in a worker thread, or NOT_EVALUATED when the sheet has no
 * formula (may_have_formulas false), holds over `maxCells` cells (EXPORT_FORMULA_MAX_CELLS; held_cells
 * when the summary carries it, else counted by the worker before it builds anything), or the
 * worker fails (reported to onFailure). Reads (does not release) the source's chunks; the api's
 * thread parses none of them for this.
 */
export async function evaluateFormulas(source: ExportSource, onFailure: (err: unknown) => void, maxCells = FORMULA_EVALUATION_MAX_CELLS): Promise<FormulaValues> {
  const { may_have_formulas: mayHaveFormulas, held_cells: held } = source.summary;
  if (maxCells === 0 || mayHaveFormulas === false || (held !== undefined && held > maxCells)) return NOT_EVALUATED;

  const turn = lane.run<WorkerAnswer>(
    FORMULA_WORKER_SCRIPT,
    { workerData: { chunks: source.chunks, settings: GRID_ENGINE_SETTINGS, maxHeld: maxCells }, resourceLimits: { maxOldGenerationSizeMb: workerHeapMb(maxCells) } },
    WORKER_TIME_LIMIT_MS,
  );
  let answer: WorkerAnswer;
  try {
    answer = await turn;
  } catch (err) {
    onFailure(err);
    return NOT_EVALUATED;
  }
  if ('over' in answer) return NOT_EVALUATED;
  const found = answer;
  return {
    parses: (row, col) => {
      const i = find(found, row, col);
      return i < 0 || found.kinds[i] !== FormulaKind.Unparsed;
    },
    result: (row, col) => {
      const i = find(found, row, col);
      if (i < 0) return undefined;
      switch (found.kinds[i] as FormulaKind) {
        case FormulaKind.Number:
          return found.numbers[i];
        case FormulaKind.Text:
          return found.texts[found.numbers[i]];
        case FormulaKind.True:
          return true;
        case FormulaKind.False:
          return false;
        case FormulaKind.Error: {
          const error = found.texts[found.numbers[i]];
          return EXCEL_ERRORS.has(error) ? { error } : undefined;
        }
        default:
          return undefined;
      }
    },
  };
}
