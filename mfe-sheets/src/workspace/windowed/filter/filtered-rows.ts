import type { RowRange } from '@tessera/contracts';

/**
 * The rows a windowed sheet's row filter shows (the api's answer, POST /sheets/:id/filter: runs of
 * absolute rows, contracts unpackRuns), as the grid needs them: a shown position (the grid's row,
 * counted over the rows shown) to its absolute row (the sheet's: its row header, where an edit
 * goes) and back. Rows moved by row ops keep their runs (rowsInserted, rowsRemoved:
 * inserted rows are shown, as the whole grid leaves the user's own inserts unjudged); a row judged
 * again is shown or hidden alone (setShown).
 */
export class FilteredRows {
  /** Run k: rows [starts[k], starts[k] + counts[k]); before[k]: the rows shown before it. */
  private starts: Int32Array;
  private counts: Int32Array;
  private before: Float64Array;
  /** Rows shown (positions). */
  length = 0;

  constructor(
    runs: Int32Array,
    /** The sheet's rows. */
    public rowCount: number,
  ) {
    const n = runs.length >> 1;
    this.starts = new Int32Array(n);
    this.counts = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      this.starts[k] = runs[2 * k];
      this.counts[k] = runs[2 * k + 1];
    }
    this.before = new Float64Array(n);
    this.index();
  }

  private index(): void {
    const n = this.starts.length;
    if (this.before.length !== n) this.before = new Float64Array(n);
    let shown = 0;
    for (let k = 0; k < n; k++) {
      this.before[k] = shown;
      shown += this.counts[k];
    }
    this.length = shown;
  }

  /** The absolute row shown at `position` (0 ≤ position < length), else -1. */
  rowAt(position: number): number {
    if (position < 0 || position >= this.length) return -1;
    // The last run starting at or before the position.
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.before[mid] <= position) lo = mid;
      else hi = mid - 1;
    }
    return this.starts[lo] + (position - this.before[lo]);
  }

  /** The run holding `row` or, if none, the last run before it (-1: none before). */
  private runAtOrBefore(row: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    if (hi < 0 || this.starts[0] > row) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The position of absolute row `row`, or -1 when the filter hides it. */
  positionOf(row: number): number {
    const k = this.runAtOrBefore(row);
    return k >= 0 && row < this.starts[k] + this.counts[k] ? this.before[k] + (row - this.starts[k]) : -1;
  }

  /** The position of the first row shown at or after `row` (length when none): where a jump to a hidden row lands. */
  positionAtOrAfter(row: number): number {
    const k = this.runAtOrBefore(row);
    if (k >= 0 && row < this.starts[k] + this.counts[k]) return this.before[k] + (row - this.starts[k]);
    return k + 1 < this.starts.length ? this.before[k + 1] : this.length;
  }

  /** The runs as flat [start, count, …]; with `range`, cut to its rows (a Shift-selected range's). */
  runs(range?: RowRange): number[] {
    const out: number[] = [];
    const low = range?.start ?? 0;
    const high = range ? range.start + range.count : Infinity;
    for (let k = 0; k < this.starts.length; k++) {
      const from = Math.max(this.starts[k], low);
      const to = Math.min(this.starts[k] + this.counts[k], high);
      if (to > from) out.push(from, to - from);
    }
    return out;
  }

  private replaceRuns(flat: number[]): void {
    // Touching runs joined, empty ones dropped.
    const merged: number[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      if (flat[i + 1] <= 0) continue;
      const last = merged.length - 2;
      if (last >= 0 && merged[last] + merged[last + 1] === flat[i]) merged[last + 1] += flat[i + 1];
      else merged.push(flat[i], flat[i + 1]);
    }
    this.starts = Int32Array.from({ length: merged.length >> 1 }, (_, k) => merged[2 * k]);
    this.counts = Int32Array.from({ length: merged.length >> 1 }, (_, k) => merged[2 * k + 1]);
    this.index();
  }

  /** Rows inserted at `index` (by anyone): the rows below move down; the new ones are shown. */
  rowsInserted(index: number, count: number): void {
    if (count <= 0) return;
    const out: number[] = [];
    let placed = false;
    for (let k = 0; k < this.starts.length; k++) {
      const start = this.starts[k];
      const end = start + this.counts[k];
      if (end <= index) out.push(start, end - start);
      else {
        if (!placed) {
          // A run holding the insert's row is cut around it.
          if (start < index) out.push(start, index - start);
          out.push(index, count);
          placed = true;
          out.push(Math.max(start, index) + count, end - Math.max(start, index));
        } else out.push(start + count, end - start);
      }
    }
    if (!placed) out.push(index, count);
    this.rowCount += count;
    this.replaceRuns(out);
  }

  /** Rows [index, index + count) removed (by anyone): gone from the runs, the rows below move up. */
  rowsRemoved(index: number, count: number): void {
    if (count <= 0) return;
    const cut = index + count;
    const out: number[] = [];
    for (let k = 0; k < this.starts.length; k++) {
      const start = this.starts[k];
      const end = start + this.counts[k];
      // The part before the removed rows, and the part after them moved up.
      if (start < index) out.push(start, Math.min(end, index) - start);
      if (end > cut) out.push(Math.max(start, cut) - count, end - Math.max(start, cut));
    }
    this.rowCount = Math.max(0, this.rowCount - count);
    this.replaceRuns(out);
  }

  /** Row `row` judged again: shown or hidden (someone else's edit made it pass or fail). */
  setShown(row: number, shown: boolean): void {
    if (row < 0 || row >= this.rowCount || (this.positionOf(row) >= 0) === shown) return;
    const out: number[] = [];
    let placed = !shown;
    for (let k = 0; k < this.starts.length; k++) {
      const start = this.starts[k];
      const end = start + this.counts[k];
      if (!placed && start > row) {
        out.push(row, 1);
        placed = true;
      }
      if (!shown && row >= start && row < end) out.push(start, row - start, row + 1, end - row - 1);
      else out.push(start, end - start);
    }
    if (!placed) out.push(row, 1);
    this.replaceRuns(out);
  }
}

/** Whether a row is in `runs` (flat [start, count, …], ascending, as FilteredRows.runs gives them). */
export function inRuns(runs: readonly number[]): (row: number) => boolean {
  const rows = new FilteredRows(Int32Array.from(runs), 0);
  return (row) => rows.positionOf(row) >= 0;
}

/** The span of rows `runs` covers, from the first run's start to the last one's end. */
export const runsSpan = (runs: readonly number[]): RowRange => (runs.length < 2 ? { start: 0, count: 0 } : { start: runs[0], count: runs[runs.length - 2] + runs[runs.length - 1] - runs[0] });
