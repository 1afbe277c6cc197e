import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database } from './schema.js';
import { versionsMigration } from '../versions/versions.migration.js';
import { sheetOpIdsMigration } from '../sheets/sheet-ops.migration.js';
import { snapshotDeltasMigration } from '../versions/snapshot-deltas.migration.js';
import { accessMigration } from '../access/access.migration.js';
import { chartsMigration } from '../charts/charts.migration.js';
import { apiTokensMigration } from '../api-tokens/api-tokens.migration.js';
import { oidcMigration } from '../oidc/oidc.migration.js';
import { byteSizeMigration } from '../sheets/byte-size.migration.js';
import { heldCellsMigration } from '../sheets/held-cells.migration.js';
import { chunkLayoutMigration } from '../sheets/chunk-layout.migration.js';
import { columnOpsMigration } from '../sheets/column-ops.migration.js';
import { clearOpsMigration } from '../versions/clear-ops.migration.js';
import { chunkStorageMigration } from '../sheets/chunk-storage.migration.js';
import { formulaFlagMigration } from '../sheets/formula-flag.migration.js';

/** Migrations live in code (no files to locate at run time); names sort in order of application (exported for the migration tests). */
export const migrations: Record<string, Migration> = {
  '0001_users_and_refresh_tokens': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('nickname', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // Usernames are unique regardless of case ("Alice" and "alice" are one account).
      await sql`CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username))`.execute(db);

      await db.schema
        .createTable('refresh_families')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('revoked_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('refresh_families_user_idx').on('refresh_families').column('user_id').execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('family_id', 'uuid', (c) => c.notNull().references('refresh_families.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('rotated_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
    },
  },
  // Raised on a password change; access tokens carry the epoch they were issued under (claim tep).
  '0002_users_token_epoch': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('token_epoch', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // Sheets and groups (issue #3). Cells live in row chunks (see sheets/sheet-store.ts) so an edit
  // rewrites only the chunks it touches; sheet_ops is the per-version op log later issues build on.
  '0003_sheets_and_groups': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('groups')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'uuid', (c) => c.references('groups.id').onDelete('cascade'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('groups_parent_idx').on('groups').column('parent_id').execute();

      await db.schema
        .createTable('sheets')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('group_id', 'uuid', (c) => c.references('groups.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('row_count', 'integer', (c) => c.notNull())
        .addColumn('col_count', 'integer', (c) => c.notNull())
        .addColumn('headers', 'jsonb', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('tags', 'jsonb', (c) => c.notNull())
        .addColumn('extra', 'jsonb', (c) => c.notNull())
        .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('sheets_group_idx').on('sheets').column('group_id').execute();
      await db.schema.createIndex('sheets_updated_idx').on('sheets').column('updated_at').execute();

      // json, not jsonb: stored and returned as the text given, so reading a large grid costs no conversion.
      await db.schema
        .createTable('sheet_chunks')
        .addColumn('sheet_id', 'uuid', (c) => c.notNull().references('sheets.id').onDelete('cascade'))
        .addColumn('chunk', 'integer', (c) => c.notNull())
        .addColumn('rows', 'json', (c) => c.notNull())
        .addPrimaryKeyConstraint('sheet_chunks_pkey', ['sheet_id', 'chunk'])
        .execute();

      await db.schema
        .createTable('sheet_ops')
        .addColumn('sheet_id', 'uuid', (c) => c.notNull().references('sheets.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('changes', 'json')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('sheet_ops_pkey', ['sheet_id', 'version'])
        .execute();

      await db.schema
        .createTable('sheet_favorites')
        .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('sheet_id', 'uuid', (c) => c.notNull().references('sheets.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('sheet_favorites_pkey', ['user_id', 'sheet_id'])
        .execute();
    },
  },
  '0004_sheet_versions': versionsMigration,
  '0005_sheet_op_ids': sheetOpIdsMigration,
  '0006_sheet_snapshot_deltas': snapshotDeltasMigration,
  '0007_access_trash_activity': accessMigration,
  '0008_sheet_charts': chartsMigration,
  '0009_api_tokens': apiTokensMigration,
  '0010_oidc_identities': oidcMigration,
  '0011_sheet_byte_size': byteSizeMigration,
  '0012_sheet_chunk_layout': chunkLayoutMigration,
  '0013_sheet_column_ops': columnOpsMigration,
  '0014_sheet_chunk_storage': chunkStorageMigration,
  '0015_sheet_formula_flag': formulaFlagMigration,
  '0016_sheet_held_cells': heldCellsMigration,
  '0017_sheet_clear_ops': clearOpsMigration,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws (and so stops the start) when a migration fails. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`, {
      cause: error,
    });
  }
}
