import type { ColumnType, Generated, Selectable } from 'kysely';

/** Kysely's view of the api's tables (created by ./migrations.ts). */
export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  email: string | null;
  nickname: string | null;
  role: string;
  created_at: ColumnType<Date, Date | undefined, never>;
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

export interface Database {
  users: UsersTable;
  refresh_families: RefreshFamiliesTable;
  refresh_tokens: RefreshTokensTable;
}

export type UserRow = Selectable<UsersTable>;
