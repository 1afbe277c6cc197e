// Figures of issue 23 (import): a 100,000 × 10 CSV (about 8 MB) imported through POST /api/v1/import,
// beside papaparse's raw parse of the same text in this process (the target: ≤ 2× it), and a
// 500,000 × 10 CSV (about 42 MB; the target: ≤ 8 s). Each import is timed from the request sent to
// the answer read, on loopback. Then the stored sheet is read back and compared with the CSV (a
// benchmark of a wrong store is worth nothing).
//
// Runs the built api (`npm run pnpm -- --filter @tessera/api build`; node api/dist/index.js) in a
// child process on 127.0.0.1, on PGlite (the default), and on PostgreSQL when BENCH_PG_URL (an
// admin URL) is set. BENCH_ONLY=pglite|postgresql runs one; BENCH_IMPORT_REPEATS (3) imports of
// each size; BENCH_API_NODE_ARGS passes node flags to the api (e.g. --cpu-prof). The machine's load
// average is printed beside the figures: other processes on a shared machine slow every figure.
// Beside each wall time, CPU time: the api process's (all its threads, from /proc) per import and
// papaparse's in this process — figures that move less with the load of other processes.
// BENCH_IMPORT_LARGE=0 leaves out the 500,000-row file (quicker rounds while working on the 100k figure).
// BENCH_PORT_BASE: the api's port (instead of one picked from the pid), for a machine that gives a
// run a narrow range.
import fs from 'node:fs';
import os from 'node:os';
import { benchSession, median, ms, requireFromApi } from './support/built-api.mjs';
import { benchDatabase, startApis } from './support/api-instances.mjs';

const Papa = requireFromApi('papaparse');
const REPEATS = Number(process.env.BENCH_IMPORT_REPEATS ?? 3);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** The CSV of sheets-perf.mjs (issue 3's figure): 10 columns, a quoted field with a comma in each row. */
function makeCsv(rows) {
  const lines = ['id,name,city,amount,date,code,flag,note,qty,total'];
  for (let r = 0; r < rows; r++) {
    lines.push(`${r},Name ${r},City ${r % 977},${(r * 1.37).toFixed(2)},2024-0${(r % 9) + 1}-1${r % 10},C${r % 313},${r % 2 ? 'yes' : 'no'},"note, ${r}",${r % 50},${(r * 3.1).toFixed(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** CPU time (user + system, ms) of a process so far, all its threads (Linux /proc; clock ticks of 10 ms). */
function cpuOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function papaMedian(csv) {
  const runs = [];
  const cpu = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    Papa.parse(csv, { delimiter: ',' });
    const c = process.cpuUsage(c0);
    runs.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { time: median(runs), cpu: median(cpu) };
}

async function importOnce(base, auth, csv, name, pid) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), `${name}.csv`);
  const c0 = cpuOf(pid);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/import`, { method: 'POST', headers: auth, body: form });
  const body = await res.json();
  const time = performance.now() - t0;
  const cpu = cpuOf(pid) - c0;
  if (res.status !== 201 || body.updated_sheets !== 1) throw new Error(`import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { time, cpu, id: body.sheets[0].id };
}

/** The stored sheet equals the CSV: headers, row count and every cell (the api keeps imported cells as text). */
async function verify(base, auth, id, csv) {
  const res = await fetch(`${base}/api/v1/sheets/${id}`, { headers: auth });
  const sheet = await res.json();
  const rows = Papa.parse(csv, { delimiter: ',', skipEmptyLines: true }).data;
  if (JSON.stringify(sheet.metadata.headers) !== JSON.stringify(rows[0])) throw new Error('stored headers differ from the CSV');
  if (sheet.data.length !== rows.length - 1) throw new Error(`stored ${sheet.data.length} rows, the CSV has ${rows.length - 1}`);
  for (let r = 1; r < rows.length; r++) {
    const stored = sheet.data[r - 1];
    for (let c = 0; c < rows[r].length; c++) {
      if (stored[c] !== rows[r][c]) throw new Error(`row ${r}, column ${c + 1}: stored ${JSON.stringify(stored[c])}, CSV ${JSON.stringify(rows[r][c])}`);
    }
  }
}

async function run(kind, small, large) {
  const db = kind === 'postgresql' ? await benchDatabase(process.env.BENCH_PG_URL) : null;
  const apis = await startApis({ count: 1, firstPort: process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : 19_000 + (process.pid % 900), env: { DATABASE_URL: db?.url } });
  try {
    const base = apis.bases[0];
    const { auth } = await benchSession(base);
    for (const [label, csv, target] of [
      ['100,000 × 10', small, (t, p) => `ratio to papaparse ${(t / p).toFixed(2)}× (target ≤ 2×)`],
      ['500,000 × 10', large, (t, p) => `ratio to papaparse ${(t / p).toFixed(2)}×; target ≤ 8000 ms`],
    ].filter(([, csv]) => csv)) {
      const papa = papaMedian(csv);
      const times = [];
      const cpus = [];
      let id;
      for (let i = 0; i < REPEATS; i++) ({ time: times[i], cpu: cpus[i], id } = await importOnce(base, auth, csv, `bench ${i}`, apis.pids[0]));
      const t = median(times);
      const c = median(cpus);
      console.log(
        `[${kind}] import ${label} CSV (${(csv.length / 1e6).toFixed(1)} MB): median ${ms(t)} over ${times.length} (${times.map((x) => x.toFixed(0)).join(', ')}); papaparse alone median ${ms(papa.time)}; ${target(t, papa.time)}; load ${load()}`,
      );
      console.log(`[${kind}]   CPU: api median ${ms(c)} per import (${cpus.map((x) => x.toFixed(0)).join(', ')}); papaparse ${ms(papa.cpu)}; CPU ratio ${(c / papa.cpu).toFixed(2)}×`);
      await verify(base, auth, id, csv);
    }
    console.log(`[${kind}] stored sheets read back equal to their CSV`);
  } finally {
    await apis.stop();
    await db?.drop();
  }
}

console.log(`import (issue 23), ${new Date().toISOString()}, ${os.cpus().length} cores, load average ${load()}`);
const small = makeCsv(100_000);
const large = process.env.BENCH_IMPORT_LARGE === '0' ? null : makeCsv(500_000);
const only = process.env.BENCH_ONLY;
if (!only || only === 'pglite') await run('pglite', small, large);
if ((!only || only === 'postgresql') && process.env.BENCH_PG_URL) await run('postgresql', small, large);
