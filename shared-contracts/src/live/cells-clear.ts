import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import { inverseOrder } from './rows-sort.js';
import { isInsertStructure, isRowStructure, type MoveStep, type StructureStep, transformIndex, type TransformSide } from './transform-position.js';

/**
 * Clearing a rectangular block of cells as one live operation (`cells_clear`): a whole-column
 * Delete on a windowed sheet of a million rows is this one small operation, not a million cell
 * changes. The server empties the block's cells (null) and logs the block; every client empties
 * what it holds of it. Positions move through rows and columns inserted or removed and rows
 * sorted since the operation's base version as follows (the one definition for the api and the clients):
 *
 * - Rows (columns) removed: the part of the block they took is gone (the block shrinks and moves
 *   up); nothing left: the clear is dropped (nothing of it exists any more).
 * - Rows (columns) inserted before the block's first row move it down; after its last, nothing.
 * - Rows inserted strictly inside the block by an operation committed BEFORE the clear (the server
 *   moving a clear made on an older version, `side` 'after'): the block grows over them. A user who
 *   cleared column C expects column C empty for everyone; the inserted rows were empty when
 *   inserted, so what the grown block can take is only what was typed into them while the clear
 *   was on its way (the clear's flight time) — and the removal of rows grows the same way
 *   (transform-position.ts), so a clear and a removal of the same range agree. Splitting the block
 *   instead would leave a column "cleared" with holes in it.
 * - Rows inserted strictly inside the block by an operation the server commits AFTER the clear (a
 *   client moving a remote clear through its own pending insert, `side` 'before'): on the server those rows come after
 *   the clear, so they are not cleared: in the client's terms the block is split around them (a list of blocks).
 * - Rows sorted: a block of all the sorted rows (a whole column, or rows past them) is still that
 *   block; a block of some of them is scattered by the sort and cannot be cleared as the user
 *   meant: refused (CLEAR_TEXTS.rowsSorted).
 */

/** A run of rows or columns: `count` of them from `start` (0-based, in the stored grid). */
export interface Span {
  start: number;
  count: number;
}

/** A block of cells: its rows and columns. */
export interface ClearBlock {
  rows: Span;
  columns: Span;
}

export const CLEAR_TEXTS = {
  /** A client moving its own clear, or the server one based before a sort, when the sort scattered its rows. */
  rowsSorted: 'Your cells were not cleared: someone sorted the sheet first and their rows are no longer together',
  /** Every row or column of the block was removed by someone else first. */
  removed: 'Your cells were not cleared: their rows or columns were removed by someone else first',
  /** cells_clear_undo naming a version that is not a clear of this sheet (or past its last version). */
  undoNotClear: (version: number) => `Version ${version} of this sheet is not a clear of cells: there is nothing to put back there`,
  /** cells_clear_undo after the whole grid was replaced (a version restored, an import or a save over it). */
  undoReplaced: 'Your cells were not put back: the whole sheet was replaced since they were cleared',
  /** cells_clear_undo when every row or column of the clear was removed since. */
  undoGone: 'Your cells were not put back: their rows or columns were removed since',
  /** cells_clear_undo when the versions before the clear are no longer kept. */
  undoUnavailable: 'Your cells were not put back: the sheet no longer keeps its history from before they were cleared',
  pastSheet: (rows: number, columns: number) => `The cells to clear lie outside the sheet (${rows.toLocaleString('en-US')} rows × ${columns} columns)`,
} as const;

/** Whether a block lies inside a sheet of `rows` × `columns`. */
export function blockInside(block: ClearBlock, rows: number, columns: number): boolean {
  return block.rows.start + block.rows.count <= rows && block.columns.start + block.columns.count <= columns;
}

/** A span through rows (columns) inserted or removed on its own axis: the spans it becomes (none: all of it removed). */
function spanThrough(span: Span, through: StructureStep, side: TransformSide, max: number): Span[] {
  const { start, count } = span;
  const end = start + count;
  let out: Span[];
  if (isInsertStructure(through.type)) {
    if (through.index <= start) out = [{ start: start + through.count, count }];
    else if (through.index >= end) out = [span];
    else if (side === 'after') out = [{ start, count: count + through.count }];
    else out = [{ start, count: through.index - start }, { start: through.index + through.count, count: end - through.index }];
  } else {
    const sEnd = through.index + through.count;
    const overlap = Math.max(0, Math.min(end, sEnd) - Math.max(start, through.index));
    const moved = start < through.index ? start : start >= sEnd ? start - through.count : through.index;
    out = count - overlap > 0 ? [{ start: moved, count: count - overlap }] : [];
  }
  // A block pushed past the sheet's limit keeps what is inside it.
  return out.flatMap((s) => (s.start >= max ? [] : [{ start: s.start, count: Math.min(s.count, max - s.start) }]));
}

