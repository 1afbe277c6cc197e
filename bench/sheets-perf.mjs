// Figures of issue #3 (server side): GET of a 100,000 × 26 sheet, PATCH of one cell on it,
// and import of a 100,000 × 10 CSV (about 10 MB) with its ratio to papaparse alone.
// Runs the built api (node api/dist/index.js) in a child process on 127.0.0.1, on PGlite (the
// default), and also on PostgreSQL when BENCH_PG_URL (an admin URL) is set.
import { median, ms, requireFromApi, withBuiltApi, benchSession } from './support/built-api.mjs';

const Papa = requireFromApi('papaparse');

/** Fastify's own per-request responseTime (ms, measured in the server), by method and URL. */
function withDatabase(kind, fn) {
  const serverTimes = [];
  const urls = new Map();
  const onLogEntry = (entry) => {
    if (entry.req?.url) urls.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
    else if (typeof entry.responseTime === 'number') serverTimes.push({ url: urls.get(entry.reqId) ?? '', time: entry.responseTime });
  };
  return withBuiltApi(kind, { onLogEntry }, ({ base }) => fn(base, serverTimes));
}

async function run(kind) {
  await withDatabase(kind, async (base, serverTimes) => {
    const { auth, json } = await benchSession(base);

    // A 100,000 × 26 sheet of plain values.
    let data = Array.from({ length: 100_000 }, (_, r) => Array.from({ length: 26 }, (_, c) => `r${r}c${c}`));
    let t0 = performance.now();
    const created = await fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Big', data }) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const createMs = performance.now() - t0;
    const { id } = await created.json();
    const postedMb = JSON.stringify(data).length / 1e6;
    data = null; // not kept alive in this process while measuring

    const gets = [];
    const parses = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sheets/${id}`, { headers: auth });
      const text = await res.text();
      gets.push(performance.now() - t0);
      bytes = text.length;
      const t1 = performance.now();
      const sheet = JSON.parse(text);
      parses.push(performance.now() - t1);
      if (sheet.data.length !== 100_000) throw new Error('wrong row count');
    }

    const patches = [];
    let version = 1;
    for (let i = 0; i < 20; i++) {
      const row = Math.floor(Math.random() * 100_000);
      t0 = performance.now();
      const res = await fetch(`${base}/api/v1/sheets/${id}/cells`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ base_version: version, changes: [{ row, col: 3, value: `edit ${i}` }] }),
      });
      const body = await res.json();
      patches.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`patch: ${res.status} ${JSON.stringify(body)}`);
      version = body.version;
    }

    t0 = performance.now();
    const afterEdits = await (await fetch(`${base}/api/v1/sheets/${id}`, { headers: auth })).text();
    const afterEditsMs = performance.now() - t0;
    if (JSON.parse(afterEdits).version !== version) throw new Error('stale read after edits');

    // Import: 100,000 × 10 CSV.
    const lines = ['id,name,city,amount,date,code,flag,note,qty,total'];
    for (let r = 0; r < 100_000; r++) {
      lines.push(`${r},Name ${r},City ${r % 977},${(r * 1.37).toFixed(2)},2024-0${(r % 9) + 1}-1${r % 10},C${r % 313},${r % 2 ? 'yes' : 'no'},"note, ${r}",${r % 50},${(r * 3.1).toFixed(2)}`);
    }
    const csv = `${lines.join('\n')}\n`;
    const papaRuns = [];
    for (let i = 0; i < 3; i++) {
      t0 = performance.now();
      Papa.parse(csv, { delimiter: ',' });
      papaRuns.push(performance.now() - t0);
    }
    const imports = [];
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
      t0 = performance.now();
      const res = await fetch(`${base}/api/v1/import`, { method: 'POST', headers: auth, body: form });
      const body = await res.json();
      imports.push(performance.now() - t0);
      if (res.status !== 201 || body.updated_sheets !== 1) throw new Error(`import: ${res.status} ${JSON.stringify(body)}`);
    }

    const serverGetAll = serverTimes.filter((e) => e.url === `GET /api/v1/sheets/${id}`).map((e) => e.time);
    const serverGet = serverGetAll.slice(1, -1);
    console.log(`[${kind}] create 100,000 × 26 sheet (POST, ${postedMb.toFixed(1)} MB): ${ms(createMs)}`);
    console.log(`[${kind}] GET 100,000 × 26 sheet, first read (from the database): ${ms(gets[0])}; in the server ${ms(serverGetAll[0])}`);
    console.log(`[${kind}] GET 100,000 × 26 sheet (${(bytes / 1e6).toFixed(1)} MB): later reads (grid cache) median ${ms(median(gets.slice(1)))} over ${gets.length - 1} (target ≤ 500 ms); client JSON.parse median ${ms(median(parses))}`);
    const serverPatch = serverTimes.filter((e) => e.url.startsWith('PATCH ') && e.url.endsWith('/cells')).map((e) => e.time);
    console.log(`[${kind}]   later GETs in the server (Fastify responseTime): median ${ms(median(serverGet))}; GET after the 20 edits ${ms(afterEditsMs)} (in the server ${ms(serverGetAll.at(-1))})`);
    console.log(`[${kind}] PATCH one cell of it: in the server median ${ms(median(serverPatch))}, max ${ms(Math.max(...serverPatch))}; round trip median ${ms(median(patches))} over ${patches.length} (target ≤ 50 ms in the server)`);
    console.log(`[${kind}] import 100,000 × 10 CSV (${(csv.length / 1e6).toFixed(1)} MB): median ${ms(median(imports))} over ${imports.length} (target ≤ 3000 ms); papaparse alone median ${ms(median(papaRuns))}; ratio ${(median(imports) / median(papaRuns)).toFixed(1)}×`);
  });
}

await run('pglite');
if (process.env.BENCH_PG_URL) await run('postgresql');
