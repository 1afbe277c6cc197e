// Figures of issue #17 §1/§4 (export): time and the api's peak RSS while it exports a
// 100,000 × 10 sheet as CSV and as XLSX, and a sparse sheet (one far cell) as CSV; then XLSX of
// sheets with a formula column (=SUM(Bn:Dn)), 100,000 × 10 and 236,000 × 11 (2,596,000 held
// cells: just within the grid's bound, HYBRID_MAX_CELLS), and whether the file caches their values.
// BENCH_EXPORT_ONLY=formulas runs only those; BENCH_API_ROOT runs another build (see support/built-api.mjs).
// Runs the built api (node api/dist/index.js) in a child process on PGlite (or PostgreSQL with
// BENCH_PG_URL). The peak is the kernel's high-water mark of the api process (VmHWM), reset
// just before each export (`5` written to /proc/PID/clear_refs), minus nothing: it is the
// process's whole resident size at its highest during the export.
import fs from 'node:fs';
import { benchSession, median, ms, requireFromApi, withBuiltApi } from './support/built-api.mjs';

const XLSX = requireFromApi('xlsx');

const status = (pid) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (text, key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)[1]);
const mb = (k) => `${(k / 1024).toFixed(0)} MB`;

async function measure(pid, url, auth) {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = kb(status(pid), 'VmRSS');
  const t0 = performance.now();
  const res = await fetch(url, { headers: auth });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const body = await res.arrayBuffer();
  const time = performance.now() - t0;
  return { time, bytes: body.byteLength, body, before, peak: kb(status(pid), 'VmHWM') };
}

const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** XLSX of sheets with a formula column: time, the api's peak RSS, and the first and last formula's cached value. */
async function formulaSheets(kind, base, pid, auth, json) {
  for (const [rows, columns] of [
    [100_000, 10],
    [236_000, 11],
  ]) {
    // Text and numbers as in the sheet above; the last column sums the row's B:D.
    const data = Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => (c === columns - 1 ? `=SUM(B${r + 1}:D${r + 1})` : c % 2 ? r * 10 + c : `r${r}c${c}`)));
    const created = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Formulas', data }) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { id } = await created.json();
    const load = loadAverage();
    const r = await measure(pid, `${base}/api/v1/sheets/${id}/export?format=xlsx`, auth);
    const ws = XLSX.read(Buffer.from(r.body), { type: 'buffer', cellFormula: true, sheetStubs: true }).Sheets.Formulas;
    const last = XLSX.utils.encode_cell({ r: rows, c: columns - 1 });
    const cached = (addr) => (ws[addr]?.t === 'z' ? 'none' : ws[addr]?.v);
    console.log(
      `${kind}: export ${rows.toLocaleString('en')} × ${columns} with a formula column as xlsx: ${ms(r.time)}, ${(r.bytes / 1e6).toFixed(1)} MB; api RSS ${mb(r.before)} before, peak ${mb(r.peak)} (+${mb(r.peak - r.before)}); cached values: first ${cached(XLSX.utils.encode_cell({ r: 1, c: columns - 1 }))}, last ${cached(last)}; load average before ${load}, after ${loadAverage()}`,
    );
    await fetch(`${base}/api/v1/sheets/${id}`, { method: 'DELETE', headers: auth });
  }
}

async function run(kind) {
  await withBuiltApi(kind, {}, async ({ base, pid }) => {
    const { auth, json } = await benchSession(base);
    if (process.env.BENCH_EXPORT_ONLY === 'formulas') {
      await formulaSheets(kind, base, pid, auth, json);
      return;
    }
    const data = Array.from({ length: 100_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c % 2 ? r * 10 + c : `r${r}c${c}`)));
    const created = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Big', data }) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { id } = await created.json();
    for (const format of ['csv', 'xlsx', 'json']) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await measure(pid, `${base}/api/v1/sheets/${id}/export?format=${format}`, auth));
      const peak = Math.max(...runs.map((r) => r.peak));
      const before = Math.min(...runs.map((r) => r.before));
      console.log(
        `${kind}: export 100,000 × 10 ${format}: ${ms(median(runs.map((r) => r.time)))} (median of 3), ${(runs[0].bytes / 1e6).toFixed(1)} MB; api RSS ${mb(before)} before, peak ${mb(peak)} (+${mb(peak - before)})`,
      );
    }

    // A sparse sheet: 10 × 10 with one far cell (row 99,999, column 99: 10,000,000 cells, the default cap).
    const sparse = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Sparse', metadata: { rows: 10, columns: 10 } }) });
    const { id: sparseId, version } = await sparse.json();
    const far = await fetch(`${base}/api/v1/sheets/${sparseId}/cells`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ base_version: version, changes: [{ row: 99_999, col: 99, value: 'far' }] }),
    });
    if (far.status !== 200) {
      console.log(`${kind}: sparse sheet: the far cell was refused (${far.status} ${(await far.text()).slice(0, 200)})`);
    } else {
      for (const format of ['csv', 'xlsx']) {
        const r = await measure(pid, `${base}/api/v1/sheets/${sparseId}/export?format=${format}`, auth);
        console.log(`${kind}: export of a 10 × 10 sheet with one far cell (99,999, 99) as ${format}: ${ms(r.time)}, ${(r.bytes / 1e3).toFixed(1)} kB; api RSS ${mb(r.before)} before, peak ${mb(r.peak)} (+${mb(r.peak - r.before)})`);
      }
    }
    await formulaSheets(kind, base, pid, auth, json);
  });
}

if (!process.env.BENCH_SKIP_PGLITE) await run('pglite');
if (process.env.BENCH_PG_URL) await run('postgresql');
