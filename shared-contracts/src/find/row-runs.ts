/**
 * A set of rows (a windowed sheet's rows a filter shows) as runs, packed into a short text: the api
 * sends it (POST /sheets/:id/filter) and the client unpacks it. Runs of rows shown are [start,
 * count) pairs in row order; the text is one letter 'g' then base64 of varints: for each run the
 * rows skipped since the last run's end, then its count. A varint of n bytes stands for at least
 * 128^(n-1) rows, and each run covers one row at least and follows a gap of one (but the first):
 * the bytes never pass 2 per row shown, so 1,000,000 rows, every other one shown, are about 1 MB
 * (1.3 MB of base64) and a filter keeping long runs a few bytes.
 */

import { fromBase64, pushVarint, toBase64, VarintReader } from '../packing/packed-bytes.js';

/** Packs runs given as flat [start0, count0, start1, count1, …] (ascending, not touching, counts ≥ 1). */
export function packRuns(runs: ArrayLike<number>): string {
  const out: number[] = [];
  let end = 0;
  for (let i = 0; i + 1 < runs.length; i += 2) {
    pushVarint(out, runs[i] - end);
    pushVarint(out, runs[i + 1]);
    end = runs[i] + runs[i + 1];
  }
  return `g${toBase64(out)}`;
}

/**
 * The runs of `text` as flat [start, count, …] (Int32Array), or null when it is no packed runs or
 * any run passes `rows` (the sheet's row count, stated beside it) or is empty.
 */
export function unpackRuns(text: string, rows: number): Int32Array | null {
  if (text[0] !== 'g') return null;
  const bytes = fromBase64(text.slice(1));
  if (bytes === null) return null;
  const reader = new VarintReader(bytes);
  const out: number[] = [];
  let end = 0;
  while (!reader.done) {
    const gap = reader.next();
    const count = reader.next();
    if (gap < 0 || count < 1 || (gap === 0 && out.length > 0) || end + gap + count > rows) return null;
    out.push(end + gap, count);
    end += gap + count;
  }
  return Int32Array.from(out);
}

/** Builds runs row by row, in row order: add(row) for every row shown. */
export class RunsBuilder {
  private readonly runs: number[] = [];
  private start = -1;
  private end = -1;
  /** Rows shown. */
  shown = 0;

  /** Row `row` (past every row given before) is shown. */
  add(row: number): void {
    this.shown++;
    if (row === this.end) {
      this.end++;
      return;
    }
    if (this.start >= 0) this.runs.push(this.start, this.end - this.start);
    this.start = row;
    this.end = row + 1;
  }

  /** Rows [from, from + count) are shown. */
  addRange(from: number, count: number): void {
    if (count <= 0) return;
    this.add(from);
    this.shown += count - 1;
    this.end = from + count;
  }

  /** Rows from `at` on taken out (shown counts them no more). */
  cut(at: number): void {
    while (this.start >= at) {
      this.shown -= this.end - this.start;
      const count = this.runs.pop();
      const start = this.runs.pop();
      if (start === undefined || count === undefined) {
        this.start = this.end = -1;
        return;
      }
      this.start = start;
      this.end = start + count;
    }
    if (this.end > at) {
      this.shown -= this.end - at;
      this.end = at;
    }
  }

  /** The runs so far, flat [start, count, …]. */
  flat(): number[] {
    return this.start >= 0 ? [...this.runs, this.start, this.end - this.start] : [...this.runs];
  }
}
