import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The live socket's operations in the op log (issue 4): `op_id`, the id the client gave the
 * operation, so that an operation re-sent after a reconnect is acknowledged again instead of
 * applied twice (unique per sheet, so it holds across restarts and api processes); `op`, a
 * structural operation's own description ({type, index, count}), so that a reconnecting client
 * gets it replayed rather than a whole-sheet sync.
 */
export const sheetOpIdsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('sheet_ops')
      .addColumn('op_id', 'text')
      .addColumn('op', 'json')
      .execute();
    await sql`CREATE UNIQUE INDEX sheet_ops_op_id_key ON sheet_ops (sheet_id, op_id) WHERE op_id IS NOT NULL`.execute(db);
  },
};
