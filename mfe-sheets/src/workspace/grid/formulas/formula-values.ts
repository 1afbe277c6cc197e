import { type CellValue, type GridData, heldLength, HYBRID_MAX_CELLS, HYPERFORMULA_LICENSE_KEY, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '@tessera/contracts';
import type { CellInput, FromFormulaWorker, ShownValue } from './formula-messages.js';
import type { FormulaPort } from './start-formula-worker.js';

/** Rows per message while the worker reads the sheet: each copy is a short task, not one long one. */
export const LOAD_SLICE_ROWS = 5_000;
/** Rows counted per task before any is sent: ~0.1 µs a row, a few milliseconds a slice. */
export const COUNT_SLICE_ROWS = 50_000;
/**
 * Most cells the worker is given (heldLength of every row): the 100,000 × 26 sheet the workspace
 * is built to open (the hybrid jobs' bound, HYBRID_MAX_CELLS). Past it the formulas show as their text.
 */
export const FORMULA_MAX_CELLS = HYBRID_MAX_CELLS;

/*
 * A row gives the worker its cells up to its last non-empty one (contracts heldLength, the count the
 * api keeps too: SheetSummary.held_cells). The grid's rows are padded with empty cells to the
 * editor's spare columns (grid-shape padRows: 26 for an 11-column sheet), and HyperFormula gives an
 * empty cell no vertex and sizes its sheet by the last non-empty cell (findBoundaries), so the
 * trailing ones change nothing in the engine: counted, they refused a 200,000 × 11 sheet as 5.2
 * million cells; sent, they were structured-cloned for nothing. A formula reading a spare column
 * reads it as empty either way; an edit there reaches the worker as any edit does (cells()).
 */

/** Rows start..end as the worker is given them: without their trailing empty cells (a row that has none is not copied). */
function heldRows(data: GridData, start: number, end: number): CellValue[][] {
  const out: CellValue[][] = new Array(end - start);
  for (let r = start; r < end; r++) {
    const row = data[r];
    const length = heldLength(row);
    out[r - start] = length === row.length ? row : row.slice(0, length);
  }
  return out;
}

export type FormulaState = 'computing' | 'ready' | 'off';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Inserts `amount` empty places at `index` (or removes -amount), without spreading a large array into arguments. */
function shift<T>(list: T[], index: number, amount: number): T[] {
  if (index >= list.length) return list;
  if (amount < 0) {
    list.splice(index, -amount);
    return list;
  }
  const out = list.slice(0, index);
  out.length = index + amount;
  for (let i = index; i < list.length; i++) out[i + amount] = list[i];
  return out;
}

/**
 * The formulas of a sheet loaded whole, computed in the formula worker: this side gives it the
 * rows (in slices), then every change the grid makes (cells, rows, columns), and keeps the
 * values it sends back, by the cells' stored positions, for the grid's renderer and the charts.
 * The grid's rows keep the formulas' text: the editor, the server and the versions see that.
 */
export class FormulaValues {
  state: FormulaState = 'computing';
  /** The cells the sheet would give the engine when they are past FORMULA_MAX_CELLS (its formulas show as text; the Workspace says so), else null. */
  overLimit: number | null = null;
  private values: ShownValue[][] = [];
  private generation = 0;
  private port: FormulaPort | null = null;
  /**
   * The cells the engine holds of each row (heldLength) counted so far, and their sum: kept up to
   * date by every change after the count, so an edit or paste that takes the sheet past the bound
   * stops the engine, and one that brings it back under starts it again.
   */
  private held: number[] = [];
  private heldTotal = 0;
  /** Rows counted by the reload under way (every row once it has counted). */
  private counted = 0;
  /** The worker has been given rows since it started: its engine holds them. */
  private engineLoaded = false;

  constructor(
    private readonly startWorker: () => FormulaPort,
    private readonly data: GridData,
    /** New values arrived (or the worker stopped): the grid shows them. */
    private readonly onChange: () => void,
  ) {}

  /** Starts the worker and gives it the rows (the grid is mounted). */
  start(): void {
    if (this.port) return;
    this.port = this.connect();
    this.state = 'computing';
    void this.reload();
  }

  /** Stops the worker (the grid is unmounted); start() begins again. */
  dispose(): void {
    if (!this.port) return;
    this.disconnect(this.port);
    this.port = null;
    this.generation++;
    this.values = [];
    this.state = 'off';
    this.overLimit = null;
    this.held = [];
    this.heldTotal = 0;
    this.counted = 0;
    this.engineLoaded = false;
  }

  /** The value a formula cell shows; undefined while it is being computed. */
  value(row: number, col: number): ShownValue | undefined {
    return this.values[row]?.[col];
  }

  /** (Re)reads the whole sheet: at the start, and when the rows were replaced (a sync). */
  async reload(): Promise<void> {
    const port = this.port;
    if (!port) return;
    const generation = ++this.generation;
    this.values = [];
    this.state = 'computing';
    // Each slice of rows, counted then sent, in a task of its own (the first too, not in the one
    // that drew the grid): the page draws and takes input between them; a reload or a structure
    // change meanwhile starts over. Counted first: a sheet past the bound sends nothing.
    const superseded = () => generation !== this.generation || this.port !== port;
    this.held = [];
    this.heldTotal = 0;
    this.counted = 0;
    for (let start = 0; start < this.data.length; start += COUNT_SLICE_ROWS) {
      await nextTask();
      if (superseded()) return;
      const end = Math.min(this.data.length, start + COUNT_SLICE_ROWS);
      for (let r = start; r < end; r++) {
        const n = heldLength(this.data[r]);
        this.held[r] = n;
        this.heldTotal += n;
      }
      this.counted = end;
    }
    if (this.heldTotal > FORMULA_MAX_CELLS) {
      this.pastTheBound();
      return;
    }
    if (this.overLimit !== null) {
      // The rows replaced by fewer: the formulas are computed again, the notice goes.
      this.overLimit = null;
      this.onChange();
    }
    this.engineLoaded = true;
    port.post({ type: 'begin', generation, licenseKey: HYPERFORMULA_LICENSE_KEY, maxRows: SHEET_MAX_ROWS, maxColumns: SHEET_MAX_COLUMNS });
    for (let start = 0; start < this.data.length; start += LOAD_SLICE_ROWS) {
      await nextTask();
      if (superseded()) return;
      port.post({ type: 'rows', generation, rows: heldRows(this.data, start, Math.min(this.data.length, start + LOAD_SLICE_ROWS)) });
    }
    port.post({ type: 'build', generation });
  }

  /** Cells changed in the grid's rows (any source: typing, paste, undo, other users). */
  cells(changes: readonly CellInput[]): void {
    // Off for a failed worker: nothing follows. Off past the bound: the count still follows.
    if (!this.port || changes.length === 0 || (this.state === 'off' && this.overLimit === null)) return;
    for (const [row] of changes) this.recount(row);
    if (this.counted >= this.data.length) {
      if (this.overLimit !== null) {
        // Back under the bound: the engine reads the sheet again (and the notice goes); else the count shown follows.
        if (this.heldTotal <= FORMULA_MAX_CELLS) void this.reload();
        else if (this.heldTotal !== this.overLimit) {
          this.overLimit = this.heldTotal;
          this.onChange();
        }
        return;
      }
      if (this.heldTotal > FORMULA_MAX_CELLS) {
        this.pastTheBound();
        return;
      }
    }
    if (this.overLimit !== null) return;
    this.port.post({ type: 'cells', generation: this.generation, cells: changes as CellInput[] });
  }

  /** Rows or columns inserted (amount > 0) or removed (amount < 0) at `index` in the grid's rows. */
  structure(axis: 'row' | 'col', index: number, amount: number): void {
    if (!this.port || (this.state === 'off' && this.overLimit === null)) return;
    if (this.state === 'computing' || this.overLimit !== null) {
      // Slices already sent no longer match the rows, or the sheet was past the bound: read them again.
      void this.reload();
      return;
    }
    if (axis === 'row') {
      const removed = amount < 0 ? this.held.slice(index, index - amount) : [];
      for (const n of removed) this.heldTotal -= n;
      // Inserted rows are empty: they hold nothing.
      this.held = this.held.slice(0, index).concat(amount > 0 ? new Array<number>(amount).fill(0) : [], this.held.slice(amount < 0 ? index - amount : index));
      this.counted = this.data.length;
    } else {
      // A column moves every cell right of it: each row is counted again (a few ms for 100,000 rows).
      this.heldTotal = 0;
      for (let r = 0; r < this.data.length; r++) this.heldTotal += this.held[r] = heldLength(this.data[r]);
      this.held.length = this.data.length;
      this.counted = this.data.length;
    }
    if (this.heldTotal > FORMULA_MAX_CELLS) {
      this.pastTheBound();
      return;
    }
    // The values move with their cells now; those the change recomputes follow from the worker.
    if (axis === 'row') this.values = shift(this.values, index, amount);
    else for (let r = 0; r < this.values.length; r++) if (this.values[r]) this.values[r] = shift(this.values[r], index, amount);
    this.port.post({ type: 'structure', generation: this.generation, axis, index, amount });
  }

  private stop(): void {
    this.state = 'off';
    this.values = [];
    this.onChange();
  }

  /** A counted row's cells held, after a change to it; rows the count has not reached yet are counted when it does. */
  private recount(row: number): void {
    if (row >= this.counted) return;
    const n = heldLength(this.data[row] ?? []);
    this.heldTotal += n - (this.held[row] ?? 0);
    this.held[row] = n;
  }

  /**
   * The sheet holds more cells than the engine takes (FORMULA_MAX_CELLS): its formulas show as
   * text and the Workspace says so. A worker that had read the sheet is replaced by an empty one:
   * the engine's memory goes with it, and a change that brings the sheet back under reads it anew.
   */
  private pastTheBound(): void {
    console.error(`[sheets] ${this.heldTotal} cells are more than the formula engine takes (${FORMULA_MAX_CELLS}); formulas show as text`);
    this.overLimit = this.heldTotal;
    this.generation++;
    if (this.port && this.engineLoaded) {
      this.engineLoaded = false;
      this.disconnect(this.port);
      this.port = this.connect();
    }
    this.stop();
  }

  /** A new worker whose messages come here. */
  private connect(): FormulaPort {
    const port = this.startWorker();
    port.onMessage = (message) => this.receive(message);
    return port;
  }

  /** Ends a worker: nothing it still sends comes here. */
  private disconnect(port: FormulaPort): void {
    port.onMessage = null;
    port.terminate();
  }

  private receive(message: FromFormulaWorker | null): void {
    if (message === null) {
      // The worker itself is gone (its script failed): nothing more will come from it.
      this.port?.terminate();
      this.port = null;
      this.stop();
      return;
    }
    if (message.generation !== this.generation) return;
    if (message.type === 'failed') {
      console.error('[sheets] the formula engine failed; formulas show as text', message.error);
      this.stop();
      return;
    }
    for (const [row, col, value] of message.cells) (this.values[row] ??= [])[col] = value;
    if (message.complete) this.state = 'ready';
    this.onChange();
  }
}

