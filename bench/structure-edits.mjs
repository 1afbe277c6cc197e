// Figures of issue 23 (structure edits): one row inserted or removed at the top of a 100,000 × 26
// sheet, and one column inserted or removed at the left, over the live sheet socket. Each is timed from the
// operation frame sent to its ack on loopback with one client (the ack comes after the commit, so
// this is the server's time plus a loopback hop); the median of BENCH_STRUCTURE_REPEATS (7) runs.
// Then checks that the sheet read back, a version from before the edits and the export still say
// what they should (a benchmark of a wrong store is worth nothing). A column op writes no chunk (the
// chunks are caught up in the background): what that catch-up costs is printed too.
//
// Runs the built api (`npm run pnpm -- --filter @tessera/api build`; node api/dist/index.js) in a
// child process on 127.0.0.1, on PGlite (the default), and on PostgreSQL when BENCH_PG_URL (an
// admin URL) is set. BENCH_ONLY=pglite|postgresql runs one. The machine's load average is printed
// beside the figures: other processes on a shared machine slow every figure.
import os from 'node:os';
import { benchSession, median, ms } from './support/built-api.mjs';
import { liveClient } from './support/live-socket.mjs';
import { benchDatabase, startApis } from './support/api-instances.mjs';

const ROWS = 100_000;
const COLS = 26;
const REPEATS = Number(process.env.BENCH_STRUCTURE_REPEATS ?? 7);

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const cell = (r, c) => `r${r}c${c}`;

