import type { ColumnType } from 'kysely';

/** Which member a provider's (issuer, subject) signs in as (oidc.migration.ts). */
export interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}
