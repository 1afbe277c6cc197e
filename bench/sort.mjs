// A live sort's cost on the api (issue: sort of every sheet size): a 100,000 × 5 and a 1,000,000 × 10
// sheet imported (CSV through POST /api/v1/import), then sorted by column B (short text `b{r}`: the
// order by the alphabet is scrambled, the worst case for the op log) over a live socket. Prints for
// each: send → ack, the longest answer meanwhile of a 404 (the api's event loop held) and of /health (the database held), the api's CPU
// time and peak resident size, the ack's size, what the op log keeps of the order (packed, against
// JSON), and the load average. Runs the built api (bench/support/built-api.mjs) on PGlite;
// BENCH_API_ROOT: another build of the api to compare (A/B). Argument 1: the largest sheet, in rows.
import os from 'node:os';
import { benchSession, withBuiltApi } from './support/built-api.mjs';
import { importCsv } from './support/import-csv.mjs';
import { loggedOrderBytes, timedSort } from './support/sort-step.mjs';

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (bytes) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const largest = Number(process.argv[2] ?? 1_000_000);
const sizes = [
  { label: '100,000 × 5', rows: 100_000, columns: 5 },
  { label: '1,000,000 × 10', rows: 1_000_000, columns: 10 },
].filter((x) => x.rows <= largest);

function csv(rows, columns) {
  const parts = [`${Array.from({ length: columns }, (_, c) => String.fromCharCode(97 + c)).join(',')}\n`];
  for (let r = 0; r < rows; r++) {
    const m = r % 100;
    const cells = [r, `b${r}`];
    for (let c = 2; c < columns; c++) cells.push((m + c) % 100);
    parts.push(`${cells.join(',')}\n`);
  }
  return parts.join('');
}

await withBuiltApi('pglite', {}, async ({ base, pid }) => {
  const { auth } = await benchSession(base);
  const token = auth.authorization.slice('Bearer '.length);
  for (const size of sizes) {
    const { id, ms } = await importCsv(base, token, size.label, csv(size.rows, size.columns));
    console.log(`imported ${size.label} in ${s(ms)}  load ${load()}`);
    const figures = await timedSort({ apiBase: base, token, sheetId: id, column: 1, direction: 'asc', apiPid: pid });
    const logged = loggedOrderBytes(Array.from({ length: size.rows }, (_, r) => `b${r}`), 'asc');
    // A wrong sort is worth nothing: rows 0-3 read b0, b1, b10, b100.
    const top = await (await fetch(`${base}/api/v1/sheets/${id}/rows?start=0&count=4`, { headers: auth })).json();
    const ok = JSON.stringify(top.data.map((r) => r[1])) === JSON.stringify(['b0', 'b1', 'b10', 'b100']);
    // Its undo (Ctrl+Z): the logged order inverted, through the same path.
    const undone = await timedSort({ apiBase: base, token, sheetId: id, column: 1, direction: 'asc', undo: figures.version, apiPid: pid });
    const back = await (await fetch(`${base}/api/v1/sheets/${id}/rows?start=0&count=4`, { headers: auth })).json();
    const backOk = JSON.stringify(back.data.map((r) => r[1])) === JSON.stringify(['b0', 'b1', 'b2', 'b3']);
    console.log(
      `undo of that sort: send → ack ${s(undone.ms)}; event loop ${undone.longestLoopMs.toFixed(0)} ms, /health ${undone.longestHealthMs.toFixed(0)} ms; api CPU ${s(undone.apiCpuMs)}; rows ${backOk ? 'back in their order' : 'NOT BACK'}  load ${load()}`,
    );
    console.log(
      `sort ${size.label} by B: send → ack ${s(figures.ms)}; longest answer meanwhile: event loop (a 404) ${figures.longestLoopMs.toFixed(0)} ms, /health (database, 2 s timeout) ${figures.longestHealthMs.toFixed(0)} ms; api CPU ${s(figures.apiCpuMs)}, api peak ${mb(figures.apiPeakKb)} resident; ack ${figures.frameBytes} B; op log order ${logged.packed === null ? '(not packed: this build)' : mb(logged.packed)} packed (JSON ${mb(logged.json)}); rows ${ok ? 'sorted' : 'NOT SORTED'}  load ${load()}`,
    );
  }
});
