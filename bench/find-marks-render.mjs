// The find bar's marks (mfe-sheets find/find-marks.ts) against Handsontable's render time, in Debian's
// Chromium: a 100,000 × 10 whole grid (column A `k{row}`, the others numbers) in a 1,200 × 800 box,
// drawn again and again (hot.render() and the layout it causes), with the grid's afterRenderer as
// SheetGrid has it before (others' selections only: drawPresence's lookup) and after the marks (the
// same, then FindMarks.draw): bar closed (no text), and open on '1' (most drawn cells marked: digits of the numbers, one
// cell current), at the top and scrolled to row 50,000. Modes alternate, rounds of RENDERS renders
// each; prints the median render per mode with the load average. Run from the root: node bench/find-marks-render.mjs
import os from 'node:os';
import { fromRoot } from '../scripts/lib/paths.mjs';
import { handsontablePage } from './support/handsontable-page.mjs';

const ROWS = Number(process.env.MARKS_ROWS ?? 100_000);
const RENDERS = Number(process.env.MARKS_RENDERS ?? 40);
const ROUNDS = Number(process.env.MARKS_ROUNDS ?? 4);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

const entry = `
import Handsontable from 'handsontable';
import { FIND_MARK_STYLE, FindMarks } from ${JSON.stringify(fromRoot('mfe-sheets', 'src/workspace/find/find-marks.ts'))};
const style = document.createElement('style');
style.textContent = FIND_MARK_STYLE;
document.head.appendChild(style);
const presence = new Map();
const marks = new FindMarks();
let mode = 'before';
window.bench = {
  open(rows) {
    const data = Array.from({ length: rows }, (_, r) => ['k' + r, ...Array.from({ length: 9 }, (_, c) => r * 10 + c)]);
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;inset:0;width:1200px;height:800px;overflow:hidden';
    document.body.appendChild(box);
    window.hot = new Handsontable(box, {
      data, themeName: 'ht-theme-main', licenseKey: 'non-commercial-and-evaluation', rowHeaders: true, colHeaders: true,
      colWidths: 100, height: '100%', width: '100%', stretchH: 'all',
      afterRenderer(td, row, col, prop, value) {
        // drawPresence: a lookup by cell.
        const mark = presence.get(row + ':' + col);
        if (mark) td.style.boxShadow = mark;
        if (mode !== 'before') marks.draw(td, row, col, value);
      },
    });
  },
  mode(next, top) {
    mode = next;
    if (next === 'open') marks.set('1', [top + 1, 0]); else marks.clear();
    window.hot.scrollViewportTo({ row: top, col: 0 });
    window.hot.render();
  },
  renders(n) {
    const times = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.hot.render();
      void document.body.offsetHeight;
      times.push(performance.now() - t0);
    }
    return { times, marked: document.querySelectorAll('td.tessera-find-match').length };
  },
};
`;
const { browser, page } = await handsontablePage(entry);
await page.evaluate((rows) => window.bench.open(rows), ROWS);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const modes = ['before', 'closed', 'open'];
const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const top of [0, Math.floor(ROWS / 2)]) {
    // Alternated: each round in another order.
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      await page.evaluate(([m, t]) => window.bench.mode(m, t), [mode, top]);
      const { times, marked } = await page.evaluate((n) => window.bench.renders(n), RENDERS);
      const key = `${mode} @ row ${top.toLocaleString('en-US')}`;
      const entryOf = results.get(key) ?? { times: [], marked };
      entryOf.times.push(...times);
      results.set(key, entryOf);
    }
  }
  console.log(`round ${round + 1} done (load ${load()})`);
}
console.log(`${ROWS.toLocaleString('en-US')} × 10 whole grid, 1,200 × 800 px, ${ROUNDS} rounds × ${RENDERS} renders per mode (render + layout), medians:`);
for (const [key, { times, marked }] of results) {
  console.log(`  ${key.padEnd(22)} ${median(times).toFixed(2)} ms (p90 ${[...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)].toFixed(2)} ms), cells marked ${marked}`);
}
console.log(`load ${load()}`);
await browser.close();
