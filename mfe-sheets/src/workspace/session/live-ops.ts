import {
  chunkChanges,
  type CellChange,
  type ClearBlock,
  type LiveOperation,
  type SheetSize,
  type SortDirection,
  type StructureOperationType,
} from '@tessera/contracts';
import type { StructureChange } from '../grid/SheetGrid.js';

/**
 * The operations the grid's own edits become (spec 01 §3 "Collaboration operation"): one
 * cell is a cell_update, a paste or a range a cells_update (cut into operations the server
 * takes: at most CELL_PATCH_MAX_CHANGES cells and well under the frame limit each), and
 * rows or columns inserted or removed a structure operation.
 */

/**
 * A random operation id. crypto.randomUUID exists only in secure contexts (an http page on
 * a LAN address is not one); getRandomValues exists everywhere.
 */
export function operationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const now = () => new Date().toISOString();

export function cellOperations(changes: readonly CellChange[], userId: string): LiveOperation[] {
  if (changes.length === 1) {
    const [{ row, col, value }] = changes;
    return [{ id: operationId(), type: 'cell_update', position: { row, column: col }, value, user_id: userId, timestamp: now() }];
  }
  // At most CELL_PATCH_MAX_CHANGES cells and under the frame bound each, counted as encoded (JSON escapes included).
  return chunkChanges(changes).map((chunk): LiveOperation => ({ id: operationId(), type: 'cells_update', changes: chunk, user_id: userId, timestamp: now() }));
}

/** A block of cells emptied as one operation (a whole column of a windowed sheet: the server empties every row of it). */
export function clearOperation(block: ClearBlock, userId: string): LiveOperation {
  return { id: operationId(), type: 'cells_clear', rows: block.rows, columns: block.columns, user_id: userId, timestamp: now() };
}

/** The undo of the clear the server applied at `version` (Ctrl+Z of a whole column's Delete: the server puts its cells back). */
export function clearUndoOperation(version: number, userId: string): LiveOperation {
  return { id: operationId(), type: 'cells_clear_undo', undo: version, user_id: userId, timestamp: now() };
}

/**
 * The structure operation of a change in the grid, in the stored grid's terms: the grid
 * shows spare rows and columns beyond the stored size, and changes among those alone are
 * not the sheet's (nothing to send). A removal reaching into them is cut to the stored part.
 * `undo` (an insert's): the version of the remove it undoes, whose cells the server puts in it.
 */
export function structureOperation(change: StructureChange, size: SheetSize, userId: string, undo?: number): LiveOperation | null {
  const stored = change.axis === 'row' ? size.rows : size.cols;
  const { index } = change;
  let type: StructureOperationType;
  let count: number;
  if (change.amount > 0) {
    if (index > stored) return null;
    type = change.axis === 'row' ? 'rows_insert' : 'columns_insert';
    count = change.amount;
  } else {
    count = Math.min(stored, index - change.amount) - index;
    if (count <= 0) return null;
    type = change.axis === 'row' ? 'rows_remove' : 'columns_remove';
  }
  const undoing = undo !== undefined && change.amount > 0 ? { undo } : {};
  return { id: operationId(), type, index, count, ...undoing, user_id: userId, timestamp: now() } as LiveOperation;
}

/** Rows sorted by `column` (the stored grid's): the intent; the server orders the rows it holds and tells everyone the order. */
export function sortOperation(column: number, direction: SortDirection, userId: string, undo?: number): LiveOperation {
  return { id: operationId(), type: 'rows_sort', column, direction, ...(undo === undefined ? {} : { undo }), user_id: userId, timestamp: now() };
}
