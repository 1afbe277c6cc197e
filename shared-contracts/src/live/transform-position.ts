import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS, type CellChange } from '../sheets/sheet.schema.js';
import type { LiveOperation, StructureOperationType } from './live.schema.js';
import { clearBlockThrough } from './cells-clear.js';
import { inverseOrder } from './rows-sort.js';

/**
 * Positions through rows and columns inserted or removed (DESIGN.md § Live collaboration):
 * the operational transform of indices that keeps concurrent edits on their cells. Values are
 * not transformed (cells stay last-writer-wins in server order). One definition, used by the
 * api (an operation through the structure ops committed after its `base_version`) and by the
 * client (a remote operation through its own pending ones, and its pending ones through it).
 *
 * Rules, for an operation X through a concurrent structure op S on the same axis:
 * - A cell (or row/column index) at or after an insert moves by its count; one inside a
 *   removed range is gone (the edit is dropped); one after it moves back.
 * - An insert strictly inside a concurrently removed range is dropped, and that removal
 *   grows to take the inserted rows with it (so both orders end the same); an insert at the
 *   first row of the range stays before it, one just after the range stays after it.
 * - A removal through a removal removes what is left of its range (possibly nothing).
 * - Two inserts at the same index: the one the server committed first comes first; `side`
 *   says whether the operation being moved is ordered after S (`'after'`: the server moving a
 *   newer op through a committed one) or before it (`'before'`: a client moving a committed
 *   remote op through its own pending ones, which the server orders after it).
 */

/** Rows or columns inserted or removed: the part of a structure op the transform reads. */
export interface StructureStep {
  type: StructureOperationType;
  index: number;
  count: number;
}

/**
 * Rows sorted (an applied rows_sort): `order[newRow] = oldRow`. A row (and each of its cells) goes
 * where its row went; a row inserted before old row r goes before r's new row (at the end when
 * it was at the end); removed rows still together after the sort are removed there, rows the
 * sort parted cannot be removed as one range (dropped: SORT_TEXTS.rowsSorted). Columns and the
 * sheet's size do not change.
 */
export interface SortStep {
  type: 'rows_sort';
  order: readonly number[];
}

/** What positions move through: rows or columns inserted or removed, or rows sorted. */
export type MoveStep = StructureStep | SortStep;

export type TransformSide = 'after' | 'before';

const isSort = (step: MoveStep): step is SortStep => step.type === 'rows_sort';

/** A row index through a sort: where that row is now (a row past the sorted ones stays). */
export function sortedIndex(index: number, through: SortStep): number {
  return index < through.order.length ? inverseOrder(through.order)[index] : index;
}

export function isStructureType(type: string): type is StructureOperationType {
  return type === 'rows_insert' || type === 'rows_remove' || type === 'columns_insert' || type === 'columns_remove';
}

/** Whether a structure op moves rows (else columns). */
export const isRowStructure = (type: StructureOperationType) => type === 'rows_insert' || type === 'rows_remove';
/** Whether a structure op inserts (else removes). */
export const isInsertStructure = (type: StructureOperationType) => type === 'rows_insert' || type === 'columns_insert';

/** A row index through S when S is on rows, a column index when S is on columns: where it is now, or null when removed. */
export function transformIndex(index: number, through: StructureStep): number | null {
  if (isInsertStructure(through.type)) return index >= through.index ? index + through.count : index;
  if (index < through.index) return index;
  if (index >= through.index + through.count) return index - through.count;
  return null;
}

/** A cell through S: where it is now, or null when its row or column was removed (or it was pushed past the sheet's limit). */
export function transformCell<C extends { row: number; col: number }>(cell: C, through: MoveStep): C | null {
  if (isSort(through)) {
    const row = sortedIndex(cell.row, through);
    return row === cell.row ? cell : { ...cell, row };
  }
  if (isRowStructure(through.type)) {
    const row = transformIndex(cell.row, through);
    if (row === null || row >= SHEET_MAX_ROWS) return null;
    return row === cell.row ? cell : { ...cell, row };
  }
  const col = transformIndex(cell.col, through);
  if (col === null || col >= SHEET_MAX_COLUMNS) return null;
  return col === cell.col ? cell : { ...cell, col };
}

