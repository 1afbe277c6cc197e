// Figures of issue 6 (api side): rebuilding any version of a 100,000-row sheet with 10,000 versions
// of history (target ≤ 300 ms), and the bytes stored per version (target: proportional to the changed cells).
// Full snapshots are taken when 2 % of the grid's cells changed since the last one (20,000 cells here: one
// periodic full snapshot in the 10,000 versions), so the bytes per version include their share.
// Runs the built api (`npm run build`, then node api/dist/index.js) in a child
// process on 127.0.0.1, on PGlite (the default), and also on PostgreSQL when BENCH_PG_URL (an
// admin URL) is set (BENCH_PG_ONLY=1: only that one). BENCH_VERSIONS / BENCH_ROWS change the sizes,
// BENCH_EDITS=local edits a drifting 200-row window instead of anywhere.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSession, median, ms, requireFromApi, withBuiltApi } from './support/built-api.mjs';
import { seededRandom } from './support/seeded-random.mjs';

const pg = requireFromApi('pg');

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const COLS = 10;
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 10_000);
/** scattered: each edit anywhere in the sheet (the worst case for snapshots); local: edits in a 200-row window that drifts, as people work. */
const EDITS = process.env.BENCH_EDITS === 'local' ? 'local' : 'scattered';
const max = (xs) => Math.max(...xs);


/** Logical bytes of the versions' rows per table, straight from the database once the api has stopped. */
const STORAGE_SQL = `SELECT 'sheet_ops' AS t, coalesce(sum(pg_column_size(x.*)), 0)::bigint AS bytes, count(*)::int AS n FROM sheet_ops x
  UNION ALL SELECT 'sheet_version_shapes', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_version_shapes x
  UNION ALL SELECT 'sheet_version_headers', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_version_headers x
  UNION ALL SELECT 'sheet_snapshots', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_snapshots x
  UNION ALL SELECT 'sheet_snapshot_chunks (version 1: the created grid)', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_snapshot_chunks x WHERE version = 1
  UNION ALL SELECT 'sheet_snapshot_chunks (periodic)', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_snapshot_chunks x WHERE version > 1
  UNION ALL SELECT 'sheet_snapshot_deltas', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_snapshot_deltas x
  UNION ALL SELECT 'sheet_chunks (the live grid)', coalesce(sum(pg_column_size(x.*)), 0), count(*) FROM sheet_chunks x`;

/** Runs `fn(base, serverTimes)` on the built api; then, with the api stopped, reads the storage per table. */
async function withApi(kind, fn) {
  const serverTimes = new Map();
  const onLogEntry = (entry) => {
    if (typeof entry.responseTime === 'number') serverTimes.set(entry.reqId, entry.responseTime);
  };
  return withBuiltApi(kind, { onLogEntry }, async ({ base, dataDir, databaseUrl, stop }) => {
    await fn(base, serverTimes);
    await stop();
    // Storage, read directly once the api is gone (PGlite allows one process at a time).
    let rows;
    if (databaseUrl) {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      rows = (await c.query(STORAGE_SQL)).rows;
      await c.end();
    } else {
      const { PGlite } = await import(pathToFileURL(requireFromApi.resolve('@electric-sql/pglite')).href);
      const db = new PGlite(path.join(dataDir, 'api'));
      rows = (await db.query(STORAGE_SQL)).rows;
      await db.close();
    }
    return rows.map((r) => ({ table: r.t, bytes: Number(r.bytes), rows: Number(r.n) }));
  });
}

