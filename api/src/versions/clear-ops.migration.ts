import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A cells_clear is replayed by version rebuilds instead of taking a full snapshot (issue 23: each
 * whole-column Delete of a 1,000,000-row sheet copied the chunks it rewrote). A rebuild asks whether
 * one lies between a version and the snapshot above it, and a delta snapshot where the last one is:
 * the partial index answers each with one probe (most sheets have no clear).
 */
export const clearOpsMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`CREATE INDEX sheet_ops_clear_ops_idx ON sheet_ops (sheet_id, version) WHERE kind = 'cells_clear'`.execute(db);
  },
};