/** A structure op through S (see the rules above): the op as it applies now, or null when nothing of it is left. */
export function transformStructure<T extends StructureStep>(op: T, through: MoveStep, side: TransformSide): T | null {
  if (isSort(through)) return sortStructure(op, through);
  if (isRowStructure(op.type) !== isRowStructure(through.type)) return op;
  const { index, count } = op;
  const end = index + count;
  const sEnd = through.index + through.count;
  let next: { index: number; count: number } | null;
  if (isInsertStructure(op.type)) {
    if (isInsertStructure(through.type)) {
      const shifts = through.index < index || (through.index === index && side === 'after');
      next = { index: shifts ? index + through.count : index, count };
    } else if (index <= through.index) next = { index, count };
    else if (index >= sEnd) next = { index: index - through.count, count };
    else next = null;
  } else if (isInsertStructure(through.type)) {
    if (through.index <= index) next = { index: index + through.count, count };
    else if (through.index >= end) next = { index, count };
    else next = { index, count: count + through.count };
  } else {
    const overlap = Math.max(0, Math.min(end, sEnd) - Math.max(index, through.index));
    const start = index < through.index ? index : index >= sEnd ? index - through.count : through.index;
    next = count - overlap > 0 ? { index: start, count: count - overlap } : null;
  }
  if (next === null) return null;
  const max = isRowStructure(op.type) ? SHEET_MAX_ROWS : SHEET_MAX_COLUMNS;
  if (next.index > max || next.count > max) return null;
  return next.index === index && next.count === count ? op : { ...op, index: next.index, count: next.count };
}

/** Rows inserted or removed through a sort (see SortStep); columns are untouched. */
function sortStructure<T extends StructureStep>(op: T, through: SortStep): T | null {
  if (!isRowStructure(op.type)) return op;
  if (op.type === 'rows_insert') {
    const index = sortedIndex(op.index, through);
    return index === op.index ? op : { ...op, index };
  }
  let low = Infinity;
  let high = -Infinity;
  for (let r = op.index; r < op.index + op.count; r++) {
    const at = sortedIndex(r, through);
    low = Math.min(low, at);
    high = Math.max(high, at);
  }
  // Distinct rows whose new positions span exactly `count` rows are still together.
  if (high - low + 1 !== op.count) return null;
  return low === op.index ? op : { ...op, index: low };
}

/**
 * A sort committed before S, as it applies after S (a client's own rows inserted or removed, not
 * on the server yet, which the server then moves through the sort: sortStructure): inserted rows
 * go right before the new place of the row they were inserted before (at the end when they were
 * at the end); removed rows leave the order. Null when S removes rows the sort parted (the server
 * refuses that removal: what the rows are then is only known from the server).
 */
export function sortThrough(step: SortStep, through: StructureStep): SortStep | null {
  if (!isRowStructure(through.type)) return step;
  const { index, count } = through;
  const { order } = step;
  if (through.type === 'rows_insert') {
    const local = (old: number) => (old < index ? old : old + count);
    const before = index < order.length ? sortedIndex(index, step) : order.length;
    const moved: number[] = [];
    for (let n = 0; n < order.length; n++) {
      if (n === before) for (let k = 0; k < count; k++) moved.push(index + k);
      moved.push(local(order[n]));
    }
    if (before >= order.length) for (let k = 0; k < count; k++) moved.push(index + k);
    return { type: 'rows_sort', order: moved };
  }
  if (transformStructure(through, step, 'after') === null) return null;
  const moved: number[] = [];
  for (const old of order) if (old < index || old >= index + count) moved.push(old < index ? old : old - count);
  return { type: 'rows_sort', order: moved };
}

/** What a live operation becomes through S: the operation (null when nothing of it is left) and how many of its cells were dropped. */
export interface Transformed<T> {
  operation: T | null;
  /** Cells of the operation whose row or column S removed. */
  dropped: number;
}