async function run(kind) {
  let figures;
  const storage = await withApi(kind, async (base, serverTimes) => {
    const { auth, json } = await benchSession(base);

    const data = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLS }, (_, c) => `r${r}c${c}`));
    const created = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'History', data }) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { id } = await created.json();

    // History: edits of 1–5 cells anywhere in the sheet, as users make them, one version each.
    const rnd = seededRandom(6);
    const int = (n) => Math.floor(rnd() * n);
    let changedCells = 0;
    let t0 = performance.now();
    for (let version = 1; version < VERSIONS; version++) {
      const window = Math.floor(version / 50) * 97 % (ROWS - 200);
      const row = () => (EDITS === 'local' ? window + int(200) : int(ROWS));
      const changes = Array.from({ length: 1 + int(5) }, () => ({ row: row(), col: int(COLS), value: `v${version}-${int(1000)}` }));
      changedCells += changes.length;
      const res = await fetch(`${base}/api/v1/sheets/${id}/cells`, { method: 'PATCH', headers: json, body: JSON.stringify({ base_version: version, changes }) });
      if (res.status !== 200) throw new Error(`patch: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const historyMs = performance.now() - t0;

    // Rebuilds: the worst places (half-way between full snapshots), the oldest and the newest, and random ones.
    const targets = [1, 2, 50, 150, Math.floor(VERSIONS / 2) + 50, VERSIONS - 50, VERSIONS - 1];
    for (let i = 0; i < 13; i++) targets.push(1 + int(VERSIONS - 1));
    const client = [];
    const server = [];
    for (const v of targets) {
      const reqId = `bench-version-${v}-${client.length}`;
      t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sheets/${id}/versions/${v}`, { headers: { ...auth, 'x-request-id': reqId } });
      const body = await res.text();
      client.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50)); // the log line with the server's time
      if (res.status !== 200) throw new Error(`version ${v}: ${res.status} ${body.slice(0, 200)}`);
      const parsed = JSON.parse(body);
      if (parsed.rows.length !== ROWS) throw new Error(`version ${v}: ${parsed.rows.length} rows`);
      server.push(serverTimes.get(reqId) ?? Number.NaN);
    }
    // The same size read as the live grid (stored text, no rebuild): what a version's reply costs beyond it is the rebuild.
    const liveTimes = [];
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sheets/${id}`, { headers: auth });
      await res.text();
      liveTimes.push(performance.now() - t0);
    }
    t0 = performance.now();
    const snaps = await fetch(`${base}/api/v1/sheets/${id}/snapshots?limit=60`, { headers: auth });
    await snaps.text();
    const snapshotsMs = performance.now() - t0;
    t0 = performance.now();
    const hist = await fetch(`${base}/api/v1/sheets/${id}/history`, { headers: auth });
    await hist.text();
    const historyListMs = performance.now() - t0;
    figures = { historyMs, changedCells, client, server, snapshotsMs, historyListMs, liveTimes };
  });

  const perVersion = (pred) => storage.filter(pred).reduce((s, r) => s + r.bytes, 0) / (VERSIONS - 1);
  console.log(`\n== versions on ${kind}: ${ROWS.toLocaleString()} rows × ${COLS} columns, ${VERSIONS.toLocaleString()} versions, ${EDITS} edits ==`);
  console.log(`history written: ${VERSIONS - 1} PATCHes of 1–5 cells in ${(figures.historyMs / 1000).toFixed(1)} s (${ms(figures.historyMs / (VERSIONS - 1))} each)`);
  console.log(`GET /versions/{v} (${figures.client.length} versions, full grid in the reply): median ${ms(median(figures.client))}, max ${ms(max(figures.client))} at the client; server ${ms(median(figures.server))} median, ${ms(max(figures.server))} max`);
  console.log(`for reference, GET /sheets/{id} (the live grid, same size): median ${ms(median(figures.liveTimes))}`);
  console.log(`GET /snapshots?limit=60: ${ms(figures.snapshotsMs)}; GET /history: ${ms(figures.historyListMs)}`);
  for (const r of storage) console.log(`  ${r.table}: ${r.rows} rows, ${(r.bytes / 1e6).toFixed(2)} MB`);
  const history = (r) => !r.table.startsWith('sheet_chunks') && !r.table.includes('version 1');
  console.log(`bytes per version (history only: op log, shapes, headers, delta and periodic full snapshots): ${perVersion(history).toFixed(0)}`);
  console.log(`  of which the op log: ${perVersion((r) => r.table === 'sheet_ops').toFixed(0)} (${(figures.changedCells / (VERSIONS - 1)).toFixed(1)} changed cells per version); delta snapshots: ${perVersion((r) => r.table === 'sheet_snapshot_deltas').toFixed(0)}; full snapshots: ${perVersion((r) => r.table.includes('periodic') || r.table === 'sheet_snapshots').toFixed(0)}`);
  console.log(`  per changed cell: ${(perVersion(history) * (VERSIONS - 1) / figures.changedCells).toFixed(1)} bytes`);
}

// BENCH_PG_ONLY=1 skips the PGlite run.
if (!process.env.BENCH_PG_ONLY) await run('pglite');
if (process.env.BENCH_PG_URL) await run('postgresql');
