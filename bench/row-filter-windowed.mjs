// A windowed sheet's row filter, judged by the api (POST /sheets/:id/filter and /filter/values: api
// sheets/sheet-filter.ts, contracts sheet-filter.schema.ts) on a 1,000,000 × 10 and a 100,000 × 10
// sheet: the built api's SheetsService in this process, on PGlite in a temp folder (or PostgreSQL
// with BENCH_PG_URL: a throwaway database is made there), made through SheetsService.create (500-row
// chunks, as an import writes them). Column A holds one of 5 statuses, B `row % 1000`, C a unique
// text `k{row}`, the rest numbers. Prints, with the load average, each request's time, the longest
// the event loop was held meanwhile (a 1 ms timer's largest lateness: what every other request
// on the api waited at worst) and the answer's size; then the process's peak resident size.
// FILTER_ROWS: the row counts (default 1000000,100000). Build first: pnpm --filter @tessera/api run build.
import os from 'node:os';
import { benchSheetsService } from './support/sheets-service.mjs';

const SIZES = (process.env.FILTER_ROWS ?? '1000000,100000').split(',').map(Number);
const COLS = 10;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const { sheets, userId, database, close } = await benchSheetsService('wfilter');

/** `fn`'s time and the event loop's longest hold meanwhile (the largest lateness of a 1 ms timer). */
async function timed(fn) {
  let held = 0;
  let last = performance.now();
  let on = true;
  const tick = () => {
    const now = performance.now();
    held = Math.max(held, now - last - 1);
    last = now;
    if (on) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  const result = await fn();
  const took = performance.now() - started;
  on = false;
  return { result, took, held };
}

const STATUS = ['open', 'closed', 'pending', 'on hold', 'done'];
for (const rows of SIZES) {
  let started = performance.now();
  const data = Array.from({ length: rows }, (_, r) => [STATUS[r % 5], r % 1000, `k${r}`, ...Array.from({ length: COLS - 3 }, (_, c) => r * COLS + c)]);
  const { id } = await sheets.create({ name: `Filter bench ${rows}`, data }, userId);
  data.length = 0;
  console.log(`${rows.toLocaleString('en-US')} × ${COLS} sheet made in ${((performance.now() - started) / 1000).toFixed(1)} s (${database}; load ${load()})`);
  const requests = [
    ['filter: A is open and B < 500 (10% of rows, runs of one row)', () => sheets.filterRows(id, { filters: [{ column: 0, values: { mode: 'only', texts: ['open'] }, condition: null }, { column: 1, values: null, condition: { kind: 'less', value: '500' } }] }), (r) => `shown ${r.shown} of ${r.rows}, runs ${r.runs.length} chars`],
    ['filter: A is not "done" (80%, runs of four rows)', () => sheets.filterRows(id, { filters: [{ column: 0, values: { mode: 'except', texts: ['done'] }, condition: null }] }), (r) => `shown ${r.shown} of ${r.rows}, runs ${r.runs.length} chars`],
    ['filter: C contains "7" (a text test on every row)', () => sheets.filterRows(id, { filters: [{ column: 2, values: null, condition: { kind: 'contains', value: '7' } }] }), (r) => `shown ${r.shown} of ${r.rows}, runs ${r.runs.length} chars`],
    ["values of A with B < 500 (the dialog's list)", () => sheets.filterValues(id, { filters: [{ column: 1, values: null, condition: { kind: 'less', value: '500' } }], column: 0, search: '' }), (r) => `${r.values.length} values + ${r.more} more`],
    ['values of C (every row a new text: 200 listed, the rest counted)', () => sheets.filterValues(id, { filters: [], column: 2, search: '' }), (r) => `${r.values.length} values + ${r.more} more`],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [label, run, said] of requests) {
      const { result, took, held } = await timed(run);
      console.log(`  ${label}: ${(took / 1000).toFixed(2)} s, event loop held at most ${held.toFixed(0)} ms; ${said(result)} (load ${load()})`);
    }
  }
}
console.log(`peak resident size of this process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (the sheets built for create included)`);
await close();
