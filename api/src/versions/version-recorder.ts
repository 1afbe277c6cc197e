import { sql } from 'kysely';
import type { AnyDb } from './versions.tables.js';

/**
 * A full snapshot every K versions bounds a rebuild to at most K/2 ops replayed (forwards from
 * the snapshot below or backwards from the one above, whichever is nearer); a rebuild parses only
 * the rows those ops touch. Snapshot chunks are only stored when they differ from the previous
 * snapshot's, so a sheet edited in a few places costs a few chunks per snapshot, not the whole
 * grid. VERSION_SNAPSHOT_EVERY overrides K (read at each version, so tests can lower it).
 */
export const DEFAULT_SNAPSHOT_EVERY = 1000;
export const snapshotEvery = () => {
  // Only a whole number from 2 to 100,000 is taken; anything else keeps the default.
  const k = Number(process.env.VERSION_SNAPSHOT_EVERY);
  return Number.isInteger(k) && k >= 2 && k <= 100_000 ? k : DEFAULT_SNAPSHOT_EVERY;
};

/**
 * Called with every op-log row, in its transaction, after the sheet row and its chunks hold the
 * new version: records the version's shape and (when changed) headers, and a full snapshot when
 * the op replaced the whole grid or the version is a multiple of snapshotEvery().
 */
export async function recordVersion(db: AnyDb, sheetId: string, version: number, wholeGrid: boolean): Promise<void> {
  // One statement (one round trip) on the hot path of every edit.
  await sql`WITH s AS (SELECT id, row_count, col_count, headers FROM sheets WHERE id = ${sheetId}::uuid),
      shape AS (INSERT INTO sheet_version_shapes (sheet_id, version, row_count, col_count)
        SELECT id, ${version}::int, row_count, col_count FROM s)
    INSERT INTO sheet_version_headers (sheet_id, version, headers)
    SELECT s.id, ${version}::int, s.headers FROM s
    WHERE s.headers IS DISTINCT FROM (SELECT h.headers FROM sheet_version_headers h
      WHERE h.sheet_id = ${sheetId}::uuid ORDER BY h.version DESC LIMIT 1)`.execute(db);
  if (wholeGrid || version % snapshotEvery() === 0) await captureSnapshot(db, sheetId, version);
}

/** Copies the sheet's current chunks as the snapshot of `version`, inside the database (no parsing). */
export async function captureSnapshot(db: AnyDb, sheetId: string, version: number): Promise<void> {
  const prev = await sql<{ version: number; chunk_count: number }>`SELECT version, chunk_count FROM sheet_snapshots
    WHERE sheet_id = ${sheetId}::uuid AND version < ${version}::int ORDER BY version DESC LIMIT 1`.execute(db);
  const p = prev.rows[0] ?? { version: 0, chunk_count: 0 };
  await sql`INSERT INTO sheet_snapshot_chunks (sheet_id, chunk, version, rows)
    SELECT c.sheet_id, c.chunk, ${version}::int, c.rows FROM sheet_chunks c
    LEFT JOIN LATERAL (SELECT s.rows FROM sheet_snapshot_chunks s
        WHERE s.sheet_id = c.sheet_id AND s.chunk = c.chunk AND s.version <= ${p.version}::int
        ORDER BY s.version DESC LIMIT 1) prev ON c.chunk < ${p.chunk_count}::int
    WHERE c.sheet_id = ${sheetId}::uuid AND (prev.rows IS NULL OR prev.rows::text <> c.rows::text)`.execute(db);
  await sql`INSERT INTO sheet_snapshots (sheet_id, version, chunk_count)
    SELECT ${sheetId}::uuid, ${version}::int, count(*)::int FROM sheet_chunks WHERE sheet_id = ${sheetId}::uuid`.execute(db);
}