/** A span of rows through a sort: itself when its rows are still together (all the sorted rows, or rows past them), else null. */
function rowsThroughSort(span: Span, order: readonly number[]): Span | null {
  const { start, count } = span;
  const end = start + count;
  // Rows past the sorted ones stay; all the sorted rows are still all of them.
  if (start >= order.length || (start === 0 && end >= order.length)) return span;
  const inverse = inverseOrder(order);
  let low = Infinity;
  let high = -Infinity;
  for (let r = start; r < Math.min(end, order.length); r++) {
    low = Math.min(low, inverse[r]);
    high = Math.max(high, inverse[r]);
  }
  if (end > order.length) return high === order.length - 1 && low === start ? span : null;
  return high - low + 1 === count ? { start: low, count } : null;
}

/**
 * A block through one step (see the rules above): the blocks it becomes (empty: nothing left),
 * or null when a sort scattered its rows.
 */
export function clearBlockThrough(block: ClearBlock, through: MoveStep, side: TransformSide): ClearBlock[] | null {
  if (through.type === 'rows_sort') {
    const rows = rowsThroughSort(block.rows, through.order);
    return rows === null ? null : [rows === block.rows ? block : { ...block, rows }];
  }
  if (isRowStructure(through.type)) return spanThrough(block.rows, through, side, SHEET_MAX_ROWS).map((rows) => ({ rows, columns: block.columns }));
  return spanThrough(block.columns, through, side, SHEET_MAX_COLUMNS).map((columns) => ({ rows: block.rows, columns }));
}

/** Blocks through several steps in order (oldest first): those left, or null when a sort scattered one's rows. */
export function clearBlocksThrough(blocks: readonly ClearBlock[], through: readonly MoveStep[], side: TransformSide): ClearBlock[] | null {
  let out: ClearBlock[] = [...blocks];
  for (const step of through) {
    const next: ClearBlock[] = [];
    for (const block of out) {
      const moved = clearBlockThrough(block, step, side);
      if (moved === null) return null;
      next.push(...moved);
    }
    out = next;
  }
  return out;
}

/** Whether a cell lies in a block. */
export function inBlock(block: ClearBlock, row: number, col: number): boolean {
  return row >= block.rows.start && row < block.rows.start + block.rows.count && col >= block.columns.start && col < block.columns.start + block.columns.count;
}

/**
 * Where the cells of a cleared block are now (cells_clear_undo): each of its rows and each of its
 * columns moved through the steps since the clear (oldest first), -1 for one removed (or pushed
 * past the sheet's limit). A cell moves with its row and its column (transform-position.ts
 * transformCell: rows sorted carry their cells, rows inserted inside the block leave its cells on
 * their rows), so the block's `rows.count` + `columns.count` places say where every cell is — an
 * Int32Array of a million rows, not a million cells.
 */
export interface ClearedPlaces {
  /** rows[i]: the row now of the block's row `rows.start + i`, or -1. */
  rows: Int32Array;
  /** columns[j]: the column now of the block's column `columns.start + j`, or -1. */
  columns: Int32Array;
  /**
   * Only when rows were sorted since: sorted[i], the rows the sorts moved the block's row `rows.start
   * + i` by in all. A formula moves with its row through a sort (rows-sort.ts applyOrder shifts its
   * relative references by as many rows), so one put back is shifted by that many, as it would read
   * had it never been cleared; rows inserted or removed shift no formula.
   */
  sorted?: Int32Array;
}

export function clearedPlacesThrough(block: ClearBlock, through: readonly MoveStep[]): ClearedPlaces {
  // Filled by a loop: Int32Array.from with a mapping function took ~0.1 s of the event loop for a million rows.
  const run = (start: number, count: number) => {
    const places = new Int32Array(count);
    for (let i = 0; i < count; i++) places[i] = start + i;
    return places;
  };
  const rows = run(block.rows.start, block.rows.count);
  const columns = run(block.columns.start, block.columns.count);
  let sorted: Int32Array | undefined;
  for (const step of through) {
    if (step.type === 'rows_sort') {
      const inverse = inverseOrder(step.order);
      sorted ??= new Int32Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        if (rows[i] < 0 || rows[i] >= inverse.length) continue;
        sorted[i] += inverse[rows[i]] - rows[i];
        rows[i] = inverse[rows[i]];
      }
      continue;
    }
    const [places, max] = isRowStructure(step.type) ? [rows, SHEET_MAX_ROWS] : [columns, SHEET_MAX_COLUMNS];
    for (let i = 0; i < places.length; i++) {
      if (places[i] < 0) continue;
      const moved = transformIndex(places[i], step);
      places[i] = moved === null || moved >= max ? -1 : moved;
    }
  }
  return sorted ? { rows, columns, sorted } : { rows, columns };
}

/** The smallest and largest place left (-1s skipped) as a span, or null when none is left. */
export function placesSpan(places: Int32Array): Span | null {
  let low = Infinity;
  let high = -1;
  for (const p of places) {
    if (p < 0) continue;
    if (p < low) low = p;
    if (p > high) high = p;
  }
  return high < 0 ? null : { start: low, count: high - low + 1 };
}
