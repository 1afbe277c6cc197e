import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Versions (issue 6): what the op log (sheet_ops) needs so that any version can be rebuilt —
 * shapes and headers per version, full snapshots (at whole-grid ops and every K versions,
 * chunk-deduplicated), labels and discards, and proposals. Existing sheets get a snapshot of
 * their current version, from which older versions are rebuilt backwards with the ops' old values.
 */
export const versionsMigration: Migration = {
  async up(db: Kysely<any>) {
    const sheetFk = (c: any) => c.notNull().references('sheets.id').onDelete('cascade');
    await db.schema
      .createTable('sheet_version_shapes')
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('row_count', 'integer', (c) => c.notNull())
      .addColumn('col_count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_version_shapes_pkey', ['sheet_id', 'version'])
      .execute();
    await db.schema
      .createTable('sheet_version_headers')
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('headers', 'jsonb', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_version_headers_pkey', ['sheet_id', 'version'])
      .execute();
    await db.schema
      .createTable('sheet_snapshots')
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('chunk_count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_snapshots_pkey', ['sheet_id', 'version'])
      .execute();
    await db.schema
      .createTable('sheet_snapshot_chunks')
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('chunk', 'integer', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('rows', 'json', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_snapshot_chunks_pkey', ['sheet_id', 'chunk', 'version'])
      .execute();
    await db.schema
      .createTable('sheet_version_marks')
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('labeled_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('discarded_at', 'timestamptz')
      .addColumn('origin', 'text')
      .addColumn('origin_version_id', 'text')
      .addPrimaryKeyConstraint('sheet_version_marks_pkey', ['sheet_id', 'version'])
      .execute();
    await db.schema
      .createTable('sheet_proposals')
      .addColumn('id', 'uuid', (c) => c.primaryKey())
      .addColumn('sheet_id', 'uuid', sheetFk)
      .addColumn('base_version', 'integer', (c) => c.notNull())
      .addColumn('author', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('headers', 'jsonb', (c) => c.notNull())
      .addColumn('rows', 'json', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('result_version', 'integer')
      .execute();
    await db.schema.createIndex('sheet_proposals_sheet_idx').on('sheet_proposals').columns(['sheet_id', 'state']).execute();

    // Sheets made before this migration: their current version becomes a rebuild base.
    await sql`INSERT INTO sheet_version_shapes SELECT id, version, row_count, col_count FROM sheets`.execute(db);
    await sql`INSERT INTO sheet_version_headers SELECT id, version, headers FROM sheets`.execute(db);
    await sql`INSERT INTO sheet_snapshots SELECT s.id, s.version, (SELECT count(*) FROM sheet_chunks c WHERE c.sheet_id = s.id) FROM sheets s`.execute(db);
    await sql`INSERT INTO sheet_snapshot_chunks SELECT c.sheet_id, c.chunk, s.version, c.rows FROM sheet_chunks c JOIN sheets s ON s.id = c.sheet_id`.execute(db);
  },
};
