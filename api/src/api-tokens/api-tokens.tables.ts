import type { ColumnType, Selectable } from 'kysely';

/** One row per personal API token (api-tokens.migration.ts); never the token itself. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** The token's lookup id (12 hex), unique. */
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  token_hash: string;
  scope: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: ColumnType<Date, Date, never>;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type ApiTokenRow = Selectable<ApiTokensTable>;
