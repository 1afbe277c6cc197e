// Issue 17: an empty sheet sized by its metadata costs what it holds. Creates the two largest
// empty shapes the default cell cap allows (1,000,000 × 10 and 1,000 × 10,000) on the built api
// (PGlite, or PostgreSQL under BENCH_PG_URL with `-- postgresql`), then GETs each. Prints each
// request's time and size, the api's RSS after it and its peak RSS (VmHWM) over the run.
import { readFileSync } from 'node:fs';
import { benchSession, withBuiltApi } from './support/built-api.mjs';

const MB = 1024 * 1024;
const kind = process.argv.includes('postgresql') ? 'postgresql' : 'pglite';
const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

await withBuiltApi(kind, {}, async ({ base, pid }) => {
  const { auth, json } = await benchSession(base);
  console.log(`api (${kind}) pid ${pid}, started: RSS ${memory(pid).rss.toFixed(0)} MB`);
  const timed = async (what, request) => {
    const t0 = performance.now();
    const res = await request();
    const body = await res.text();
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `${what.padEnd(34)} ${String(res.status).padEnd(4)} ${(body.length / MB).toFixed(2).padStart(7)} MB ${seconds.toFixed(2).padStart(7)} s  RSS ${memory(pid).rss.toFixed(0).padStart(5)} MB`,
    );
    return body;
  };
  for (const [rows, columns] of [
    [1_000_000, 10],
    [1_000, 10_000],
  ]) {
    const shape = `${rows.toLocaleString('en')} × ${columns.toLocaleString('en')}`;
    const body = await timed(`POST /sheets ${shape}`, () =>
      fetch(`${base}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: shape, metadata: { rows, columns } }) }),
    );
    const id = JSON.parse(body).id;
    const got = JSON.parse(await timed(`GET  /sheets/:id ${shape}`, () => fetch(`${base}/api/v1/sheets/${id}`, { headers: auth })));
    if (got.data.length !== rows || got.metadata.rows !== rows || got.metadata.columns !== columns) {
      throw new Error(`GET ${shape}: ${got.data.length} rows of data, metadata ${got.metadata.rows} × ${got.metadata.columns}`);
    }
  }
  console.log(`api peak RSS (VmHWM) over the run: ${memory(pid).peak.toFixed(0)} MB`);
});
