// Find on a whole grid (mfe-sheets find/whole-grid-find.ts, the code the find bar runs in the
// browser) over a 100,000 × 10 sheet held in memory, in Node (no DOM: the search reads the rows
// only). Prints, with the load average: the whole search (every slice, each a task of its own),
// its longest slice (the longest the page would be kept from drawing or taking input), for a
// text in the last rows, a text in every row, and a number. Run: node --import tsx bench/find-whole-grid.mts
// (from mfe-sheets/, whose dependencies it uses: cd mfe-sheets && node --import tsx ../bench/find-whole-grid.mts).
import os from 'node:os';
import { findInGrid, FIND_SLICE_CELLS } from '../mfe-sheets/src/workspace/find/whole-grid-find.js';

const ROWS = Number(process.env.FIND_ROWS ?? 100_000);
const COLS = 10;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const data = Array.from({ length: ROWS }, (_, r) => [`k${r}`, ...Array.from({ length: COLS - 1 }, (_, c) => r * COLS + c)]);

// The longest stretch between two timer tasks while the search runs: its slices.
async function measure(query: string) {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const started = performance.now();
  const found = await findInGrid(data, () => null, query, () => false);
  const took = performance.now() - started;
  running = false;
  return { took, longest, matches: found?.rows.length ?? 0 };
}

console.log(`${ROWS.toLocaleString('en-US')} × ${COLS}, slices of ${FIND_SLICE_CELLS.toLocaleString('en-US')} cells`);
for (let round = 0; round < 2; round++) {
  for (const query of [`k${ROWS - 10}`, 'k', String((ROWS - 10) * COLS + 5), 'zzz']) {
    const { took, longest, matches } = await measure(query);
    console.log(`'${query}': ${took.toFixed(0)} ms, ${matches.toLocaleString('en-US')} matches, longest slice ${longest.toFixed(0)} ms (load ${load()})`);
  }
}
