// Find in a sheet (GET /sheets/:id/find's scan, api sheets/sheet-find.ts) on a 1,000,000 × 10 sheet:
// the built api's SheetsService in this process, on PGlite in a temp folder (or PostgreSQL with
// BENCH_PG_URL: a throwaway database is made there). The sheet is made through SheetsService.create
// (its 500-row chunks, as an import writes them); column A holds `k{row}`, the others numbers.
// Prints, with the load average: a unique text in the last rows (the whole sheet read to count it),
// a text in every row (the scan stops once the matches asked for are found past FIND_COUNT_CAP),
// a text found nowhere (the whole sheet read); with a row filter on (POST's scan: a sparse one, half the rows, a
// values list); then the same in version 1 (GET .../versions/1/find's scan:
// the first find rebuilds the version, later ones scan it kept); and the process's peak resident size.
// FIND_ROWS: another row count (default 1,000,000). Build first: pnpm --filter @tessera/api run build.
import os from 'node:os';
import path from 'node:path';
import { root } from './support/built-api.mjs';
import { benchSheetsService } from './support/sheets-service.mjs';

const ROWS = Number(process.env.FIND_ROWS ?? 1_000_000);
const COLS = 10;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const { db, sheets, userId, database, close } = await benchSheetsService('find');

let started = performance.now();
const data = Array.from({ length: ROWS }, (_, r) => [`k${r}`, ...Array.from({ length: COLS - 1 }, (_, c) => r * COLS + c)]);
const { id } = await sheets.create({ name: 'Find bench', data }, userId);
data.length = 0;
console.log(`${ROWS.toLocaleString('en-US')} × ${COLS} sheet made in ${((performance.now() - started) / 1000).toFixed(1)} s (${database}; load ${load()})`);

const runs = [
  ['a unique text in the last rows (k999990): first match, whole sheet counted', { q: `k${ROWS - 10}`, direction: 'next', limit: 100 }],
  ['a text in every row (k): stops past the count cap', { q: 'k', direction: 'next', limit: 100 }],
  ['found nowhere (zzz): whole sheet read', { q: 'zzz', direction: 'next', limit: 100 }],
  ['a number in the last rows (9999905): digits: each chunk text also checked for numbers shown with an exponent', { q: String((ROWS - 10) * COLS + 5), direction: 'next', limit: 100 }],
];
for (let round = 0; round < 2; round++) {
  for (const [label, query] of runs) {
    started = performance.now();
    const result = await sheets.find(id, query);
    const took = performance.now() - started;
    const first = result.matches[0];
    console.log(`${label}: ${(took / 1000).toFixed(2)} s; total ${result.total}${result.complete ? '' : '+'}, first ${first ? `row ${first[0]} col ${first[1]}` : 'none'} (load ${load()})`);
  }
}
// With a row filter on (POST /sheets/:id/find): the rows it hides passed over, the count of those shown.
const filtered = [
  ['filter: 11 rows shown (A contains k99999), a text in every row (k): whole sheet parsed and judged, total of the rows shown', [{ column: 0, values: null, condition: { kind: 'contains', value: `k${Math.floor(ROWS / 10) - 1}` } }], { q: 'k', direction: 'next', limit: 100 }],
  ['filter: half the rows shown (B less than half), a text in every row (k): stops past the count cap', [{ column: 1, values: null, condition: { kind: 'less', value: String((ROWS * COLS) / 2) } }], { q: 'k', direction: 'next', limit: 100 }],
  ['filter: a values list of 1,000 texts (A only k0..k999), a text only a hidden row holds (in the last rows): none; chunks without it not parsed', [{ column: 0, values: { mode: 'only', texts: Array.from({ length: 1_000 }, (_, i) => `k${i}`) }, condition: null }], { q: `k${ROWS - 10}`, direction: 'next', limit: 100 }],
];
for (let round = 0; round < 2; round++) {
  for (const [label, filters, query] of filtered) {
    started = performance.now();
    const result = await sheets.find(id, query, undefined, filters);
    const took = performance.now() - started;
    const first = result.matches[0];
    console.log(`${label}: ${(took / 1000).toFixed(2)} s; total ${result.total}${result.complete ? '' : '+'}, first ${first ? `row ${first[0]} col ${first[1]}` : 'none'} (load ${load()})`);
  }
}
// Of which reading: the same windows read (readRowWindow, parsed) without matching.
const { readRowWindow } = await import(path.join(root, 'api/dist/sheets/row-window.js'));
const { SHEET_ROWS_WINDOW_MAX } = await import(path.join(root, 'shared-contracts/dist/index.js'));
started = performance.now();
await db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
  for (let start = 0; start < ROWS; start += SHEET_ROWS_WINDOW_MAX) await readRowWindow(trx, id, start, Math.min(SHEET_ROWS_WINDOW_MAX, ROWS - start));
});
console.log(`of which reading the windows (readRowWindow over the whole sheet, no matching): ${((performance.now() - started) / 1000).toFixed(2)} s (load ${load()})`);
// Find in a version (GET .../versions/:v/find, its windowed preview's find): version 1, the sheet as made, after
// two cell edits (row 10 given a text only the live sheet has). The first find rebuilds the version whole (as
// behind a preview's window) and scans it; later ones scan the version kept (VersionRowsCache: deflated chunk by
// chunk past its 64M bound, inflated one at a time while scanned).
const { VersionsService } = await import(path.join(root, 'api/dist/versions/versions.service.js'));
const versions = new VersionsService(db, sheets);
await sheets.patchCells(id, { base_version: 1, changes: [{ row: 10, col: 0, value: 'only live' }] }, userId);
await sheets.patchCells(id, { base_version: 2, changes: [{ row: 20, col: 1, value: 'later' }] }, userId);
const versionRuns = [
  ['version 1, first find (rebuilt whole, then scanned): a unique text in the last rows', { q: `k${ROWS - 10}`, direction: 'next', limit: 100 }],
  ['version 1, kept: the same', { q: `k${ROWS - 10}`, direction: 'next', limit: 100 }],
  ['version 1, kept: a text only the live sheet has (only live): whole version read, none', { q: 'only live', direction: 'next', limit: 100 }],
  ['version 1, kept: a text in every row (k): stops past the count cap', { q: 'k', direction: 'next', limit: 100 }],
  ['version 1, kept: a number in the last rows (digits: every chunk parsed or checked for exponents)', { q: String((ROWS - 10) * COLS + 5), direction: 'next', limit: 100 }],
];
for (const [label, query] of versionRuns) {
  started = performance.now();
  const result = await versions.find(id, '1', query);
  const took = performance.now() - started;
  const first = result.matches[0];
  console.log(`${label}: ${(took / 1000).toFixed(2)} s; total ${result.total}${result.complete ? '' : '+'}, first ${first ? `row ${first[0]} col ${first[1]}` : 'none'} (load ${load()})`);
}
await versions.rowsSettled();
// The process's peak is mostly the sheet built in it for create (a 1,000,000-row array), not the scans.
console.log(`peak resident size of this process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (the sheet built for create included)`);
await close();
