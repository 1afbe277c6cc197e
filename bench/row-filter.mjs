// The user's row filter (mfe-sheets filter/grid-filter.ts) on a whole grid in Debian's Chromium: a
// 100,000 × 10 grid (column B `v{row % 20}`, the others numbers) in a 1,200 × 800 box, Handsontable
// with HiddenRows as SheetGrid has it. Each round: filter B by one value (5,000 rows shown), clear it,
// filter by a condition ('contains 1': 55,000 rows of B shown), clear; each step timed from the call
// to the grid drawn (applyFilter + render + layout: one task, the freeze the user feels), then a
// scroll render while filtered, and an own edit with and without a filter (the bar's recount).
// Rounds alternate the order. Prints medians with the load average.
// Run from the root: node bench/row-filter.mjs
import os from 'node:os';
import { fromRoot } from '../scripts/lib/paths.mjs';
import { handsontablePage } from './support/handsontable-page.mjs';

const ROWS = Number(process.env.FILTER_ROWS ?? 100_000);
const ROUNDS = Number(process.env.FILTER_ROUNDS ?? 5);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

const entry = `
import Handsontable from 'handsontable';
import { applyFilter, recount } from ${JSON.stringify(fromRoot('mfe-sheets', 'src/workspace/filter/grid-filter.ts'))};
import { sheetFilter } from ${JSON.stringify(fromRoot('mfe-sheets', 'src/workspace/filter/sheet-filter.ts'))};
let data;
const drawn = () => { void document.body.offsetHeight; };
window.bench = {
  open(rows) {
    data = Array.from({ length: rows }, (_, r) => [r, 'v' + (r % 20), ...Array.from({ length: 8 }, (_, c) => r * 10 + c)]);
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;inset:0;width:1200px;height:800px;overflow:hidden';
    document.body.appendChild(box);
    const t0 = performance.now();
    window.hot = new Handsontable(box, {
      data, themeName: 'ht-theme-main', licenseKey: 'non-commercial-and-evaluation', rowHeaders: true, colHeaders: true,
      colWidths: 120, height: '100%', width: '100%', stretchH: 'all', manualRowResize: true,
      // As SheetGrid: the user's own edit only recounts the rows shown (it is not judged).
      afterChange: (changes, source) => { if (changes && source !== 'loadData') recount(window.hot, data); },
    });
    drawn();
    const opened = performance.now() - t0;
    const hot = window.hot;
    const filter = sheetFilter(data);
    // As SheetGrid's reapply: HiddenRows turned on with the first filter.
    filter.reapply = () => {
      if (!hot.getPlugin('hiddenRows').enabled) hot.updateSettings({ hiddenRows: { copyPasteEnabled: false, indicators: false, rows: [] } });
      applyFilter(hot, data, null);
      hot.render();
    };
    return opened;
  },
  step(kind) {
    const filter = sheetFilter(data);
    const t0 = performance.now();
    if (kind === 'enable') window.hot.updateSettings({ hiddenRows: { copyPasteEnabled: false, indicators: false, rows: [] } });
    else if (kind === 'value') filter.set(1, { values: { mode: 'only', texts: new Set(['v3']) }, condition: null });
    else if (kind === 'condition') filter.set(1, { values: null, condition: { kind: 'contains', value: '1' } });
    else filter.clear();
    drawn();
    const ms = performance.now() - t0;
    return { ms, shown: filter.active ? filter.shown : data.length, drawnRows: document.querySelectorAll('.ht_master tbody tr').length };
  },
  /** An own edit (typed value committed) while filtered or not: setDataAtCell to drawn. */
  edit(i) {
    const t0 = performance.now();
    window.hot.setDataAtCell(0, 5, 'e' + i, 'edit');
    drawn();
    return performance.now() - t0;
  },
  scroll() {
    const t0 = performance.now();
    window.hot.scrollViewportTo({ row: window.hot.countRows() - 1, col: 0 });
    window.hot.render();
    drawn();
    const ms = performance.now() - t0;
    window.hot.scrollViewportTo({ row: 0, col: 0 });
    return ms;
  },
};
`;
const { browser, page } = await handsontablePage(entry);
const opened = await page.evaluate((rows) => window.bench.open(rows), ROWS);
console.log(`${ROWS.toLocaleString('en-US')} × 10 grid opened in ${opened.toFixed(0)} ms (load ${load()})`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = new Map();
const add = (key, ms) => times.set(key, [...(times.get(key) ?? []), ms]);
// SheetGrid turns HiddenRows on with the first filter: timed apart (the first apply is then only the filter's).
const enabled = await page.evaluate(() => window.bench.step('enable'));
add('HiddenRows turned on (first filter only)', enabled.ms);
let first = true;
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['value', 'condition'] : ['condition', 'value'];
  for (const kind of order) {
    const applied = await page.evaluate((k) => window.bench.step(k), kind);
        add(first ? `first apply (${kind})` : `apply ${kind}`, applied.ms);
    first = false;
    add(`scroll to the end while filtered (${kind})`, await page.evaluate(() => window.bench.scroll()));
    for (let i = 0; i < 5; i++) add(`own edit while filtered (${kind}: recount)`, await page.evaluate((n) => window.bench.edit(n), i));
    const cleared = await page.evaluate(() => window.bench.step('clear'));
    add('clear', cleared.ms);
    for (let i = 0; i < 5; i++) add('own edit, no filter', await page.evaluate((n) => window.bench.edit(n), i));
    if (round === 0) console.log(`  ${kind}: ${applied.shown.toLocaleString('en-US')} rows shown (${applied.drawnRows} drawn), cleared: ${cleared.shown.toLocaleString('en-US')}`);
  }
  console.log(`round ${round + 1} done (load ${load()})`);
}
console.log(`${ROWS.toLocaleString('en-US')} × 10 whole grid, 1,200 × 800 px, ${ROUNDS} rounds; call to drawn (one task), medians (max):`);
for (const [key, ms] of times) console.log(`  ${key.padEnd(44)} ${median(ms).toFixed(1)} ms (max ${Math.max(...ms).toFixed(1)} ms, n=${ms.length})`);
console.log(`load ${load()}`);
await browser.close();
