import type { ColumnType, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** Kysely's view of the tables migrations 0004 and 0006 add (kept here so the versions feature stays in its folder). */
export type VersionTables = {
  /** Row and column count of every version: an op log of cells alone cannot tell an empty row from none. */
  sheet_version_shapes: { sheet_id: string; version: number; row_count: number; col_count: number };
  /** The headers from this version on (one row per version that changed them). */
  sheet_version_headers: { sheet_id: string; version: number; headers: ColumnType<string[], string, string> };
  /** A full snapshot of the grid at this version: its chunks are the newest sheet_snapshot_chunks rows ≤ version. */
  sheet_snapshots: { sheet_id: string; version: number; chunk_count: number; layout: ColumnType<[number, number][], string, string> };
  /** A chunk's rows (by its stable id) as of `version`, written only when it was written since the previous snapshot. */
  sheet_snapshot_chunks: {
    sheet_id: string;
    chunk: number;
    version: number;
    rows: ColumnType<string, string, string>;
    /** The version `rows` is the text of (column ops after it apply: sheet-store.ts pendingColumnOps); null: `version` (copies older than migration 0013). */
    written: ColumnType<number | null, number | null | undefined, number | null>;
  };
  /** The cells changed in (from_version, version], one [row, col, old, new] per cell (migration 0006). */
  sheet_snapshot_deltas: { sheet_id: string; version: number; from_version: number; cells: number; changes: ColumnType<string, string, string> };
  /** Names (never pruned) and discards (hidden from the history, kept in the op log) of committed versions. */
  sheet_version_marks: {
    sheet_id: string;
    version: number;
    label: string | null;
    labeled_by: string | null;
    discarded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    /** How a version made by this feature came about (accept, checkout, restore) and from which version id. */
    origin: ColumnType<string | null, string | null | undefined, string | null>;
    origin_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  };
  sheet_proposals: {
    id: string;
    sheet_id: string;
    base_version: number;
    author: string | null;
    created_at: ColumnType<Date, Date | undefined, never>;
    headers: ColumnType<string[], string, string>;
    rows: ColumnType<string, string, never>;
    /** proposed, then accepted (result_version set) or discarded. */
    state: string;
    result_version: number | null;
  };
};

export type VersionsDb = Kysely<Database & VersionTables>;
export type VersionsTrx = Transaction<Database & VersionTables>;
/** Any connection or transaction of the api's database, with or without the versions tables in its type. */
export type AnyDb = Kysely<any>;

/** The same connection, typed with the versions tables too. */
export const withVersionTables = (db: AnyDb): VersionsDb => (db as Kysely<Database>).withTables<VersionTables>();
