import { type Kysely, type Migration } from 'kysely';

/**
 * Delta snapshots (issue 6, storage proportional to the changed cells): every K versions the
 * cells changed since the previous snapshot (delta or full), folded to one old and one new value
 * per cell. Full snapshots copy whole 500-row chunks, so they are now taken only when the cells
 * changed since the last one reach a share of the grid (see version-recorder.ts).
 */
export const snapshotDeltasMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sheet_snapshot_deltas')
      .addColumn('sheet_id', 'uuid', (c) => c.notNull().references('sheets.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('from_version', 'integer', (c) => c.notNull())
      .addColumn('cells', 'integer', (c) => c.notNull())
      // json (text kept as given): [[row, col, old, new], ...]; large ones are compressed by TOAST.
      .addColumn('changes', 'json', (c) => c.notNull())
      .addPrimaryKeyConstraint('sheet_snapshot_deltas_pkey', ['sheet_id', 'version'])
      .execute();
  },
};
