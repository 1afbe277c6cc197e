// Figures of issue 23 (million-row sheets), the "before" of the windowed grid: a 100,000 × 10 and a
// 1,000,000 × 10 sheet (10M cells, the product's cap) built through the product — a CSV written
// here and imported through POST /api/v1/import, as a user would — then opened in Debian's
// Chromium from a click in the navigator. Prints for each: the import time, click → first rows
// shown, the page's JS heap and the tab's memory (the renderer processes' resident size), the
// api's CPU time spent on the open (less sensitive to the other load on the machine than the wall
// time) and its peak resident size, and what failed (a timeout, a crashed tab, a page error). And
// the api's side of a windowed grid: GET /sheets/:id (the whole sheet) beside a 5,000-row window of
// GET /sheets/:id/rows at the top, middle and end of each sheet.
// Runs the whole built product (`npm start`'s processes) on the default ports + 800 (argument 1 to
// change it; argument 2: the largest sheet, in rows) with a fresh data folder, and stops it afterwards. The load average is printed with
// the figures: other processes on a shared machine slow every wall-clock figure.
// MILLION_FORMULA=1: one formula typed into each sheet (C1, through PATCH /sheets/:id/cells) before
// it is opened; a sheet past the formula engine's bound (HYBRID_MAX_CELLS held cells) must show the
// Workspace's notice (formulasOverLimit, exact text): click → the notice is printed too.
// MILLION_CHART=1: each sheet gets one line chart (columns C and D, every row, as a user selects
// them) before it is opened; the open then also prints click → the chart drawn.
// MILLION_TYPE_FORMULA=1: once the windowed sheet is open (after the jumps), a formula over column A
// is typed into column C of a row on screen, as a user would: within the engine's bound (100,000 ×
// 10) Enter → the computed value shown (the sheet read whole), past it (1,000,000 × 10) Enter → the
// over-limit notice; with the longest gap between two frames meanwhile (a freeze), whether the row
// is still on screen, and the tab's memory after. Not with MILLION_FORMULA (the sheet has one then).
// MILLION_CLEAR_COLUMN=1: on the largest sheet, once open, Ctrl+A Ctrl+C and then Delete of column C
// (its header clicked), as a user does them (bench/support/whole-column-ops.mjs): the time, the
// longest frame gap and the tab's peak memory of each; MILLION_PROFILE=1 adds the Delete's CPU profile;
// MILLION_HEAP=1 its JS heap (before, when read and sent, after a GC once saved) and a sampling heap
// profile of what it allocated that is still alive when read and sent (MILLION_HEAP=all: everything it
// allocated, garbage included — V8's includeObjectsCollectedBy* flags); MILLION_LARGEST_ONLY=1 runs the largest size only;
// MILLION_COPY_COLUMN=1: on the largest sheet, once open, column C's header clicked and Ctrl+C (the clipboard
// granted; before MILLION_CLEAR_COLUMN's Delete when both are on): the time until the clipboard holds it,
// the longest frame gap, the tab's peak, the text checked to be column C exactly (copyColumnOp); with
// MILLION_HEAP its JS heap and a sampling heap profile;
// MILLION_COPY_ALL=1: on the largest sheet, once open, Ctrl+A then Ctrl+C (every column), then Ctrl+A then Ctrl+X
// (copyAllOps): for each the time until read, built and written, the longest frame gap, the tab before and its peak
// (issue 23: under 600 MB), the clipboard's length; then Ctrl+Z, and column C of the last rows checked back on the server;
// MILLION_SORT=1: each open sheet sorted by B from another socket (sortStep): → ack, → the tab shows it, the api's holds, the tab's peak;
// the api's figures then also time each 5,000-row window of column C only (col_start=2&col_count=1, what the Delete reads).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { productApi } from './support/product-api.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { jsHeapUsed, launchChromium, startFrameGaps, stopFrameGaps } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { importCsv } from './support/import-csv.mjs';
import { signInPage } from './support/sign-in-page.mjs';
import { jumpInPage } from './support/row-scrollbar-jump.mjs';
import { cpuMs, rendererRss, statusKb } from './support/proc-stats.mjs';
import { copyAllOps, copyColumnOp, wholeColumnOps } from './support/whole-column-ops.mjs';
import { summarizeCpuProfile } from './support/cpu-profile.mjs';
import { summarizeHeapProfile } from './support/heap-profile.mjs';
import { loggedOrderBytes, timedSort } from './support/sort-step.mjs';

