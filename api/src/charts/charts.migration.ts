import { type Kysely, type Migration } from 'kysely';

/**
 * Charts (issue 20): the sheet's current charts are in its metadata (`sheets.extra.charts`);
 * this table keeps them per version, one row for each version that changed them (as
 * sheet_version_headers does for headers), so a version's preview shows its charts and a restore
 * brings them back. A version with no row at or before it had no charts.
 */
export const chartsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sheet_version_charts')
      .addColumn('sheet_id', 'uuid', (c) => c.notNull().references('sheets.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('charts', 'jsonb', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_version_charts_pkey', ['sheet_id', 'version'])
      .execute();
  },
};