async function run(kind) {
  const db = kind === 'postgresql' ? await benchDatabase(process.env.BENCH_PG_URL) : null;
  const apis = await startApis({ count: 1, firstPort: 19_000 + (process.pid % 900), env: { DATABASE_URL: db?.url } });
  try {
    const base = apis.bases[0];
    const { auth, json } = await benchSession(base);
    const token = auth.authorization.slice('Bearer '.length);
    let data = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLS }, (_, c) => cell(r, c)));
    const created = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Structure bench', data }) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    data = null;
    const { id, version: v0 } = await created.json();
    const client = await liveClient(base, id, token, v0);

    // Warm-up (first statements of each kind are planned and compiled), then alternating runs so the sheet keeps its size.
    await client.op('rows_insert', 0);
    await client.op('rows_remove', 0);
    const insertRow = [];
    const removeRow = [];
    const insertMiddle = [];
    const insertColumn = [];
    const removeColumn = [];
    for (let i = 0; i < REPEATS; i++) {
      insertRow.push((await client.timed('rows_insert', 0)).time);
      removeRow.push((await client.timed('rows_remove', 0)).time);
      insertMiddle.push((await client.timed('rows_insert', ROWS / 2)).time);
      await client.op('rows_remove', ROWS / 2);
    }
    const loadRows = load();
    for (let i = 0; i < Math.min(REPEATS, 5); i++) {
      insertColumn.push((await client.timed('columns_insert', 0)).time);
      removeColumn.push((await client.timed('columns_remove', 0)).time);
    }
    const loadColumns = load();

    // A column op writes no chunk: the chunks are caught up in the background (api/src/sheets/column-compactor.ts).
    // What that costs: how long it takes (until the api's gauge says no sheet is left and the sheet's
    // size, counted from the stored text, is that of the new columns), one-cell edits typed meanwhile
    // against the same edits on a quiet sheet, and a read of the whole sheet while its chunks are
    // behind against one after.
    const sizeNow = async () => (await (await fetch(`${base}/api/v1/sheets?search=Structure%20bench`, { headers: auth })).json()).sheets[0].metadata.size;
    const catchingUp = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('sheet_column_catch_up_pending'));
      if (!line) throw new Error('no sheet_column_catch_up_pending on /metrics');
      return Number(line.split(' ').pop()) > 0;
    };
    // The JSON export reads every chunk from the store each time (a GET may be served from the api's cache).
    const getTime = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sheets/${id}/export?format=json`, { headers: auth });
      await res.arrayBuffer();
      return performance.now() - t0;
    };
    // The column runs above are caught up first.
    while (await catchingUp()) await new Promise((r) => setTimeout(r, 200));
    const sizeBefore = await sizeNow();
    const getCaughtUp = median([await getTime(), await getTime(), await getTime()]);
    // Same-length values in columns the checks below do not read: the size stays the columns' own.
    let edits = 0;
    const edit = (shift) => {
      const r = (edits * 7_919) % ROWS;
      const c = 10 + (edits++ % 10);
      return client.cell(r, c + shift, `x${cell(r, c).slice(1)}`);
    };
    const quiet = [];
    for (let i = 0; i < 40; i++) quiet.push(await edit(0));
    const t0 = performance.now();
    await client.op('columns_insert', 0);
    const getBehind = await getTime();
    const during = [];
    let caughtUp = null;
    const sizeAfter = sizeBefore + 3 * ROWS; // '"",' more in every row
    const watch = (async () => {
      while (caughtUp === null) {
        if (!(await catchingUp()) && (await sizeNow()) === sizeAfter) caughtUp = performance.now() - t0;
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    while (caughtUp === null) during.push(await edit(1));
    await watch;
    const loadCatchUp = load();
    await client.op('columns_remove', 0);
    const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

    // The content after all that: a row inserted at the top and at 70,000, one removed at 30,000, a column inserted at 3.
    const { version: vBefore } = await client.timed('rows_insert', 0);
    await client.op('rows_insert', 70_001);
    await client.op('rows_remove', 30_001);
    const { version: vAfter } = await client.timed('columns_insert', 3);
    client.close();
    const expected = (r) => {
      // Row r of the final sheet, as the original rows' coordinates.
      if (r === 0 || r === 70_000) return null;
      let o = r - 1;
      if (o >= 30_000) o += 1;
      if (r > 70_000) o -= 1;
      return o;
    };
    const sheet = await (await fetch(`${base}/api/v1/sheets/${id}`, { headers: auth })).json();
    if (sheet.version !== vAfter || sheet.data.length !== ROWS + 1) throw new Error(`read back: version ${sheet.version}, ${sheet.data.length} rows`);
    for (const r of [0, 1, 499, 500, 501, 29_999, 30_000, 30_001, 69_999, 70_000, 70_001, ROWS]) {
      const o = expected(r);
      const want = o === null ? ['', '', '', '', ''] : [cell(o, 0), cell(o, 1), cell(o, 2), '', cell(o, 3)];
      const got = Array.from({ length: 5 }, (_, c) => sheet.data[r][c] ?? '');
      if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`row ${r}: ${JSON.stringify(sheet.data[r].slice(0, 5))}, expected ${JSON.stringify(want)}`);
    }
    const old = await (await fetch(`${base}/api/v1/sheets/${id}/versions/${v0}`, { headers: auth })).json();
    if (old.rows.length !== ROWS || old.rows[0][0] !== cell(0, 0) || old.rows[ROWS - 1][COLS - 1] !== cell(ROWS - 1, COLS - 1)) {
      throw new Error('version 1 does not rebuild to the created grid');
    }
    const atBefore = await (await fetch(`${base}/api/v1/sheets/${id}/versions/${vBefore}`, { headers: auth })).json();
    if (atBefore.rows[1][0] !== cell(0, 0) || atBefore.rows.length !== ROWS + 1) throw new Error('a version after an insert does not rebuild');
    const csv = await (await fetch(`${base}/api/v1/sheets/${id}/export?format=csv`, { headers: auth })).text();
    const lines = csv.trimEnd().split(/\r?\n/);
    if (lines.length !== ROWS + 2 || !lines[2].startsWith(`${cell(0, 0)},${cell(0, 1)},${cell(0, 2)},,`)) throw new Error('export does not match the sheet');

    console.log(`[${kind}] ${ROWS.toLocaleString('en')} × ${COLS} sheet, send → ack over the live socket (one client, loopback), median of ${REPEATS}:`);
    console.log(`[${kind}]   insert 1 row at the top:    ${ms(median(insertRow))} (min ${ms(Math.min(...insertRow))}, max ${ms(Math.max(...insertRow))}) — target ≤ 100 ms`);
    console.log(`[${kind}]   remove 1 row at the top:    ${ms(median(removeRow))} (min ${ms(Math.min(...removeRow))}, max ${ms(Math.max(...removeRow))}) — target ≤ 100 ms`);
    console.log(`[${kind}]   insert 1 row in the middle: ${ms(median(insertMiddle))}`);
    console.log(`[${kind}]   load average during the row runs: ${loadRows}`);
    console.log(`[${kind}]   insert 1 column at the left: ${ms(median(insertColumn))} (min ${ms(Math.min(...insertColumn))}, max ${ms(Math.max(...insertColumn))}, ${insertColumn.length} runs) — target ≤ 500 ms`);
    console.log(`[${kind}]   remove 1 column at the left: ${ms(median(removeColumn))}`);
    console.log(`[${kind}]   load average during the column runs: ${loadColumns}`);
    console.log(`[${kind}]   after a column insert, its chunks caught up in the background in ${ms(caughtUp)} (from the op's send; load average ${loadCatchUp})`);
    console.log(`[${kind}]     one-cell edits meanwhile: median ${ms(median(during))}, p95 ${ms(p95(during))}, max ${ms(Math.max(...during))} (${during.length} edits); on the quiet sheet: median ${ms(median(quiet))}, p95 ${ms(p95(quiet))}, max ${ms(Math.max(...quiet))}`);
    console.log(`[${kind}]     the whole sheet read from the store (JSON export) right after the op, the column pending: ${ms(getBehind)}; caught up: ${ms(getCaughtUp)} (median of 3)`);
    console.log(`[${kind}]   checked: the sheet read back, version ${v0} and ${vBefore} rebuilt, the CSV export`);
  } finally {
    await apis.stop();
    await db?.drop();
  }
}

console.log(`structure edits (issue 23), ${new Date().toISOString()}, ${os.cpus().length} cores, load average ${load()}`);
const only = process.env.BENCH_ONLY;
if (only !== 'postgresql') await run('pglite');
if (process.env.BENCH_PG_URL && only !== 'pglite') await run('postgresql');
