import { FORMULA_ENGINE_SETTINGS, type CellValue } from '@tessera/contracts';
import type { HyperFormula, RawCellContent } from 'hyperformula';
import type { CellResult, FromFormulaWorker, ShownValue, ToFormulaWorker } from './formula-messages.js';

/**
 * The formula worker's message handling, as a plain module: formula.worker.ts binds it to the
 * worker's messages, the tests to an in-page port (jsdom has no Worker). HyperFormula is passed
 * in, so this file does not pull it into whatever imports it.
 */

/** Results are posted in slices of this many cells: each costs the main thread one short copy. */
export const RESULT_SLICE = 20_000;

/**
 * Most rows given to one HyperFormula addRows: it inserts them with a spread into splice
 * (DenseStrategy.addRows, 3.5.0), which overflows the call stack past ~120,000 arguments — a
 * 200,000-row insert into a sheet with formulas failed the engine (its formulas then showed as text).
 * Larger inserts go in slices at the same index: the same rows, in the same place.
 */
export const ADD_ROWS_SLICE = 50_000;

/**
 * Each build and each change is timed as a User Timing measure in the worker ('formulas:build',
 * 'formulas:cells', 'formulas:structure'): bench/formula-sizes.mjs reads them from the worker to
 * tell the engine's own time from the page's.
 */
function timed<T>(name: string, run: () => T): T {
  const start = performance.now();
  try {
    return run();
  } finally {
    try {
      performance.measure(`formulas:${name}`, { start, end: performance.now() });
    } catch {
      // Only a figure for the bench: a runtime without User Timing Level 3 (jsdom) goes without.
    }
  }
}

const isFormula = (value: unknown): value is string => typeof value === 'string' && value.startsWith('=');

/** HyperFormula's value as a cell shows it: an error by its code, as the Formulas plugin showed it. */
export function shownValue(value: unknown): ShownValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return 'value' in value ? String((value as { value: unknown }).value) : null;
  return value as ShownValue;
}

export interface FormulaWorkerCore {
  handle(message: ToFormulaWorker): void;
}

export function formulaWorkerCore(engine: typeof HyperFormula, post: (message: FromFormulaWorker) => void): FormulaWorkerCore {
  let generation = -1;
  let bounds = { licenseKey: '', maxRows: 0, maxColumns: 0 };
  let rows: CellValue[][] = [];
  let hf: HyperFormula | null = null;
  // Edits that arrive while the rows are still coming: applied once the engine is built.
  let waiting: ToFormulaWorker[] = [];

  const sendValues = (cells: CellResult[], complete: boolean) => {
    if (cells.length === 0) {
      if (complete) post({ type: 'values', generation, cells, complete });
      return;
    }
    for (let start = 0; start < cells.length; start += RESULT_SLICE) {
      const end = start + RESULT_SLICE;
      post({ type: 'values', generation, cells: cells.slice(start, end), complete: complete && end >= cells.length });
    }
  };

  /** The cells whose values changed, as HyperFormula reports them after an operation. */
  const changed = (changes: ReturnType<HyperFormula['setCellContents']>): CellResult[] => {
    const out: CellResult[] = [];
    for (const change of changes) {
      if (!('address' in change)) continue; // a named expression's change: none are used
      out.push([change.address.row, change.address.col, shownValue(change.newValue)]);
    }
    return out;
  };

  const apply = (message: ToFormulaWorker) => {
    if (!hf) return;
    if (message.type === 'cells') {
      const engineNow = hf;
      const changes = engineNow.batch(() => {
        for (const [row, col, value] of message.cells) engineNow.setCellContents({ sheet: 0, row, col }, [[value as RawCellContent]]);
      });
      sendValues(changed(changes), false);
    } else if (message.type === 'structure') {
      const { axis, index, amount } = message;
      const size = hf.getSheetDimensions(0);
      const length = axis === 'row' ? size.height : size.width;
      // Past the engine's last row or column everything is empty: nothing refers there to move.
      if (index > length || (amount < 0 && index >= length)) return;
      const span: [number, number] = [index, amount > 0 ? amount : Math.min(-amount, length - index)];
      if (axis === 'row' && amount > ADD_ROWS_SLICE) {
        const engineNow = hf;
        // One batch: the formulas are computed once, after the last slice.
        const changes = engineNow.batch(() => {
          for (let left = amount; left > 0; left -= ADD_ROWS_SLICE) engineNow.addRows(0, [index, Math.min(left, ADD_ROWS_SLICE)]);
        });
        sendValues(changed(changes), false);
        return;
      }
      const changes =
        axis === 'row'
          ? amount > 0
            ? hf.addRows(0, span)
            : hf.removeRows(0, span)
          : amount > 0
            ? hf.addColumns(0, span)
            : hf.removeColumns(0, span);
      sendValues(changed(changes), false);
    }
  };

  const build = () => {
    hf = engine.buildFromArray(rows as RawCellContent[][], { ...FORMULA_ENGINE_SETTINGS, dateFormats: [...FORMULA_ENGINE_SETTINGS.dateFormats], timeFormats: [...FORMULA_ENGINE_SETTINGS.timeFormats], ...bounds });
    const values: CellResult[] = [];
    for (let row = 0; row < rows.length; row++) {
      const cells = rows[row];
      for (let col = 0; col < cells.length; col++) {
        if (isFormula(cells[col])) values.push([row, col, shownValue(hf.getCellValue({ sheet: 0, row, col }))]);
      }
    }
    // The engine holds the cells now; the copy is not needed.
    rows = [];
    sendValues(values, true);
    const queued = waiting;
    waiting = [];
    for (const message of queued) apply(message);
  };

  return {
    handle(message) {
      if (message.type === 'begin') {
        hf?.destroy();
        hf = null;
        generation = message.generation;
        bounds = { licenseKey: message.licenseKey, maxRows: message.maxRows, maxColumns: message.maxColumns };
        rows = [];
        waiting = [];
        return;
      }
      // About an engine that was replaced since.
      if (message.generation !== generation) return;
      try {
        if (message.type === 'rows') {
          for (const row of message.rows) rows.push(row);
        } else if (message.type === 'build') {
          timed('build', build);
        } else if (hf) {
          timed(message.type, () => apply(message));
        } else {
          waiting.push(message);
        }
      } catch (error) {
        hf?.destroy();
        hf = null;
        generation = -1;
        post({ type: 'failed', generation: message.generation, error: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}