/** A live operation (cells or structure) through S. */
export function transformOperation<T extends LiveOperation>(op: T, through: MoveStep, side: TransformSide): Transformed<T> {
  if (op.type === 'cell_update') {
    const cell = transformCell({ row: op.position.row, col: op.position.column }, through);
    if (cell === null) return { operation: null, dropped: 1 };
    if (cell.row === op.position.row && cell.col === op.position.column) return { operation: op, dropped: 0 };
    return { operation: { ...op, position: { row: cell.row, column: cell.col } }, dropped: 0 };
  }
  if (op.type === 'cells_update') {
    const { changes, dropped } = transformChanges(op.changes, [through]);
    if (changes.length === 0) return { operation: null, dropped };
    return { operation: changes === op.changes ? op : { ...op, changes }, dropped };
  }
  if (op.type === 'rows_sort') {
    // A sort is an intent: only its column moves (and is gone with its column); rows and other sorts leave it as it is.
    if (isSort(through) || isRowStructure(through.type)) return { operation: op, dropped: 0 };
    const column = transformIndex(op.column, through);
    if (column === null || column >= SHEET_MAX_COLUMNS) return { operation: null, dropped: 0 };
    return { operation: column === op.column ? op : { ...op, column }, dropped: 0 };
  }
  if (op.type === 'cells_clear') {
    // As one operation: moved as the server moves it, committed after `through` (cells-clear.ts; a
    // client moving a remote clear through its own inserts splits it: LiveSheet does that with clearBlocksThrough).
    const blocks = clearBlockThrough(op, through, 'after');
    if (blocks === null || blocks.length === 0) return { operation: null, dropped: 0 };
    const [{ rows, columns }] = blocks;
    return { operation: rows === op.rows && columns === op.columns ? op : { ...op, rows, columns }, dropped: 0 };
  }
  // An undo of a clear names the clear's version: the server moves its cells from there itself (cells-clear.ts clearedPlacesThrough).
  if (op.type === 'cells_clear_undo') return { operation: op, dropped: 0 };
  return { operation: transformStructure(op as T & StructureStep, through, side), dropped: 0 };
}

/** A live operation through several structure ops in order (oldest first). */
export function transformOperationThrough<T extends LiveOperation>(op: T, through: readonly MoveStep[], side: TransformSide): Transformed<T> {
  let operation: T | null = op;
  let dropped = 0;
  for (const s of through) {
    if (operation === null) break;
    const step: Transformed<T> = transformOperation(operation, s, side);
    operation = step.operation;
    dropped += step.dropped;
  }
  return { operation, dropped };
}

/** Cell changes through several structure ops in order: those left (the same array when none moved) and how many were dropped. */
export function transformChanges<C extends CellChange>(changes: C[], through: readonly MoveStep[]): { changes: C[]; dropped: number } {
  if (through.length === 0) return { changes, dropped: 0 };
  let moved = false;
  const kept: C[] = [];
  // Plain index arithmetic per cell (a 10,000-cell paste goes through here): one object only for a cell that moved.
  for (const change of changes) {
    let row: number | null = change.row;
    let col: number | null = change.col;
    for (const s of through) {
      if (isSort(s)) row = sortedIndex(row as number, s);
      else if (isRowStructure(s.type)) {
        row = transformIndex(row, s);
        if (row === null || row >= SHEET_MAX_ROWS) break;
      } else {
        col = transformIndex(col, s);
        if (col === null || col >= SHEET_MAX_COLUMNS) break;
      }
    }
    if (row === null || col === null || row >= SHEET_MAX_ROWS || col >= SHEET_MAX_COLUMNS) {
      moved = true;
      continue;
    }
    if (row === change.row && col === change.col) kept.push(change);
    else {
      moved = true;
      kept.push({ ...change, row, col });
    }
  }
  return { changes: moved ? kept : changes, dropped: changes.length - kept.length };
}

/** The error frame's text when an edit is dropped because its row or column was removed first (the op is named in the frame). */
export const EDIT_DROPPED_TEXT = 'Your edit was not applied: its row or column was removed by someone else first';
/** The same for rows or columns inserted or removed inside a range someone else removed first. */
export const STRUCTURE_DROPPED_TEXT = 'Your rows or columns were not inserted or removed: someone else removed that range first';
/** The text when a whole-sheet change (a restore or a save of the whole grid) came after the version the operation was made on. */
export const SHEET_REPLACED_TEXT = 'Your edit was not applied: the sheet was replaced (a restore or a whole-sheet save) while it was on its way';
