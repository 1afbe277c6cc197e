import type { ClearBlock, SortDirection } from '@tessera/contracts';
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A structural operation as the op log keeps it (the grid change itself is a snapshot: see SheetsService.applyStructure). */
export interface StoredStructureOp {
  type: 'rows_insert' | 'rows_remove' | 'columns_insert' | 'columns_remove';
  index: number;
  count: number;
}

/** Rows sorted (a live rows_sort as applied): the intent and the order it gave, `order[newRow] = oldRow`. */
export interface StoredSortOp {
  type: 'rows_sort';
  column: number;
  direction: SortDirection;
  order: number[];
}

/** A block of cells emptied (a live cells_clear as applied): it moves no position (sheet-ops.transform.ts skips it). */
export interface StoredClearOp extends ClearBlock {
  type: 'cells_clear';
}

/** What the op log's `op` column holds: rows or columns inserted or removed, rows sorted, or a block cleared. */
export type StoredMoveOp = StoredStructureOp | StoredSortOp | StoredClearOp;

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