const offset = Number(process.argv[2] ?? 800);
// BENCH_PORT_BASE: the processes on consecutive ports from it instead (bench/support/bench-ports.mjs).
const ports = benchPorts(offset);
const base = `http://localhost:${ports.shell}`;
const user = { username: 'bench-million', password: 'bench million password' };
/** How long one open may take before it counts as failed. */
const OPEN_TIMEOUT_MS = 180_000;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (bytes) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const ms = (x) => `${x.toFixed(0)} ms`;
const MILLION_FORMULA = process.env.MILLION_FORMULA === '1';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { HYBRID_MAX_CELLS, formulasOverLimit } = await import(pathToFileURL(path.join(root, 'shared-contracts/dist/index.js')).href);
const WITH_CHART = process.env.MILLION_CHART === '1';
const TYPE_FORMULA = process.env.MILLION_TYPE_FORMULA === '1' && !MILLION_FORMULA;
const CLEAR_COLUMN = process.env.MILLION_CLEAR_COLUMN === '1' && !MILLION_FORMULA;
const COPY_COLUMN = process.env.MILLION_COPY_COLUMN === '1' && !MILLION_FORMULA;
const COPY_ALL = process.env.MILLION_COPY_ALL === '1' && !MILLION_FORMULA;
const SORT = process.env.MILLION_SORT === '1';
/** The bench user's token, for MILLION_SORT's socket. */
let sortToken;
/** The chart MILLION_CHART adds: C (0–99) as the categories, D charted, over every row. */
const chartOf = (rows) => ({
  type: 'line', range: { start_row: 0, start_col: 2, end_row: rows - 1, end_col: 3 }, categories: 'first_column', title: 'C and D',
  x_axis_title: '', y_axis_title: '', legend: 'none', stacked: false, box: { row: 1, col: 4, dx: 0, dy: 0, width: 480, height: 300 },
});

/**
 * A CSV with a header row; column A holds the row number, B the marker `{tag}{r}` (unique to the
 * sheet, so the wait never matches the sheet shown before), the others short numbers: 1M rows stay
 * about 40 MB, under the 50 MB import limit.
 */
function csv(tag, rows) {
  const parts = ['a,b,c,d,e,f,g,h,i,j\n'];
  for (let r = 0; r < rows; r++) {
    const m = r % 100;
    parts.push(`${r},${tag}${r},${m},${(m + 1) % 100},${(m + 2) % 100},${(m + 3) % 100},${(m + 4) % 100},${(m + 5) % 100},${(m + 6) % 100},${(m + 7) % 100}\n`);
  }
  return parts.join('');
}

const api = productApi(base);

/** Where the jumps go, as fractions of the sheet (one after another; the end is timed above). */
const JUMP_FRACTIONS = [0.5, 0.25, 0.75, 0.1, 0.9, 0.6];

/**
 * MILLION_TYPE_FORMULA: `=SUM(A1:A{rows})` typed into column C of the third row on screen of the open
 * windowed grid (columns past the grid's right edge are not drawn), then Enter; resolves with what it saw (the failures pushed to `failures`).
 */
