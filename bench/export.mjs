// Figures of issue #17 §1/§4 (export): time and the api's peak RSS while it exports a
// 100,000 × 10 sheet as CSV and as XLSX, and a sparse sheet (one far cell) as CSV.
// Runs the built api (node api/dist/index.js) in a child process on PGlite (or PostgreSQL with
// BENCH_PG_URL). The peak is the kernel's high-water mark of the api process (VmHWM), reset
// just before each export (`5` written to /proc/PID/clear_refs), minus nothing: it is the
// process's whole resident size at its highest during the export.
import fs from 'node:fs';
import { benchSession, median, ms, withBuiltApi } from './support/built-api.mjs';

const status = (pid) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (text, key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)[1]);
const mb = (k) => `${(k / 1024).toFixed(0)} MB`;

async function measure(pid, url, auth) {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = kb(status(pid), 'VmRSS');
  const t0 = performance.now();
  const res = await fetch(url, { headers: auth });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const bytes = (await res.arrayBuffer()).byteLength;
  const time = performance.now() - t0;
  return { time, bytes, before, peak: kb(status(pid), 'VmHWM') };
}

async function run(kind) {
  await withBuiltApi(kind, {}, async ({ base, pid }) => {
    const { auth, json } = await benchSession(base);
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
      return;
    }
    for (const format of ['csv', 'xlsx']) {
      const r = await measure(pid, `${base}/api/v1/sheets/${sparseId}/export?format=${format}`, auth);
      console.log(`${kind}: export of a 10 × 10 sheet with one far cell (99,999, 99) as ${format}: ${ms(r.time)}, ${(r.bytes / 1e3).toFixed(1)} kB; api RSS ${mb(r.before)} before, peak ${mb(r.peak)} (+${mb(r.peak - r.before)})`);
    }
  });
}

if (!process.env.BENCH_SKIP_PGLITE) await run('pglite');
if (process.env.BENCH_PG_URL) await run('postgresql');
