// What versions keep of a whole-column Delete and a sort of a large sheet (issue 23): a ROWS × 10
// sheet imported (CSV through POST /api/v1/import), column C cleared whole over a live socket (a
// cells_clear), then the rows sorted by column B. Prints for each: send → ack, the longest answer
// meanwhile of a 404 (the api's event loop held) and of /health (the database held); the clear's
// version and the one before it previewed; then Ctrl+Z of the clear after the sort (a
// cells_clear_undo: column C put back where the sort took its rows) and of a clear of column D
// right after it, each with the api's resident size before and its peak during it; then, the api
// stopped, the bytes of chunk copies each version stored (sheet_snapshot_chunks, rows as text) and the
// versions tables' size on disk, with the load average. The built api on PGlite (bench/support/built-api.mjs);
// BENCH_API_ROOT: another build of the api to compare (A/B). Argument 1: the rows (default 300,000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSession, requireFromApi, withBuiltApi } from './support/built-api.mjs';
import { importCsv } from './support/import-csv.mjs';
import { askWhile, timedOperation, timedSort } from './support/sort-step.mjs';

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (bytes) => `${(Number(bytes) / 1024 / 1024).toFixed(1)} MB`;
const rows = Number(process.argv[2] ?? 300_000);
if (!Number.isInteger(rows) || rows < 1 || rows > 1_000_000) throw new Error('rows: 1 to 1,000,000');
const columns = 10;

function csv() {
  const parts = [`${Array.from({ length: columns }, (_, c) => String.fromCharCode(97 + c)).join(',')}\n`];
  for (let r = 0; r < rows; r++) {
    const cells = [r, `b${r}`];
    for (let c = 2; c < columns; c++) cells.push((r % 100) + c);
    parts.push(`${cells.join(',')}\n`);
  }
  return parts.join('');
}

const line = (what, f) => `${what}: send → ack ${s(f.ms)}; longest answer meanwhile: event loop (a 404) ${f.longestLoopMs.toFixed(0)} ms, /health ${f.longestHealthMs.toFixed(0)} ms; api CPU ${s(f.apiCpuMs)}  load ${load()}`;

await withBuiltApi('pglite', {}, async ({ base, pid, dataDir, stop }) => {
  const { auth } = await benchSession(base);
  const token = auth.authorization.slice('Bearer '.length);
  const label = `${rows.toLocaleString('en')} × ${columns}`;
  const { id, ms } = await importCsv(base, token, label, csv());
  console.log(`imported ${label} in ${s(ms)}  load ${load()}`);
  const clear = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'cells_clear', rows: { start: 0, count: rows }, columns: { start: 2, count: 1 } } });
  console.log(line(`whole column C cleared (${label})`, clear));
  const sort = await timedSort({ apiBase: base, token, sheetId: id, column: 1, direction: 'asc', apiPid: pid });
  console.log(line(`sorted by B (${label})`, sort));
  // The cost moved from storage to reading: the clear's version previewed (rebuilt whole once, then windows read from it).
  for (const [what, v] of [['the clear\'s version', clear.version], ['the version before it', clear.version - 1]]) {
    const asking = askWhile(base);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/sheets/${id}/versions/${v}/rows?start=${rows - 100}&count=100&summary=1`, { headers: auth });
    const window = await res.json();
    const took = performance.now() - t0;
    // The whole version is rebuilt behind the first window, a batch at a time (version-rows.ts): asked on meanwhile.
    await new Promise((r) => setTimeout(r, 4000));
    const longest = await asking.stop();
    const right = res.ok && window.data.length === 100 && window.data.every((r) => (v === clear.version ? r[2] === null : r[2] !== null));
    console.log(`preview of ${what} (v${v}), its last 100 rows: ${s(took)}; event loop ${longest.loop.toFixed(0)} ms, /health ${longest.db.toFixed(0)} ms at most in the 4 s after the ask (its rebuild behind); column C ${right ? 'as it was' : 'WRONG'}  load ${load()}`);
  }
  const top = await (await fetch(`${base}/api/v1/sheets/${id}/rows?start=0&count=2`, { headers: auth })).json();
  const ok = JSON.stringify(top.data.map((r) => [r[1], r[2]])) === JSON.stringify([['b0', null], ['b1', null]]);
  // Ctrl+Z of the clear after the sort: the server reads column C of the version before the clear a window at a time and puts each cell where the sort took its row.
  // The api's peak resident size reset first (Linux: clear_refs 5), so the peak read after is the undo's own (and its socket's).
  const resident = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  let reset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const residentBefore = resident();
  const undo = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'cells_clear_undo', undo: clear.version } });
  console.log(
    `${line(`Ctrl+Z of the clear after the sort (cells_clear_undo, ${label})`, undo)}; api resident ${mb(residentBefore)} before, peak ${mb(undo.apiPeakKb)} ${reset ? 'during it' : 'so far (the import included: peak not resettable here)'}`,
  );
  // The path without a sort between: column D cleared and undone at once (rows in order: a window's cells held at a time).
  const clearD = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'cells_clear', rows: { start: 0, count: rows }, columns: { start: 3, count: 1 } } });
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {}
  const residentD = resident();
  const undoD = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'cells_clear_undo', undo: clearD.version } });
  console.log(`${line(`Ctrl+Z of a clear of column D right after it (${label})`, undoD)}; api resident ${mb(residentD)} before, peak ${mb(undoD.apiPeakKb)} ${reset ? 'during it' : 'so far'}`);
  // Sorted by B as text (b0, b1, b10, b100, ...): row r holds C = r % 100 + 2 and D = r % 100 + 3 again.
  const back3 = await (await fetch(`${base}/api/v1/sheets/${id}/rows?start=0&count=1000&col_start=1&col_count=3`, { headers: auth })).json();
  const undone = back3.data.length === Math.min(1000, rows) && back3.data.every((r) => Number(r[1]) === (Number(String(r[0]).slice(1)) % 100) + 2 && Number(r[2]) === (Number(String(r[0]).slice(1)) % 100) + 3);
  await stop();
  const { PGlite } = await import(pathToFileURL(requireFromApi.resolve('@electric-sql/pglite')).href);
  const db = new PGlite(path.join(dataDir, 'api'));
  const at = async (version) =>
    (await db.query(`SELECT count(*)::int AS n, coalesce(sum(octet_length(rows::text)), 0)::bigint AS bytes FROM sheet_snapshot_chunks WHERE sheet_id = $1 AND version = $2`, [id, version])).rows[0];
  const [c, o, u] = [await at(clear.version), await at(sort.version), await at(undo.version)];
  const { rows: size } = await db.query(`SELECT pg_total_relation_size('sheet_snapshot_chunks')::bigint AS chunks, pg_total_relation_size('sheet_ops')::bigint AS ops`);
  console.log(
    `versions stored: at the clear ${c.n} chunk copies, ${mb(c.bytes)} of text; at the sort ${o.n} copies, ${mb(o.bytes)}; at the undo ${u.n} copies, ${mb(u.bytes)}; sheet_snapshot_chunks ${mb(size[0].chunks)} on disk, sheet_ops ${mb(size[0].ops)}; rows ${ok ? 'sorted, C empty' : 'WRONG'}, then ${undone ? 'C and D put back' : 'C or D WRONG after the undos'}`,
  );
  await db.close();
});
