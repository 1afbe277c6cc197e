import { type RawBuilder, sql } from 'kysely';
import type { CellDelta } from '../sheets/cell-grid.js';
import { foldPacked } from './snapshot-delta.js';
import type { AnyDb } from './versions.tables.js';

/**
 * Every K versions a delta snapshot: the cells changed since the previous snapshot, one old and
 * one new value per cell. It costs what those cells cost, and bounds a rebuild to the delta
 * snapshots between it and its base plus fewer than K ops. A full snapshot (a copy of every
 * chunk written since the previous one) is taken at whole-grid ops (not at a cells_clear: its block is
 * replayed, version-rebuild.ts), and at a delta snapshot when the cells
 * changed since the last full one reach FULL_SNAPSHOT_SHARE of the grid's cells: its cost is
 * then paid by at least that many changed cells, so storage stays proportional to the changed
 * cells however they are scattered, and a rebuild never replays more than about that share of
 * the grid. VERSION_SNAPSHOT_EVERY overrides K (read at each version, so tests can lower it).
 */
export const DEFAULT_SNAPSHOT_EVERY = 1000;
export const snapshotEvery = () => {
  // Only a whole number from 2 to 100,000 is taken; anything else keeps the default.
  const k = Number(process.env.VERSION_SNAPSHOT_EVERY);
  return Number.isInteger(k) && k >= 2 && k <= 100_000 ? k : DEFAULT_SNAPSHOT_EVERY;
};

/**
 * The share of the grid's cells changed since the last full snapshot that makes the next one. A
 * rebuild's time grows with the cells it replays (each in a row it parses and writes again), its
 * storage shrinks as this grows: at 10 % the benchmark's rebuilds (up to about 15,000 cells
 * replayed) took twice as long as at 2 % (median 167 ms on PGlite, max 234 ms), whose full snapshots
 * add about 340 bytes per 3-cell version on a 100,000 × 10 sheet (api/README.md, bench/versions.mjs).
 */
export const FULL_SNAPSHOT_SHARE = 0.02;

/**
 * Called with every op-log row, in its transaction, after the sheet row and its chunks hold the
 * new version: records the version's shape and (when changed) headers, a full snapshot when the
 * op replaced the whole grid, and a delta snapshot when the version is a multiple of snapshotEvery().
 */
export async function recordVersion(
  db: AnyDb,
  sheetId: string,
  version: number,
  wholeGrid: boolean,
  /** More data-modifying CTEs (`name AS (...)`) run in the same statement: the caller's writes of this version that nothing here reads, in one round trip with these. */
  along?: RawBuilder<unknown>,
): Promise<void> {
  // One statement (one round trip) on the hot path of every edit.
  await sql`WITH ${along ? sql`${along}, ` : sql``}s AS (SELECT id, row_count, col_count, headers FROM sheets WHERE id = ${sheetId}::uuid),
      shape AS (INSERT INTO sheet_version_shapes (sheet_id, version, row_count, col_count)
        SELECT id, ${version}::int, row_count, col_count FROM s)
    INSERT INTO sheet_version_headers (sheet_id, version, headers)
    SELECT s.id, ${version}::int, s.headers FROM s
    WHERE s.headers IS DISTINCT FROM (SELECT h.headers FROM sheet_version_headers h
      WHERE h.sheet_id = ${sheetId}::uuid ORDER BY h.version DESC LIMIT 1)`.execute(db);
  if (wholeGrid) await captureSnapshot(db, sheetId, version);
  else if (version % snapshotEvery() === 0) await captureDelta(db, sheetId, version);
}

/**
 * recordVersion for the cell groups of several sheets written in one statement (sheet-store
 * writeCellGroups), as CTEs of it: every version's shape, as given (the row count and width the
 * statement writes to the sheet row, which it cannot read back), and each group's last version's
 * headers when they differ from the last recorded, as recordVersion does. `groups` names a relation
 * of the statement with (id, version, headers): each sheet's last version and its new headers as
 * JSON text (null: unchanged, the sheet row's). No version before a group's last changed its
 * headers (the statement cannot read its own inserts), and none is due a snapshot.
 */
export function groupVersionsRecorded(
  groups: RawBuilder<unknown>,
  shapes: { sheetId: string; version: number; rowCount: number; colCount: number }[],
): RawBuilder<unknown> {
  return sql`shaped AS (INSERT INTO sheet_version_shapes (sheet_id, version, row_count, col_count)
      SELECT * FROM unnest(${shapes.map((v) => v.sheetId)}::uuid[], ${shapes.map((v) => v.version)}::int[], ${shapes.map((v) => v.rowCount)}::int[],
        ${shapes.map((v) => v.colCount)}::int[])),
    headed AS (INSERT INTO sheet_version_headers (sheet_id, version, headers)
      SELECT g.id, g.version, coalesce(g.headers::jsonb, s.headers) FROM ${groups} g JOIN sheets s ON s.id = g.id
      WHERE coalesce(g.headers::jsonb, s.headers) IS DISTINCT FROM (SELECT h.headers FROM sheet_version_headers h
        WHERE h.sheet_id = g.id ORDER BY h.version DESC LIMIT 1))`;
}

