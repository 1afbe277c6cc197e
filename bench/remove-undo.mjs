// Ctrl+Z of a whole column removed from a large sheet, done by the server: a ROWS × 10 sheet
// imported (CSV through POST /api/v1/import), column C removed over a live socket (a
// columns_remove), then put back by a columns_insert {undo} (the api fills the new column with the
// cells of the version before the remove: SheetsService.applyStructure). Prints for each: send →
// ack, the longest answer meanwhile of a 404 (the api's event loop held) and of /health (the
// database held), the api's resident size before and its peak during the undo, whether column C
// is back, and the chunk copies the undo's snapshot stored, with the load average. The built api
// on PGlite (bench/support/built-api.mjs; BENCH_API_PORT: its port). Argument 1: the rows (default 1,000,000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSession, requireFromApi, withBuiltApi } from './support/built-api.mjs';
import { importCsv } from './support/import-csv.mjs';
import { timedOperation } from './support/sort-step.mjs';

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (bytes) => `${(Number(bytes) / 1024 / 1024).toFixed(1)} MB`;
const rows = Number(process.argv[2] ?? 1_000_000);
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
  const remove = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'columns_remove', index: 2, count: 1 } });
  console.log(line(`column C removed (${label})`, remove));
  // The api's peak resident size reset first (Linux: clear_refs 5), so the peak read after is the undo's own.
  const resident = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  let reset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const residentBefore = resident();
  const undo = await timedOperation({ apiBase: base, token, sheetId: id, apiPid: pid, operation: { type: 'columns_insert', index: 2, count: 1, undo: remove.version } });
  console.log(
    `${line(`Ctrl+Z of the remove (columns_insert with undo, ${label})`, undo)}; api resident ${mb(residentBefore)} before, peak ${mb(undo.apiPeakKb)} ${reset ? 'during it' : 'so far (the import included)'}`,
  );
  // Row r holds C = r % 100 + 2 again; the first and last 1,000 rows read.
  const back = async (start) => (await (await fetch(`${base}/api/v1/sheets/${id}/rows?start=${start}&count=1000&col_start=0&col_count=4`, { headers: auth })).json()).data;
  const undone =
    (await back(0)).every((r) => Number(r[2]) === (Number(r[0]) % 100) + 2 && Number(r[3]) === (Number(r[0]) % 100) + 3) &&
    (await back(Math.max(0, rows - 1000))).every((r) => Number(r[2]) === (Number(r[0]) % 100) + 2);
  await stop();
  const { PGlite } = await import(pathToFileURL(requireFromApi.resolve('@electric-sql/pglite')).href);
  const db = new PGlite(path.join(dataDir, 'api'));
  const { rows: copied } = await db.query(`SELECT count(*)::int AS n, coalesce(sum(octet_length(rows::text)), 0)::bigint AS bytes FROM sheet_snapshot_chunks WHERE sheet_id = $1 AND version = $2`, [id, undo.version]);
  console.log(`the undo's snapshot: ${copied[0].n} chunk copies, ${mb(copied[0].bytes)} of text; column C ${undone ? 'back on every row read' : 'WRONG'}  load ${load()}`);
  await db.close();
});
