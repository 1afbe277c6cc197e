import { type ClearBlock, SORT_ORDER_SENT_MAX_ROWS, type SortDirection, unpackOrder } from '@tessera/contracts';
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A structural operation as the op log keeps it (the grid change itself is a snapshot: see SheetsService.applyStructure). */
export interface StoredStructureOp {
  type: 'rows_insert' | 'rows_remove' | 'columns_insert' | 'columns_remove';
  index: number;
  count: number;
  /** An insert's that undid a remove (contracts live.schema.ts `undo`): the remove's version; its new rows or columns were filled with the cells the remove took (SheetsService.applyStructure). */
  undo?: number;
}

/**
 * Rows sorted (a live rows_sort as applied): the intent and the order it gave, `order[newRow] =
 * oldRow`, packed (contracts order-pack.ts: a 1,000,000-row order is ~3.3 MB of text at worst
 * instead of ~6.9 MB of JSON; a column of few values a few bytes) with its row count. Sorts logged
 * before the packing (at most SORT_ORDER_SENT_MAX_ROWS rows) hold `order` as a JSON array.
 */
export interface StoredSortOp {
  type: 'rows_sort';
  column: number;
  direction: SortDirection;
  /** An undo's: the version of the sort it undid. */
  undo?: number;
  rows?: number;
  packed?: string;
  order?: number[];
}

const unpacked = new WeakMap<StoredSortOp, number[] | null>();

/** A logged sort's order (unpacked once per op object), or null when the log holds none that fits. */
export function storedSortOrder(op: StoredSortOp): number[] | null {
  if (op.order) return op.order;
  let order = unpacked.get(op);
  if (order === undefined) {
    const packed = op.packed !== undefined && op.rows !== undefined ? unpackOrder(op.packed, op.rows) : null;
    order = packed && Array.from(packed);
    unpacked.set(op, order);
  }
  return order;
}

/** How many rows a logged sort ordered. */
export const sortedRows = (op: StoredSortOp): number => op.rows ?? op.order?.length ?? 0;

/** The order an applied sort's frames carry: only up to SORT_ORDER_SENT_MAX_ROWS rows (contracts rows-sort.ts). */
export function sentSortOrder(op: StoredSortOp): { order?: number[] } {
  if (sortedRows(op) > SORT_ORDER_SENT_MAX_ROWS) return {};
  const order = storedSortOrder(op);
  return order ? { order } : {};
}

/** A logged move as the fields of the applied operation frames carry (a sort: its order only when sent, never packed). */
export function appliedMoveFields(op: StoredMoveOp) {
  return op.type === 'rows_sort' ? { type: op.type, column: op.column, direction: op.direction, ...(op.undo ? { undo: op.undo } : {}), ...sentSortOrder(op) } : op;
}

/** A block of cells emptied (a live cells_clear as applied): it moves no position (sheet-ops.transform.ts skips it). */
export interface StoredClearOp extends ClearBlock {
  type: 'cells_clear';
}

/**
 * A clear undone (a live cells_clear_undo as applied): the version of the clear and the block (in the
 * grid as it was after this op) holding the cells put back. Like a clear, it moves no position; its
 * values are not logged (the version has a full snapshot: SheetsService.applyClearUndo).
 */
export interface StoredClearUndoOp extends ClearBlock {
  type: 'cells_clear_undo';
  undo: number;
}

/** What the op log's `op` column holds: rows or columns inserted or removed, rows sorted, a block cleared or a clear undone. */
export type StoredMoveOp = StoredStructureOp | StoredSortOp | StoredClearOp | StoredClearUndoOp;

/** Whether a logged op moves no position (a block cleared, or a clear undone): transforms pass over it. */
export const movesNothing = (op: StoredMoveOp): op is StoredClearOp | StoredClearUndoOp => op.type === 'cells_clear' || op.type === 'cells_clear_undo';

/** Kysely's view of the columns migration 0005 adds to sheet_ops (kept here so the feature stays in its folder). */
export type SheetOpIdTables = {
  sheet_ops: {
    /** The client's operation id (live socket), unique per sheet; null for REST and other changes. */
    op_id: ColumnType<string | null, string | null | undefined, never>;
    /** A structural operation's description; null for cell changes and whole-grid saves. */
    op: ColumnType<string | null, string | null | undefined, never>;
  };
};

/** The same connection, typed with the op-id columns too. */
export const withOpIds = (db: Kysely<Database>): Kysely<Database & SheetOpIdTables> => db.withTables<SheetOpIdTables>();
