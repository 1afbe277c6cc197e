import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ActivityTable, ItemGrantsTable, TrashEntriesTable } from '../access/access.tables.js';
import type { ApiTokensTable } from '../api-tokens/api-tokens.tables.js';
import type { OidcIdentitiesTable } from '../oidc/oidc.tables.js';

/** Kysely's view of the api's tables (created by ./migrations.ts). */
export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  email: string | null;
  nickname: string | null;
  role: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Raised whenever the user's access tokens must stop working (password changed). */
  token_epoch: ColumnType<number, number | undefined, number>;
}

/** One row per sign-in session: every rotated token of that session shares the family. */
export interface RefreshFamiliesTable {
  id: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  family_id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  /** Set when the token was exchanged for its successor; a second use is a reuse. */
  rotated_at: Date | null;
}

export interface GroupsTable {
  id: string;
  name: string;
  parent_id: string | null;
  description: ColumnType<string, string | undefined, string>;
  position: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The trash entry that took it (with everything under it); null while in place. */
  trashed_in: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A sheet's metadata and counters; its cells are in sheet_chunks. */
export interface SheetsTable {
  id: string;
  name: string;
  group_id: string | null;
  position: ColumnType<number, number | undefined, number>;
  /** Raised by one on every accepted change (DESIGN § Versions). */
  version: number;
  row_count: number;
  col_count: number;
  headers: ColumnType<string[], string, string>;
  description: ColumnType<string, string | undefined, string>;
  tags: ColumnType<string[], string, string>;
  /** Client metadata kept as given (origin, template, lastAIUpdate...). */
  extra: ColumnType<Record<string, unknown>, string, string>;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  trashed_in: ColumnType<string | null, string | null | undefined, string | null>;
  /** The JSON text of its cells, in bytes: kept by the database (migration 0011's triggers); int8 may come as text. */
  byte_size: ColumnType<number | string, never, never>;
  /** Some cell may hold a formula: set by the database when a chunk with one is stored, cleared by a whole-grid save without any (migration 0015). */
  may_have_formulas: ColumnType<boolean, never, boolean>;
  /** The cells the formula engine would be given (contracts heldCells), of the chunks' stored text: kept by the database (migration 0016); int8 may come as text. */
  held_cells: ColumnType<number | string, never, never>;
}

/**
 * Consecutive rows of a sheet, as JSON text of an array of rows (sheets/cell-grid.ts ChunkLayout).
 * `chunk` is the chunk's id, stable for its life; `ord` sorts the chunks in row order; `n` is its
 * row count; `version` the sheet version that last wrote it (snapshots copy only chunks written
 * since the previous one). Migration 0012 added ord, n and version.
 */
export interface SheetChunksTable {
  sheet_id: string;
  chunk: number;
  ord: ColumnType<number, number, number>;
  n: number;
  /** JSON text; written as a string or as its UTF-8 bytes (both drivers send bytes in json's binary form, which is its text). */
  rows: ColumnType<string, string | Uint8Array, string>;
  /** The size of `rows`, set by the database when they are written (migration 0011). */
  bytes: ColumnType<number, never, never>;
  /** The cells of `rows` the formula engine would be given (contracts heldCells): counted by the database when they are written unless an insert gives it (an import counts as it parses; migration 0016). */
  held: ColumnType<number, number | undefined, number>;
  version: number;
}

/** One row per version: what changed ({row, col, old, new} cells), or null for a whole new grid. */
export interface SheetOpsTable {
  sheet_id: string;
  version: number;
  kind: string;
  user_id: string | null;
  changes: ColumnType<string | null, string | null, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface SheetFavoritesTable {
  user_id: string;
  sheet_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface Database {
  users: UsersTable;
  refresh_families: RefreshFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  groups: GroupsTable;
  sheets: SheetsTable;
  sheet_chunks: SheetChunksTable;
  sheet_ops: SheetOpsTable;
  sheet_favorites: SheetFavoritesTable;
  item_grants: ItemGrantsTable;
  trash_entries: TrashEntriesTable;
  activity: ActivityTable;
  api_tokens: ApiTokensTable;
  oidc_identities: OidcIdentitiesTable;
}

export type UserRow = Selectable<UsersTable>;
