// Figures of issue 23 for the chat and the Code tab on a windowed sheet (SheetReport.loadData) and
// for the preview of its versions: the api's side of reading a whole 260,000 × 10 sheet (the most
// cells a /hybrid job may carry) and a 1,000,000 × 10 one either as GET /sheets/:id (one answer)
// or as 5,000-row windows of GET /sheets/:id/rows two at a time (what loadData does), each answer
// parsed here as the browser would: wall time, the api's CPU time (less sensitive to the other
// load on the machine), and the largest answer the client holds at once (its memory beside the
// cells). Then a version's windows (GET .../versions/:v/rows): the first, which rebuilds the
// version, and the next ones, served from the rebuilt version kept.
// Runs the built api (`pnpm --filter @tessera/api build`) on PGlite; BENCH_API_PORT picks its port,
// BENCH_ROWS the sizes (comma-separated). The load average is printed with the figures.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { benchSession, median, ms, withBuiltApi } from './support/built-api.mjs';

const SIZES = (process.env.BENCH_ROWS ?? '260000,1000000').split(',').map(Number);
const WINDOW = 5_000;
const READERS = 2;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
/** utime + stime of a process, in ms (Linux /proc, 100 Hz ticks). */
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

function csv(rows) {
  const parts = ['a,b,c,d,e,f,g,h,i,j\n'];
  for (let r = 0; r < rows; r++) {
    const m = r % 100;
    parts.push(`${r},name ${r},${m},${(m + 1) % 100},${(m + 2) % 100},${(m + 3) % 100},${(m + 4) % 100},${(m + 5) % 100},${(m + 6) % 100},${(m + 7) % 100}\n`);
  }
  return parts.join('');
}

await withBuiltApi('pglite', {}, async ({ base, pid }) => {
  const { auth, json } = await benchSession(base);
  const get = async (path) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return { text, body: JSON.parse(text) };
  };
  /** Wall and api CPU time of `fn`, and what it returns. */
  const measured = async (fn) => {
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    const out = await fn();
    return { wall: performance.now() - t0, cpu: cpuMs(pid) - cpu0, out };
  };
  console.log(`load average before: ${load()}`);
  for (const rows of SIZES) {
    const form = new FormData();
    form.append('file', new Blob([csv(rows)], { type: 'text/csv' }), `big-${rows}.csv`);
    form.append('name', `Big ${rows}`);
    const imported = await fetch(`${base}/api/v1/import`, { method: 'POST', body: form, headers: auth });
    if (!imported.ok) throw new Error(`import: ${imported.status} ${await imported.text()}`);
    const id = (await imported.json()).sheets[0].id;
    // One edit: version 2, so that version 1 is an old version to preview.
    const patch = await fetch(`${base}/api/v1/sheets/${id}/cells`, { method: 'PATCH', headers: json, body: JSON.stringify({ base_version: 1, changes: [{ row: rows - 10, col: 1, value: 'edited' }] }) });
    if (!patch.ok) throw new Error(`patch: ${patch.status}`);

    const whole = await measured(async () => {
      const { text, body } = await get(`/api/v1/sheets/${id}`);
      return { largest: text.length, rows: body.data.length };
    });
    const windows = await measured(async () => {
      const starts = Array.from({ length: Math.ceil(rows / WINDOW) }, (_, i) => i * WINDOW);
      let largest = 0;
      let got = 0;
      const reader = async () => {
        for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
          const { text, body } = await get(`/api/v1/sheets/${id}/rows?start=${start}&count=${WINDOW}`);
          largest = Math.max(largest, text.length);
          got += body.data.length;
        }
      };
      await Promise.all(Array.from({ length: READERS }, reader));
      return { largest, rows: got };
    });
    const version = [];
    for (const start of [Math.floor(rows / 2), 0, rows - WINDOW, Math.floor(rows / 3)]) {
      version.push(await measured(() => get(`/api/v1/sheets/${id}/versions/1/rows?start=${start}&count=${WINDOW}`)));
    }
    console.log(`\n${rows.toLocaleString('en')} × 10 (load average ${load()})`);
    console.log(`  whole sheet, GET /sheets/:id:        ${ms(whole.wall)} wall, api CPU ${whole.cpu} ms, one answer of ${mb(whole.out.largest)} (${whole.out.rows} rows)`);
    console.log(`  ${WINDOW}-row windows, ${READERS} at a time:      ${ms(windows.wall)} wall, api CPU ${windows.cpu} ms, largest answer ${mb(windows.out.largest)} (${windows.out.rows} rows)`);
    console.log(`  version 1, first window (rebuild):    ${ms(version[0].wall)} wall, api CPU ${version[0].cpu} ms`);
    console.log(`  version 1, next windows (kept):       median ${ms(median(version.slice(1).map((v) => v.wall)))} wall, api CPU ${median(version.slice(1).map((v) => v.cpu))} ms`);
  }
});
