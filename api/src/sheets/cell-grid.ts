import type { CellValue, GridData } from '@tessera/contracts';

/**
 * Rows per chunk as written: a new grid is cut into chunks of this many rows, and an edit
 * rewrites at most about this many rows per touched chunk. Chunks may hold fewer or more rows
 * (up to MAX_CHUNK_ROWS) after rows were inserted or removed: see ChunkLayout.
 */
export const CHUNK_ROWS = 500;
/** A chunk grown past this by inserted rows is split into chunks of about CHUNK_ROWS rows. */
export const MAX_CHUNK_ROWS = 2 * CHUNK_ROWS;

export const chunkCount = (rowCount: number) => Math.ceil(rowCount / CHUNK_ROWS);

/**
 * Where a sheet's rows are stored (sheet_chunks): its chunks in row order, each with its stable
 * id, its row count and its sort key. Rows inserted or removed change only the chunk they fall
 * in (split or dropped locally), never the chunks below: a chunk's id stays its own for life, so
 * a snapshot copies only the chunks written since the previous one. Immutable: a change makes a
 * new layout (a layout is cached by sheet version, and a rolled-back write must leave it as it was).
 */
export class ChunkLayout {
  #starts: number[] | undefined;
  readonly rowCount: number;

  constructor(
    readonly ids: readonly number[],
    readonly sizes: readonly number[],
    readonly ords: readonly number[],
  ) {
    let rows = 0;
    for (const n of sizes) rows += n;
    this.rowCount = rows;
  }

  static empty(): ChunkLayout {
    return new ChunkLayout([], [], []);
  }

  /** The layout of a grid of `rowCount` rows written anew: chunks 0, 1, ... of CHUNK_ROWS rows. */
  static fresh(rowCount: number): ChunkLayout {
    const count = chunkCount(rowCount);
    const ids = Array.from({ length: count }, (_, i) => i);
    return new ChunkLayout(ids, ids.map((i) => Math.min(CHUNK_ROWS, rowCount - i * CHUNK_ROWS)), ids);
  }

  get length(): number {
    return this.ids.length;
  }

  /** The first row of each chunk. */
  get starts(): readonly number[] {
    if (!this.#starts) {
      const starts: number[] = [];
      let at = 0;
      for (const n of this.sizes) {
        starts.push(at);
        at += n;
      }
      this.#starts = starts;
    }
    return this.#starts;
  }

  /** The chunk (position in the layout) holding `row` (< rowCount), by binary search. */
  positionOf(row: number): number {
    return segmentHolding(this.starts, row);
  }

  nextId(): number {
    let max = -1;
    for (const id of this.ids) if (id > max) max = id;
    return max + 1;
  }

  /**
   * The layout grown to `rowCount` rows (writes past the end): the last chunk is filled up to
   * CHUNK_ROWS, then new chunks of CHUNK_ROWS rows follow. Returns the positions whose size changed or that are new.
   */
  grownTo(rowCount: number): { layout: ChunkLayout; changed: number[] } {
    if (rowCount <= this.rowCount) return { layout: this, changed: [] };
    const ids = [...this.ids];
    const sizes = [...this.sizes];
    const ords = [...this.ords];
    const changed: number[] = [];
    let missing = rowCount - this.rowCount;
    const last = sizes.length - 1;
    if (last >= 0 && sizes[last] < CHUNK_ROWS) {
      const add = Math.min(missing, CHUNK_ROWS - sizes[last]);
      sizes[last] += add;
      missing -= add;
      changed.push(last);
    }
    let id = this.nextId();
    let ord = ords.length > 0 ? Math.floor(ords[ords.length - 1]) + 1 : 0;
    while (missing > 0) {
      const n = Math.min(CHUNK_ROWS, missing);
      changed.push(ids.length);
      ids.push(id++);
      sizes.push(n);
      ords.push(ord++);
      missing -= n;
    }
    return { layout: new ChunkLayout(ids, sizes, ords), changed };
  }
}

/** Empty cells compare equal whether absent, null or ''. */
export function sameCell(a: CellValue | undefined, b: CellValue | undefined): boolean {
  const x = a === undefined || a === null ? '' : a;
  const y = b === undefined || b === null ? '' : b;
  return x === y;
}

export const cellAt = (grid: GridData, row: number, col: number): CellValue => grid[row]?.[col] ?? null;

/** Widest row: the sheet's column count. */
export function widthOf(grid: GridData): number {
  let width = 0;
  for (const row of grid) if (row.length > width) width = row.length;
  return width;
}

/**
 * `rows` empty rows. An empty row is stored as [] whatever the sheet's width (the sheet's
 * col_count says the width; readers pad where they need full rows): a 1,000 × 10,000 empty
 * sheet costs 1,000 × 3 bytes, not 10 million cells.
 */
export function emptyRows(rows: number): GridData {
  return Array.from({ length: rows }, () => []);
}

/** One changed cell as the op log keeps it. */
export interface CellDelta {
  row: number;
  col: number;
  old: CellValue;
  new: CellValue;
}

/** The last index of `starts` (first rows of consecutive segments, ascending, starts[0] = 0) at or before `row`: the segment holding it. */
export function segmentHolding(starts: readonly number[], row: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