async function typeFormula(page, size, failures) {
  const grid = page.getByTestId('sheet-grid');
  // The third row fully on screen, by its header (the absolute row, 1-based).
  const row = await page.evaluate(() => {
    const root = document.querySelector('[data-testid="sheet-grid"] .ht_master');
    const box = root.getBoundingClientRect();
    const shown = [...root.querySelectorAll('.htCore tbody tr')].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= box.top + 30 && r.bottom <= box.bottom;
    });
    return Number(shown[2]?.querySelector('th')?.textContent?.trim());
  });
  const rowOf = (n) => grid.locator('.ht_master .htCore tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${n}$`) }) });
  const cell = () => rowOf(row).locator('td').nth(2);
  await cell().click();
  await page.keyboard.type(`=SUM(A1:A${size.rows})`);
  // The longest gap between two frames from Enter on (the page frozen that long), kept in the page.
  await startFrameGaps(page);
  const over = size.rows * 10 > HYBRID_MAX_CELLS;
  const t0 = Date.now();
  await page.keyboard.press('Enter');
  let shownMs = null;
  try {
    if (over) {
      const notice = page.getByTestId('formulas-over-limit');
      await notice.waitFor({ timeout: OPEN_TIMEOUT_MS });
      shownMs = Date.now() - t0;
      const expected = formulasOverLimit(size.rows * 10, HYBRID_MAX_CELLS);
      const text = (await notice.textContent()) ?? '';
      if (!text.includes(expected)) failures.push(`the notice reads "${text}", not "${expected}"`);
    } else {
      // Column A holds 0 … rows - 1.
      const sum = String((size.rows * (size.rows - 1)) / 2);
      await rowOf(row).locator('td', { hasText: new RegExp(`^${sum}$`) }).waitFor({ timeout: OPEN_TIMEOUT_MS });
      shownMs = Date.now() - t0;
    }
  } catch (err) {
    failures.push(`typed formula: no ${over ? 'notice' : 'value'} after ${s(Date.now() - t0)}: ${err.message.split('\n')[0]}`);
  }
  const gap = await stopFrameGaps(page);
  // The grid shown now, and whether the row typed into is still on screen.
  const after = await page.evaluate((n) => {
    const root = document.querySelector('[data-testid="sheet-grid"]');
    const box = root.querySelector('.ht_master').getBoundingClientRect();
    const th = [...root.querySelectorAll('.ht_master .htCore tbody th')].find((t) => t.textContent.trim() === String(n));
    const r = th?.getBoundingClientRect();
    return { windowed: root.getAttribute('data-windowed') === 'on', formulas: root.getAttribute('data-formulas'), onScreen: !!r && r.top >= box.top && r.bottom <= box.bottom };
  }, row);
  if (!after.onScreen) failures.push(`typed formula: row ${row} no longer on screen`);
  if (!over && after.windowed) failures.push('typed formula: the sheet is still windowed');
  const cellText = (await cell().textContent({ timeout: 5_000 }).catch(() => null)) ?? '?';
  return { row, over, shownMs, gap, after, cellText };
}

const importSheet = (token, name, text) => importCsv(base, token, name, text);

/**
 * MILLION_SORT: the open sheet, its top rows on screen, sorted by B (`{tag}{r}`) A → Z by the same
 * user from another socket (as a second tab would): send → ack, send → the tab shows row 3 of the
 * sorted sheet (`{tag}100`, at row 100 before: off screen), the api's longest event-loop hold and
 * database hold meanwhile, the tab's peak resident size (polled every 100 ms) and the op-log order.
 */
async function sortStep(page, size, failures) {
  await page.evaluate(jumpInPage, { fraction: 0, target: 0, tag: size.tag, limitMs: 30_000 });
  const before = rendererRss(process.pid);
  let peak = before;
  const poll = setInterval(() => (peak = Math.max(peak, rendererRss(process.pid))), 100);
  const t0 = performance.now();
  const grid = page.getByTestId('sheet-grid');
  const shown = grid.locator('.ht_master td', { hasText: new RegExp(`^${size.tag}100$`) }).first().waitFor({ timeout: OPEN_TIMEOUT_MS }).then(() => performance.now() - t0);
  let figures;
  try {
    figures = await timedSort({ apiBase: `http://127.0.0.1:${ports.api}`, token: sortToken, sheetId: size.id, column: 1, direction: 'asc', apiPid });
  } catch (err) {
    clearInterval(poll);
    throw err;
  }
  const shownMs = await shown.catch((err) => (failures.push(`sort: row 3 not shown: ${err.message.split('\n')[0]}`), null));
  clearInterval(poll);
  const logged = loggedOrderBytes(Array.from({ length: size.rows }, (_, r) => `${size.tag}${r}`), 'asc');
  return `\n  sorted by B A → Z from another socket: send → ack ${s(figures.ms)}, → the tab shows the sorted rows ${shownMs === null ? 'FAILED' : s(shownMs)}; api: event loop held ${ms(figures.longestLoopMs)} at most, database (/health) ${ms(figures.longestHealthMs)}, CPU ${s(figures.apiCpuMs)}, peak ${mb(figures.apiPeakKb)}; ack ${figures.frameBytes} B; op-log order ${logged.packed === null ? '?' : mb(logged.packed)} packed (JSON ${mb(logged.json)}); tab ${mb(before)} before, peak ${mb(peak)}  load ${load()}`;
}

