import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Columns inserted or removed without rewriting every chunk (issue 23: on 100,000 × 26 a column
 * op wrote 31 MB of chunk text back, seconds). A chunk's text is as of the version that wrote it
 * (`sheet_chunks.version`); the column ops after it apply when it is read (sheet-store.ts
 * pendingColumnOps). The partial index finds a sheet's column ops after a version with one index
 * probe (most sheets have none). A snapshot's copy of a chunk records the version its text is of
 * (`written`); copies made before this migration are as of their own version (every column op
 * rewrote every chunk then), so `written` stays null for them and means `version`: no table rewrite.
 */
export const columnOpsMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`CREATE INDEX sheet_ops_column_ops_idx ON sheet_ops (sheet_id, version) WHERE kind IN ('columns_insert', 'columns_remove')`.execute(db);
    await sql`ALTER TABLE sheet_snapshot_chunks ADD COLUMN written integer`.execute(db);
  },
};