/**
 * The delta snapshot of `version`: the ops since the previous snapshot (delta or full) or the last
 * cells_clear, whichever is latest, folded per cell (a clear logs no old values, so no fold spans
 * one: a forward rebuild replays the op log up to it, then the delta from it, snapshot-delta.ts
 * forwardChain); then a full snapshot too when enough cells changed since the last one (see above).
 */
export async function captureDelta(db: AnyDb, sheetId: string, version: number): Promise<void> {
  const { rows } = await sql<{ prev_delta: number | null; prev_full: number | null; prev_clear: number | null; since_full: number; grid_cells: number }>`SELECT
      (SELECT max(version) FROM sheet_snapshot_deltas WHERE sheet_id = ${sheetId}::uuid AND version < ${version}::int) AS prev_delta,
      (SELECT max(version) FROM sheet_snapshots WHERE sheet_id = ${sheetId}::uuid AND version < ${version}::int) AS prev_full,
      (SELECT max(version) FROM sheet_ops WHERE sheet_id = ${sheetId}::uuid AND kind = 'cells_clear' AND version <= ${version}::int) AS prev_clear,
      (SELECT coalesce(sum(d.cells), 0)::int FROM sheet_snapshot_deltas d WHERE d.sheet_id = ${sheetId}::uuid
        AND d.version > coalesce((SELECT max(version) FROM sheet_snapshots WHERE sheet_id = ${sheetId}::uuid), 0)) AS since_full,
      (SELECT row_count::float8 * col_count FROM sheets WHERE id = ${sheetId}::uuid) AS grid_cells`.execute(db);
  const r = rows[0];
  const start = Math.max(r?.prev_delta ?? 0, r?.prev_full ?? 0);
  // No snapshot to start from (cannot happen past the versions migration): a full one is always right.
  if (start === 0) return captureSnapshot(db, sheetId, version);
  const from = Math.max(start, r.prev_clear ?? 0);
  // This version is a clear: nothing after it to fold yet.
  if (from >= version) return;
  const { rows: ops } = await sql<{ changes: string | null }>`SELECT changes::text AS changes FROM sheet_ops
    WHERE sheet_id = ${sheetId}::uuid AND version > ${from}::int AND version <= ${version}::int ORDER BY version`.execute(db);
  // A whole-grid op always has a full snapshot (and a clear starts the fold), so `from` is at or after it; kept as a guard.
  if (ops.some((o) => o.changes === null)) return captureSnapshot(db, sheetId, version);
  const cells = foldPacked(ops.map((o) => JSON.parse(o.changes!) as CellDelta[]));
  await sql`INSERT INTO sheet_snapshot_deltas (sheet_id, version, from_version, cells, changes)
    VALUES (${sheetId}::uuid, ${version}::int, ${from}::int, ${cells.length}::int, ${JSON.stringify(cells)}::json)`.execute(db);
  if (r.since_full + cells.length >= Math.max(1, FULL_SNAPSHOT_SHARE * r.grid_cells)) await captureSnapshot(db, sheetId, version);
}

/**
 * Chunks a full snapshot copies per statement. PGlite runs in the api's thread: the copy of a sort of
 * 1,000,000 rows (about 2,000 chunks rewritten) in one statement held the event loop ~0.9 s, every
 * other sheet's live ops waiting (issue 23). Statements of this many chunks (about 25,000 rows),
 * with other work let in between, in the same transaction, copy the same rows.
 */
export const SNAPSHOT_COPY_CHUNKS = 50;

/**
 * The snapshot of `version`: its layout (the chunk ids and sizes in row order), and a copy, made
 * inside the database, of each chunk written since the previous snapshot (by `sheet_chunks.version`):
 * the others are unchanged since, so that snapshot's copy (the newest one of the id up to it) is theirs.
 * A row inserted at the top of a 100,000-row sheet thus copies one chunk, not 200.
 */
export async function captureSnapshot(db: AnyDb, sheetId: string, version: number, batch = SNAPSHOT_COPY_CHUNKS): Promise<void> {
  const prev = await sql<{ version: number }>`SELECT version FROM sheet_snapshots
    WHERE sheet_id = ${sheetId}::uuid AND version < ${version}::int ORDER BY version DESC LIMIT 1`.execute(db);
  const since = prev.rows[0]?.version ?? 0;
  // `written`: the version the text is of (column ops after it still apply: sheet-store.ts pendingColumnOps).
  // `batch` (SNAPSHOT_COPY_CHUNKS) chunks per statement, in chunk order, the event loop let go between (see there).
  for (let after = -1; ; ) {
    const { rows: copied } = await sql<{ chunk: number }>`INSERT INTO sheet_snapshot_chunks (sheet_id, chunk, version, rows, written)
      SELECT c.sheet_id, c.chunk, ${version}::int, c.rows, c.version FROM sheet_chunks c
      WHERE c.sheet_id = ${sheetId}::uuid AND c.version > ${since}::int AND c.chunk > ${after}::int
      ORDER BY c.chunk LIMIT ${batch}::int RETURNING chunk`.execute(db);
    if (copied.length < batch) break;
    after = Math.max(...copied.map((c) => c.chunk));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sql`INSERT INTO sheet_snapshots (sheet_id, version, chunk_count, layout)
    SELECT ${sheetId}::uuid, ${version}::int, count(*)::int, coalesce(json_agg(json_build_array(chunk, n) ORDER BY ord), '[]'::json)
    FROM sheet_chunks WHERE sheet_id = ${sheetId}::uuid`.execute(db);
}