/**
 * MILLION_HEAP's heap measurement through `cdp`: start() (a GC, the heap used, sampling started),
 * stop() (the heap used, the profile summed up), used(), after() (a GC, then the heap used).
 * `collected`: the profile counts garbage too (V8's includeObjectsCollectedBy* flags).
 */
function heapProfiler(cdp, collected) {
  return {
    start: async () => {
      await cdp.send('Performance.enable');
      await cdp.send('HeapProfiler.enable');
      await cdp.send('HeapProfiler.collectGarbage');
      const used = await jsHeapUsed(cdp);
      await cdp.send('HeapProfiler.startSampling', { samplingInterval: 32_768, ...(collected ? { includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } : {}) });
      return used;
    },
    stop: async () => {
      const used = await jsHeapUsed(cdp);
      const { profile } = await cdp.send('HeapProfiler.stopSampling');
      return { used, summary: summarizeHeapProfile(profile, 20) };
    },
    used: () => jsHeapUsed(cdp),
    after: async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return jsHeapUsed(cdp);
    },
  };
}

const stack = await startProductStack(ports, 'tessera-bench-million-');
const apiPid = stack.processes.find((p) => p.name === 'api').pid;
let browser;
try {
  browser = await launchChromium();
  await api('/auth/signup', { method: 'POST', body: user });
  const { access_token: token } = await api('/auth/login', { method: 'POST', body: user });
  sortToken = token;
  const small = await api('/sheets', { method: 'POST', token, body: { name: 'small', headers: ['a'], data: [['s0']] } });
  // Argument 2: the largest size to run (1,000,000 unless given; 100000 for a quick check of the bench).
  const sizes = [
    { label: '100,000 × 10', rows: 100_000, tag: 'h' },
    { label: '1,000,000 × 10', rows: 1_000_000, tag: 'm' },
  ].filter((x) => x.rows <= Number(process.argv[3] ?? 1_000_000));
  // MILLION_LARGEST_ONLY=1: the largest size only (a heap measurement of the whole-column Delete needs no other).
  if (process.env.MILLION_LARGEST_ONLY === '1') sizes.splice(0, sizes.length - 1);
  for (const size of sizes) {
    const text = csv(size.tag, size.rows);
    size.csvBytes = Buffer.byteLength(text);
    Object.assign(size, await importSheet(token, size.label, text));
    console.log(`imported ${size.label} (${mb(size.csvBytes)} CSV) in ${s(size.ms)}  load ${load()}`);
    if (MILLION_FORMULA) {
      const { version } = await api(`/sheets/${size.id}/rows?start=0&count=1`, { token });
      await api(`/sheets/${size.id}/cells`, { method: 'PATCH', token, body: { base_version: version, changes: [{ row: 0, col: 2, value: '=SUM(A1:A10)' }] } });
      // Every stored cell is held (the CSV fills each row): past the bound, the notice names rows × 10.
      size.notice = size.rows * 10 > HYBRID_MAX_CELLS ? formulasOverLimit(size.rows * 10, HYBRID_MAX_CELLS) : null;
      console.log(`  a formula typed into C1 of ${size.label}; ${size.notice ? 'past' : 'within'} the formula engine's bound`);
    }
    if (WITH_CHART) await api(`/sheets/${size.id}/charts`, { method: 'POST', token, body: chartOf(size.rows) });
  }

  // The api's side of a windowed grid: the whole sheet (what the grid reads today) beside one window
  // of GET /sheets/:id/rows at the top, the middle and the end, each timed from the request to
  // the answer read, with the api's CPU time for it (median of WINDOW_RUNS).
  const WINDOW_RUNS = 5;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  async function timedGet(pathname) {
    const cpu0 = cpuMs(apiPid);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1${pathname}`, { headers: { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${pathname}: ${res.status} ${text.slice(0, 200)}`);
    return { ms: performance.now() - t0, cpu: cpuMs(apiPid) - cpu0, bytes: Buffer.byteLength(text), text };
  }
  for (const size of sizes) {
    const whole = await timedGet(`/sheets/${size.id}`);
    console.log(`GET /sheets/:id of ${size.label} (the whole sheet): ${s(whole.ms)}, api CPU ${s(whole.cpu)}, ${mb(whole.bytes)} of JSON  load ${load()}`);
    for (const start of [0, Math.floor(size.rows / 2), size.rows - 5_000]) {
      const runs = [];
      for (let i = 0; i < WINDOW_RUNS; i++) runs.push(await timedGet(`/sheets/${size.id}/rows?start=${start}&count=5000`));
      const answer = JSON.parse(runs[0].text);
      // A wrong window is worth nothing: its first row is row `start` of the CSV.
      if (answer.data.length !== 5_000 || answer.data[0][1] !== `${size.tag}${start}` || answer.row_count !== size.rows) throw new Error(`window at ${start} of ${size.label} is wrong`);
      console.log(`  GET /sheets/:id/rows?start=${start}&count=5000: ${ms(median(runs.map((r) => r.ms)))}, api CPU ${ms(median(runs.map((r) => r.cpu)))} (10 ms ticks), ${mb(runs[0].bytes)} of JSON (median of ${WINDOW_RUNS})  load ${load()}`);
      if (!CLEAR_COLUMN) continue;
      // The same window of column C only, as a whole-column Delete reads it (an api without column ranges answers every column).
      const column = [];
      for (let i = 0; i < WINDOW_RUNS; i++) column.push(await timedGet(`/sheets/${size.id}/rows?start=${start}&count=5000&col_start=2&col_count=1`));
      const cut = JSON.parse(column[0].text);
      if (cut.data.length !== 5_000) throw new Error(`column window at ${start} of ${size.label} is wrong`);
      const kind = cut.col_start === 2 && cut.data.every((row) => row.length <= 1) ? 'column C only' : 'every column: the range ignored';
      console.log(`  GET /sheets/:id/rows?start=${start}&count=5000&col_start=2&col_count=1 (${kind}): ${ms(median(column.map((r) => r.ms)))}, api CPU ${ms(median(column.map((r) => r.cpu)))} (10 ms ticks), ${mb(column[0].bytes)} of JSON (median of ${WINDOW_RUNS})  load ${load()}`);
    }
  }

  const results = [];
  for (const size of sizes) {
    // A fresh tab per size: the memory figures are this sheet's, not the one before.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const failures = [];
    // What goes wrong from the click on (the sign-in page's refresh attempt answers 401: not a failure of the open).
    let watching = false;
    const fail = (text) => watching && failures.push(text);
    page.on('crash', () => failures.push('the tab crashed'));
    page.on('pageerror', (err) => fail(`page error: ${err.message.slice(0, 200)}`));
    page.on('console', (msg) => { if (msg.type() === 'error') fail(`console error: ${msg.text().slice(0, 200)}`); });
    page.on('requestfailed', (req) => fail(`request failed: ${req.method()} ${new URL(req.url()).pathname} ${req.failure()?.errorText ?? ''}`));
    // The round trips an open costs: the requests for the sheet (GET /sheets/:id, its /rows) until its first rows show.
    const sheetRequests = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.method() === 'GET' && /^\/api\/v1\/sheets\/[^/]+(\/rows)?$/.test(url.pathname)) sheetRequests.push(`${url.pathname.split('/').slice(4).join('/').replace(/^[^/]+/, ':id')}${url.search}`);
    });
    const requestsOf = (from) => sheetRequests.slice(from).join(', ');
    await signInPage(page, base, user);
    const grid = page.getByTestId('sheet-grid');
    // Open the small sheet first: the Workspace's code is then loaded and not part of the figure.
    const smallFrom = sheetRequests.length;
    await page.getByTestId(`sheet-${small.id}`).getByRole('button').first().click();
    await grid.locator('td', { hasText: /^s0$/ }).first().waitFor({ timeout: 60_000 });
    const smallRequests = requestsOf(smallFrom);

    const cdp = await context.newCDPSession(page);
    watching = true;
    const apiCpu0 = cpuMs(apiPid);
    const t0 = Date.now();
    let openMs = null;
    const openFrom = sheetRequests.length;
    let openRequests = '';
    try {
      await page.getByTestId(`sheet-${size.id}`).getByRole('button').first().click();
      await grid.locator('td', { hasText: new RegExp(`^${size.tag}0$`) }).first().waitFor({ timeout: OPEN_TIMEOUT_MS });
      openMs = Date.now() - t0;
      openRequests = requestsOf(openFrom);
    } catch (err) {
      failures.push(`no first rows after ${s(Date.now() - t0)}: ${err.message.split('\n')[0]}`);
    }
    let noticeMs = null;
    if (size.notice && openMs !== null) {
      try {
        const notice = page.getByTestId('formulas-over-limit');
        await notice.waitFor({ timeout: OPEN_TIMEOUT_MS });
        noticeMs = Date.now() - t0;
        const shown = (await notice.textContent()) ?? '';
        if (!shown.includes(size.notice)) failures.push(`the notice reads "${shown}", not "${size.notice}"`);
      } catch (err) {
        failures.push(`no over-limit notice: ${err.message.split('\n')[0]}`);
      }
    }
    // MILLION_CHART: the chart's line drawn (before the memory is read: the tab holds its points).
    let chartMs = null;
    if (WITH_CHART && openMs !== null) {
      try {
        await page.locator('[data-testid="chart-frame"] .recharts-line-curve').first().waitFor({ timeout: OPEN_TIMEOUT_MS });
        chartMs = Date.now() - t0;
      } catch (err) {
        failures.push(`no chart drawn after ${s(Date.now() - t0)}: ${err.message.split('\n')[0]}`);
      }
    }
    const apiCpu = cpuMs(apiPid) - apiCpu0;
    let heap = null;
    try {
      await cdp.send('Performance.enable');
      heap = await jsHeapUsed(cdp);
    } catch (err) {
      failures.push(`heap not read: ${err.message.split('\n')[0]}`);
    }
    // Chromium is this process's child: its renderers are among our descendants.
    const tab = rendererRss(process.pid);
    // Scrolling to the last row, as a user would (the scroll bar dragged to its end): the time until its
    // cell is drawn, whether it is inside the grid's box, and how far its row header is from it
    // (Handsontable documents that past the browser's largest scroll height rows misalign).
    let scroll = 'not tried';
    let jumps = 'not tried';
    if (openMs !== null) {
      const last = `${size.tag}${size.rows - 1}`;
      let windowed = false;
      try {
        // The scroll bar dragged to its end: the grid's scrolling box scrolled to the bottom.
        const t1 = Date.now();
        // A windowed grid (issue 23) has its own scroll bar spanning the sheet (the grid's box holds a slab of rows): that one.
        windowed = await page.evaluate(() => {
          const bar = document.querySelector('[data-testid="sheet-grid"] [data-testid="row-scrollbar"]');
          const holder = bar ?? document.querySelector('[data-testid="sheet-grid"] .ht_master .wtHolder');
          holder.scrollTop = holder.scrollHeight;
          return bar !== null;
        });
        await grid.locator('.ht_master td', { hasText: new RegExp(`^${last}$`) }).first().waitFor({ timeout: 30_000 });
        const drawnMs = Date.now() - t1;
        const seen = await page.evaluate(([text, header]) => {
          const root = document.querySelector('[data-testid="sheet-grid"]');
          const td = [...root.querySelectorAll('.ht_master td')].find((t) => t.textContent === text);
          const th = [...root.querySelectorAll('.ht_clone_inline_start th, .ht_clone_left th')].find((t) => t.textContent.trim() === header);
          const box = root.getBoundingClientRect();
          const cell = td?.getBoundingClientRect();
          const head = th?.getBoundingClientRect();
          return {
            inside: !!cell && cell.top >= box.top && cell.bottom <= box.bottom + 1,
            offset: cell && head ? Math.round(cell.top - head.top) : null,
            height: root.querySelector('.ht_master .wtHolder')?.scrollHeight ?? null,
          };
        }, [last, String(size.rows)]);
        scroll = `${windowed ? 'windowed grid, its row scroll bar ' : ''}scrolled to the bottom → last row drawn in ${s(drawnMs)}; ${seen.inside ? 'inside the grid' : 'NOT inside the grid'}; row header ${seen.offset === null ? 'not found' : `${seen.offset} px from its cells`}; scroll height ${seen.height} px`;
        if (!seen.inside || seen.offset !== 0) failures.push(`the last row is misplaced: ${scroll}`);
      } catch (err) {
        scroll = 'FAILED';
        failures.push(`the last row was not drawn after scrolling to the bottom: ${err.message.split('\n')[0]}`);
      }
      // Jumps to rows inside the sheet, timed in the page: from the scroll bar set to the frame that
      // draws a row near the target (performance.now() in that frame's callback: a frame's own
      // timestamp can precede the scroll). A Date.now() on this side would add the round trips to the page.
      if (windowed) {
        const times = [];
        for (const fraction of JUMP_FRACTIONS) {
          const target = Math.round(fraction * (size.rows - 1));
          try {
            times.push(await page.evaluate(jumpInPage, { fraction, target, tag: size.tag, limitMs: 30_000 }));
          } catch (err) {
            failures.push(`no row near ${target} after a jump: ${err.message.split('\n')[0]}`);
          }
        }
        const sorted = [...times].sort((a, b) => a - b);
        jumps = times.length ? `${times.map(ms).join(', ')} (median ${ms(sorted[Math.floor(sorted.length / 2)])}, worst ${ms(sorted.at(-1))})` : 'FAILED';
      }
    }
    // MILLION_TYPE_FORMULA: a formula typed into the open windowed sheet (it switches to whole or shows the notice).
    let typedLine = '';
    const typed = TYPE_FORMULA && openMs !== null ? await typeFormula(page, size, failures).catch((err) => void failures.push(`typed formula: ${err.message.split('\n')[0]}`)) : undefined;
    if (typed) {
      const typedLoad = load();
      let typedHeap = null;
      try {
        // After a collection: what the page still holds (the windowed sheet's windows among it if it were kept).
        await cdp.send('HeapProfiler.collectGarbage');
        typedHeap = await jsHeapUsed(cdp);
      } catch (err) {
        failures.push(`heap not read after the formula: ${err.message.split('\n')[0]}`);
      }
      typedLine = `\n  a formula typed into C${typed.row} of the open windowed sheet, Enter → ${typed.over ? 'the over-limit notice' : 'its value shown'}: ${typed.shownMs === null ? 'FAILED' : s(typed.shownMs)}  load ${typedLoad}; longest gap between frames meanwhile ${ms(typed.gap)}; then the grid ${typed.after.windowed ? 'windowed' : 'whole'} (formulas ${typed.after.formulas}), the cell shows "${typed.cellText}", row ${typed.row} ${typed.after.onScreen ? 'still' : 'NOT'} on screen; JS heap after a GC ${typedHeap === null ? '?' : mb(typedHeap)}, tab ${mb(rendererRss(process.pid))} resident  load ${load()}`;
    }
    // MILLION_SORT: the open sheet sorted by B A → Z from another socket (bench/support/sort-step.mjs).
    let sortLine = '';
    if (SORT && openMs !== null) sortLine = await sortStep(page, size, failures).catch((err) => void failures.push(`sort: ${err.message.split('\n')[0]}`)) ?? '';
    // MILLION_CLEAR_COLUMN, MILLION_COPY_COLUMN: whole-column Copy and Delete on the largest sheet.
    let columnLines = '';
    const largest = openMs !== null && size === sizes.at(-1);
    const heapProfile = process.env.MILLION_HEAP && (CLEAR_COLUMN || COPY_COLUMN) && largest ? heapProfiler(cdp, process.env.MILLION_HEAP === 'all') : null;
    if (COPY_COLUMN && largest) {
      const lines = await copyColumnOp(page, { rows: size.rows, tabBytes: () => rendererRss(process.pid), heapProfile, failures }).catch((err) => {
        failures.push(`copy of column C: ${err.message.split('\n')[0]}`);
        return [];
      });
      columnLines += `\n  ${lines.join('\n  ')}`;
    }
    if (COPY_ALL && largest) {
      const cellsOfColumn = async (start) => (await api(`/sheets/${size.id}/rows?start=${start}&count=5000`, { token })).data.map((row) => row[2]);
      const lines = await copyAllOps(page, { rows: size.rows, tabBytes: () => rendererRss(process.pid), cellsOfColumn, failures }).catch((err) => {
        failures.push(`Ctrl+A copy and cut: ${err.message.split('\n')[0]}`);
        return [];
      });
      columnLines += `\n  ${lines.join('\n  ')}`;
    }
    if (CLEAR_COLUMN && largest) {
      const before = `tab ${mb(rendererRss(process.pid))} resident before  load ${load()}`;
      const cpuProfile = process.env.MILLION_PROFILE === '1'
        ? { start: () => cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start')), stop: async () => summarizeCpuProfile((await cdp.send('Profiler.stop')).profile) }
        : null;
      const cellsOfColumn = async (start) => (await api(`/sheets/${size.id}/rows?start=${start}&count=5000`, { token })).data.map((row) => row[2]);
      const lines = await wholeColumnOps(page, { rows: size.rows, tabBytes: () => rendererRss(process.pid), cellsOfColumn, apiCpuMs: () => cpuMs(apiPid), cpuProfile, heapProfile, failures }).catch((err) => {
        failures.push(`whole-column ops: ${err.message.split('\n')[0]}`);
        return [];
      });
      columnLines += `\n  whole columns (${before}):\n  ${lines.join('\n  ')}`;
    }
    results.push({
      label: size.label,
      line: `open ${size.label}${MILLION_FORMULA ? ' with a formula' : ''}${WITH_CHART ? ' with a chart' : ''} (click → first rows): ${openMs === null ? 'FAILED' : s(openMs)}${size.notice ? `, → the notice ${noticeMs === null ? 'FAILED' : s(noticeMs)}` : ''}${WITH_CHART ? `, → chart drawn: ${chartMs === null ? 'FAILED' : s(chartMs)}` : ''}; JS heap ${heap === null ? '?' : mb(heap)}, tab ${mb(tab)} resident; api CPU ${s(apiCpu)} for the open, api peak ${mb(statusKb(apiPid, 'VmHWM'))} resident  load ${load()}\n  requests before its first rows: ${openRequests || 'none seen'} (the 1-row sheet opened before it: ${smallRequests})\n  scroll to the last row: ${scroll}\n  jumps with the row scroll bar to ${JUMP_FRACTIONS.join(', ')} of the sheet → a row near the target drawn: ${jumps}${typedLine}${sortLine}${columnLines}`,
      failures,
    });
    await context.close();
  }
  console.log('targets (issue 23): 1,000,000 × 10 opens in ≤ 1.5 s, any row shown within 200 ms of the scroll, the tab under 600 MB');
  for (const r of results) {
    console.log(r.line);
    console.log(`  failures: ${r.failures.length ? [...new Set(r.failures)].join(' | ') : 'none'}`);
  }
} finally {
  await browser?.close();
  await stack.stop();
}
