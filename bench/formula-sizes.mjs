// Issue 23: "report what sizes keep formulas interactive". A sheet that may hold formulas is loaded
// whole (the server's may_have_formulas flag) and its formulas run in HyperFormula in a Web Worker
// (mfe-sheets workspace/grid/formulas/; until session 17 on the page's main thread through
// Handsontable's Formulas plugin: the worker's own times are printed when it ran). This bench
// imports sheets of 10,000 / 50,000 / 100,000 / 200,000 rows × 11 columns through POST /api/v1/import
// (a CSV written here, as a user's upload): column C of every row holds =A{r}*2+D{r} and the first
// row's C holds =SUM(A1:A{n}) (the grid's row 1 is the first data row, under the header; column C
// so that the SUM is on screen without scrolling: the grid draws only the columns in view). Each is
// opened in Debian's Chromium from a click in the navigator, in a fresh tab, RUNS times (2 unless
// told: the machine is shared). For each open it prints: click → first rows shown; click → the SUM
// cell showing its value; the longest main-thread block from the click until 1 s after the SUM
// showed (PerformanceObserver 'longtask', and the longest gap between requestAnimationFrame
// callbacks); an edit of A2 (a cell the SUM reads) from its Enter to the SUM cell showing the new
// total, with the longest block in that time; the JS heap; whether the tab survived. The load
// average goes with every figure: other processes on the machine slow every wall-clock figure.
// Before the timed open each tab opens a 1-row sheet with a formula: the Workspace's code and the
// formula engine's chunk are then loaded and not part of the figure.
// KINDS=plain builds the same sheets without formulas (column C holds the numbers the formulas would
// compute, row 1's C the total), KINDS=both builds each size both ways and prints them side by side:
// what the open costs without HyperFormula (a plain sheet of 100,000 rows or more opens windowed).
// Without formulas the edit is timed to the edited cell showing its new value.
// SIZES=50000,20000: these row counts instead of the four (in that order; the largest-size argument
// then does not apply); SIZES=none: none of them (with OVER_LIMIT=1, that case alone).
// OVER_LIMIT=1: also a sheet of 11 columns with formulas 1,000 rows past the formula engine's bound
// (HYBRID_MAX_CELLS, counted as the engine holds cells): opened the same way, it must show the
// Workspace's notice (formulasOverLimit, exact text) and C1's SUM as its text; printed: click → first
// rows, click → the notice, the JS heap, whether the tab survived.
// Each open is also traced (Chromium's 'toplevel' tasks): the longest main-thread task in CPU time
// (thread time: not what the machine's load adds to its wall time) and the main thread's CPU in all.
// PROFILE=<file.cpuprofile>: Chromium CPU profiles of the first run of the first size (with formulas
// unless KINDS=plain),
// its open (click → SUM shown + the settle time) written there, its edit (Enter → SUM shown + the
// settle time) beside it as <file>.edit.cpuprofile, each summed up: self time per script and the
// functions with the most self time (open the files in Chromium's DevTools for the rest).
// Usage: node bench/formula-sizes.mjs [port offset, default 900] [largest size in rows, default 200000]
// (BENCH_PORT_BASE: consecutive ports from it instead; RUNS: opens per size). Starts the built
// product (`npm start`'s processes) with a fresh data folder and stops it afterwards.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { productApi } from './support/product-api.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { jsHeapUsed, launchChromium } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { importCsv } from './support/import-csv.mjs';
import { signInPage } from './support/sign-in-page.mjs';
import { summarizeCpuProfile } from './support/cpu-profile.mjs';

const ports = benchPorts(Number(process.argv[2] ?? 900));
const largest = Number(process.argv[3] ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 2);
const KINDS = { formulas: ['formulas'], plain: ['plain'], both: ['formulas', 'plain'] }[process.env.KINDS ?? 'formulas'];
if (!KINDS) throw new Error(`KINDS is formulas, plain or both, not ${process.env.KINDS}`);
const PROFILE = process.env.PROFILE ?? null;
const base = `http://localhost:${ports.shell}`;
const user = { username: 'bench-formulas', password: 'bench formulas password' };
/** How long one open (or one edit) may take before it counts as failed. */
const OPEN_TIMEOUT_MS = 120_000;
/** The quiet time watched after the SUM showed: work the open leaves for later still counts. */
const SETTLE_MS = 1_000;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const ms = (x) => (x === null || x === undefined ? '?' : `${Math.round(x)} ms`);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const api = productApi(base);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { HYBRID_MAX_CELLS, formulasOverLimit } = await import(pathToFileURL(path.join(root, 'shared-contracts/dist/index.js')).href);
const OVER_LIMIT = process.env.OVER_LIMIT === '1';
/** The SUM's column (C): on screen without scrolling. */
const SUM_COL = 2;

/**
 * Column A holds the grid row (1…n), B the marker `{tag}{r}` (unique to the sheet), C the formulas
 * (plain: the numbers they compute), D–K small numbers.
 */
function csv(tag, rows, plain) {
  const parts = ['a,b,c,d,e,f,g,h,i,j,k\n'];
  for (let r = 0; r < rows; r++) {
    const g = r + 1;
    const m = r % 100;
    const formula = plain ? (r === 0 ? (rows * (rows + 1)) / 2 : g * 2 + m) : r === 0 ? `=SUM(A1:A${rows})` : `=A${g}*2+D${g}`;
    parts.push(`${g},${tag}${r},${formula},${m},${(m + 1) % 100},${(m + 2) % 100},${(m + 3) % 100},${(m + 4) % 100},${(m + 5) % 100},${(m + 6) % 100},${(m + 7) % 100}\n`);
  }
  return parts.join('');
}

/**
 * Installed in every page before its scripts: the long tasks (PerformanceObserver 'longtask') and
 * the gaps between requestAnimationFrame callbacks over 50 ms, each with its start time, so the
 * bench can ask for the longest one in a span of time.
 */
function watchMainThread() {
  const w = (window.__mainThread = { longtasks: [], gaps: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    w.unsupported = true;
  }
  let last = performance.now();
  const frame = (now) => {
    if (now - last > 50) w.gaps.push({ start: last, duration: now - last });
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The longest long task and rAF gap that began at or after `from` (page time), and the task count. */
function longestSince(from) {
  const w = window.__mainThread;
  const inSpan = (xs) => xs.filter((x) => x.start + x.duration >= from);
  const max = (xs) => xs.reduce((a, x) => Math.max(a, x.duration), 0);
  return { longtask: w.unsupported ? null : max(inSpan(w.longtasks)), tasks: inSpan(w.longtasks).length, gap: max(inSpan(w.gaps)) };
}

/**
 * The formula worker's own times (its User Timing measures, formula-worker-core.ts): the longest
 * 'formulas:build' (the sheet's engine; the warm-up sheet's is tiny) and the last 'formulas:cells'
 * (an edit's recompute), in ms; null when no worker ran them (HyperFormula on the main thread).
 */
async function workerTimes(page) {
  const all = await Promise.all(
    page.workers().map((w) =>
      w.evaluate(() => ({ build: performance.getEntriesByName('formulas:build').map((e) => e.duration), cells: performance.getEntriesByName('formulas:cells').map((e) => e.duration) })).catch(() => null),
    ),
  );
  const seen = all.filter(Boolean);
  const builds = seen.flatMap((t) => t.build);
  const cells = seen.flatMap((t) => t.cells);
  return { build: builds.length ? Math.max(...builds) : null, cells: cells.length ? cells.at(-1) : null };
}

/**
 * Starts a Chromium trace of the tasks run (category 'toplevel'); the function it returns stops it
 * and gives the page's main thread's longest task in CPU time (the trace's thread time, `tdur`) and
 * in wall time, and how many took over 200 ms of CPU: on a loaded machine the wall time of a task
 * includes the time its thread waited for a core, its CPU time does not.
 */
async function traceTasks(cdp) {
  const events = [];
  const collect = (e) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
    const byThread = new Map();
    for (const e of events) {
      if (e.ph !== 'X' || !/RunTask$/.test(e.name) || !mains.has(`${e.pid}:${e.tid}`)) continue;
      const key = `${e.pid}:${e.tid}`;
      if (!byThread.has(key)) byThread.set(key, []);
      byThread.get(key).push(e);
    }
    // The page's main thread: the renderer's main thread that ran the most.
    const sum = (xs) => xs.reduce((a, e) => a + (e.tdur ?? 0), 0);
    const tasks = [...byThread.values()].sort((a, b) => sum(b) - sum(a))[0] ?? [];
    const top = tasks.reduce((a, e) => ((e.tdur ?? 0) > (a?.tdur ?? -1) ? e : a), null);
    const next = tasks.map((e) => e.tdur ?? 0).sort((a, b) => b - a).slice(1, 4).map((t) => Math.round(t / 1000));
    return { cpu: top ? top.tdur / 1000 : null, wall: top ? top.dur / 1000 : null, next, over200: tasks.filter((e) => (e.tdur ?? 0) > 200_000).length, total: sum(tasks) / 1000 };
  };
}

/** The text of the main grid's cell (row and column from 0); the overlays hold copies of the edges. */
const cellText = ([row, col]) => document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')[row]?.querySelectorAll('td')[col]?.textContent ?? null;

/**
 * Opens the sheet past the formula engine's bound in a fresh tab (after the small sheet, as the
 * timed opens do) and checks what its user sees: the notice with its exact text, C1's SUM as text.
 */
async function openPastTheBound(small, over) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const failures = [];
  let crashed = false;
  page.on('crash', () => { crashed = true; failures.push('the tab crashed'); });
  page.on('pageerror', (err) => failures.push(`page error: ${err.message.slice(0, 200)}`));
  const r = {};
  try {
    await signInPage(page, base, user);
    const grid = page.getByTestId('sheet-grid');
    await page.getByTestId(`sheet-${small.id}`).getByRole('button').first().click();
    await grid.locator('td', { hasText: /^s0$/ }).first().waitFor({ timeout: 60_000 });
    const t0 = Date.now();
    await page.getByTestId(`sheet-${over.id}`).getByRole('button').first().click();
    await grid.locator('td', { hasText: new RegExp(`^${over.tag}0$`) }).first().waitFor({ timeout: OPEN_TIMEOUT_MS });
    r.openMs = Date.now() - t0;
    const notice = page.getByTestId('formulas-over-limit');
    await notice.waitFor({ timeout: OPEN_TIMEOUT_MS });
    r.noticeMs = Date.now() - t0;
    r.load = load();
    r.mode = (await page.getByTestId('row-scrollbar').count()) > 0 ? 'windowed' : 'whole';
    const expected = formulasOverLimit(over.rows * 11, HYBRID_MAX_CELLS);
    const shown = (await notice.textContent()) ?? '';
    if (!shown.includes(expected)) failures.push(`the notice reads "${shown}", not "${expected}"`);
    const c1 = await page.evaluate(cellText, [0, SUM_COL]);
    if (c1 !== `=SUM(A1:A${over.rows})`) failures.push(`C1 shows ${JSON.stringify(c1)}, not its formula as text`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    r.heap = await jsHeapUsed(cdp);
  } catch (err) {
    failures.push(`stopped: ${err.message.split('\n')[0]}`);
  }
  const survived = !crashed && (await Promise.race([page.evaluate(() => true).catch(() => false), new Promise((res) => setTimeout(() => res(false), 10_000))]));
  console.log(
    `${over.label}: ${r.mode ?? '?'}; click → first rows ${r.openMs === undefined ? 'FAILED' : s(r.openMs)}, → the notice ${r.noticeMs === undefined ? 'FAILED' : s(r.noticeMs)} (load ${r.load ?? load()}); ` +
      `JS heap ${r.heap ? mb(r.heap) : '?'}; tab ${survived ? 'survived' : 'DID NOT SURVIVE'}; failures: ${failures.length ? failures.join(' | ') : 'none (the notice\'s text exact, C1 its formula as text)'}`,
  );
  await context.close().catch(() => {});
}

const stack = await startProductStack(ports, 'tessera-bench-formulas-');
let browser;
try {
  browser = await launchChromium();
  await api('/auth/signup', { method: 'POST', body: user });
  const { access_token: token } = await api('/auth/login', { method: 'POST', body: user });
  const small = await api('/sheets', { method: 'POST', token, body: { name: 'small', headers: ['a', 'b'], data: [['s0', '=1+1']] } });
  const rowCounts = process.env.SIZES === 'none' ? [] : process.env.SIZES ? process.env.SIZES.split(',').map(Number) : [10_000, 50_000, 100_000, 200_000].filter((rows) => rows <= largest);
  const sizes = rowCounts
    .flatMap((rows, i) =>
      KINDS.map((kind) => ({ rows, kind, plain: kind === 'plain', label: `${rows.toLocaleString('en')} × 11 ${kind}`, tag: `${kind[0]}${i}x` })),
    );
  for (const size of sizes) {
    const text = csv(size.tag, size.rows, size.plain);
    Object.assign(size, await importCsv(base, token, size.label, text));
    const { sheet: stored } = await api(`/sheets/${size.id}/rows?start=0&count=1&summary=1`, { token });
    console.log(`imported ${size.label} (${mb(Buffer.byteLength(text))} CSV) in ${s(size.ms)}; may_have_formulas ${stored.may_have_formulas}  load ${load()}`);
  }

  const over = OVER_LIMIT ? { rows: Math.floor(HYBRID_MAX_CELLS / 11) + 1000, tag: 'ox' } : null;
  if (over) {
    over.label = `${over.rows.toLocaleString('en')} × 11 formulas (past the bound)`;
    const text = csv(over.tag, over.rows, false);
    Object.assign(over, await importCsv(base, token, over.label, text));
    console.log(`imported ${over.label} (${mb(Buffer.byteLength(text))} CSV) in ${s(over.ms)}  load ${load()}`);
  }

  const results = [];
  for (const size of sizes) {
    for (let run = 1; run <= RUNS; run++) {
      // A fresh tab per open: the heap is this sheet's, not the one before.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addInitScript(watchMainThread);
      const page = await context.newPage();
      const r = { label: size.label, run, failures: [], crashed: false };
      const profiling = PROFILE && run === 1 && size === sizes[0];
      results.push(r);
      let watching = false;
      const fail = (text) => watching && r.failures.push(text);
      page.on('crash', () => { r.crashed = true; r.failures.push('the tab crashed'); });
      page.on('pageerror', (err) => fail(`page error: ${err.message.slice(0, 200)}`));
      page.on('console', (msg) => { if (msg.type() === 'error') fail(`console error: ${msg.text().slice(0, 200)}`); });
      try {
        await signInPage(page, base, user);
        const grid = page.getByTestId('sheet-grid');
        await page.getByTestId(`sheet-${small.id}`).getByRole('button').first().click();
        await grid.locator('td', { hasText: /^s0$/ }).first().waitFor({ timeout: 60_000 });
        // The small sheet's formula computed: HyperFormula's chunk is loaded.
        await page.waitForFunction((args) => document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')[args[0]]?.querySelectorAll('td')[args[1]]?.textContent === '2', [0, 1], { timeout: 60_000 });
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        if (profiling) {
          await cdp.send('Profiler.enable');
          // 200 µs between samples: fine enough for a task of seconds, light enough not to add to it much.
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        watching = true;
        const stopTrace = await traceTasks(cdp);

        // The open: click → first rows; click → the SUM's value; the main thread over that span + SETTLE_MS.
        const pageT0 = await page.evaluate(() => performance.now());
        const t0 = Date.now();
        await page.getByTestId(`sheet-${size.id}`).getByRole('button').first().click();
        await grid.locator('td', { hasText: new RegExp(`^${size.tag}0$`) }).first().waitFor({ timeout: OPEN_TIMEOUT_MS });
        r.openMs = Date.now() - t0;
        await page.waitForFunction((col) => {
          const t = document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')[0]?.querySelectorAll('td')[col]?.textContent;
          return !!t && !t.startsWith('=') && Number.isFinite(Number(t));
        }, SUM_COL, { timeout: OPEN_TIMEOUT_MS, polling: 50 });
        r.sumMs = Date.now() - t0;
        r.openLoad = load();
        r.mode = await page.evaluate(() => {
          const root = document.querySelector('[data-testid="sheet-grid"]');
          return `${root.querySelector('[data-testid="row-scrollbar"]') ? 'windowed' : 'whole'}, formulas ${root.dataset.formulas}`;
        });
        const sumBefore = Number(await page.evaluate(cellText, [0, SUM_COL]));
        const expectedSum = (size.rows * (size.rows + 1)) / 2;
        // A2 is changed by each run (the edit is saved), so the first run alone knows the untouched total.
        if (run === 1 && sumBefore !== expectedSum) r.failures.push(`the SUM shows ${sumBefore}, not ${expectedSum}`);
        await page.waitForTimeout(SETTLE_MS);
        r.open = await page.evaluate(longestSince, pageT0);
        r.trace = await stopTrace();
        r.workerBuild = (await workerTimes(page)).build;
        if (profiling) {
          const { profile } = await cdp.send('Profiler.stop');
          writeFileSync(PROFILE, JSON.stringify(profile));
          console.log(`CPU profile of ${size.label}'s open written to ${PROFILE}\n${summarizeCpuProfile(profile)}`);
        }
        r.heap = await jsHeapUsed(cdp);

        // The edit: A2 (a cell the SUM reads) gets a new number; from its Enter (seen by a capturing
        // listener, before the grid's) to the frame that shows the SUM's new total (plain: A2's new value).
        if (profiling) await cdp.send('Profiler.start');
        const a2 = Number(await page.evaluate(cellText, [1, 0]));
        const next = a2 + 1000;
        const watched = size.plain ? [1, 0] : [0, SUM_COL];
        await page.evaluate(([before, row, col]) => {
          const e = (window.__edit = { enter: null, shown: null, text: null });
          document.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && e.enter === null) e.enter = performance.now(); }, { capture: true });
          // Read the clock in the callback: the frame's own timestamp (its argument) may precede the Enter handled in it.
          const poll = () => {
            const now = performance.now();
            const t = document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')[row]?.querySelectorAll('td')[col]?.textContent;
            if (e.enter !== null && t !== String(before)) {
              e.shown = now;
              e.text = t;
              return;
            }
            requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }, [size.plain ? a2 : sumBefore, ...watched]);
        await page.locator('[data-testid="sheet-grid"] .ht_master .htCore tbody tr').nth(1).locator('td').nth(0).click();
        await page.keyboard.type(String(next));
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => window.__edit.shown !== null, null, { timeout: OPEN_TIMEOUT_MS, polling: 50 });
        const edit = await page.evaluate(() => window.__edit);
        r.editMs = edit.shown - edit.enter;
        r.editLoad = load();
        const expected = size.plain ? next : sumBefore - a2 + next;
        if (Number(edit.text) !== expected) r.failures.push(`after the edit ${size.plain ? 'A2' : 'the SUM'} shows ${edit.text}, not ${expected}`);
        await page.waitForTimeout(SETTLE_MS);
        r.edit = await page.evaluate(longestSince, edit.enter);
        r.workerEdit = (await workerTimes(page)).cells;
        if (profiling) {
          const { profile } = await cdp.send('Profiler.stop');
          const file = PROFILE.replace(/(\.cpuprofile)?$/, '.edit.cpuprofile');
          writeFileSync(file, JSON.stringify(profile));
          console.log(`CPU profile of ${size.label}'s edit written to ${file}\n${summarizeCpuProfile(profile)}`);
        }
        r.heapAfterEdit = await jsHeapUsed(cdp);
      } catch (err) {
        r.failures.push(`stopped: ${err.message.split('\n')[0]}`);
        // What the grid showed then: its first two rows, as seen.
        const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')].slice(0, 2).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent).join(','))).catch(() => null);
        r.failures.push(`the grid's first rows then: ${JSON.stringify(rows)}`);
      }
      // Survived: not crashed and still answering.
      r.survived = !r.crashed && (await Promise.race([page.evaluate(() => true).catch(() => false), new Promise((res) => setTimeout(() => res(false), 10_000))]));
      r.endLoad = load();
      console.log(
        `${r.label} run ${run}: ${r.mode ?? '?'}; click → first rows ${r.openMs === undefined ? 'FAILED' : s(r.openMs)}, → SUM shown ${r.sumMs === undefined ? 'FAILED' : s(r.sumMs)} (load ${r.openLoad ?? r.endLoad}); ` +
          `open's longest long task ${ms(r.open?.longtask)} (${r.open?.tasks ?? '?'} tasks), longest rAF gap ${ms(r.open?.gap)}; ` +
          `open's longest task in CPU time ${ms(r.trace?.cpu)} (its wall time ${ms(r.trace?.wall)}; the next ones ${r.trace?.next?.join(', ') ?? '?'} ms; tasks over 200 ms CPU: ${r.trace?.over200 ?? '?'}; main thread CPU ${ms(r.trace?.total)}); ` +
          `edit A2 → SUM ${ms(r.editMs)}, its longest long task ${ms(r.edit?.longtask)} (load ${r.editLoad ?? r.endLoad}); ` +
          `formula worker: build ${ms(r.workerBuild)}, the edit's recompute ${ms(r.workerEdit)}; ` +
          `JS heap ${r.heap ? mb(r.heap) : '?'} (after the edit ${r.heapAfterEdit ? mb(r.heapAfterEdit) : '?'}); tab ${r.survived ? 'survived' : 'DID NOT SURVIVE'}; failures: ${r.failures.length ? r.failures.join(' | ') : 'none'}`,
      );
      await context.close().catch(() => {});
    }
  }

  if (over) await openPastTheBound(small, over);

  if (results.length) {
    console.log(`\nsize | run | first rows | SUM shown | longest long task (open) | longest rAF gap (open) | longest task CPU (open) | main thread CPU (open) | edit → SUM (plain: → A2) | longest long task (edit) | worker build | worker edit | JS heap | survived | load (open / edit)`);
    for (const r of results) {
      console.log(
        [r.label, r.run, r.openMs === undefined ? 'FAILED' : s(r.openMs), r.sumMs === undefined ? 'FAILED' : s(r.sumMs), ms(r.open?.longtask), ms(r.open?.gap), ms(r.trace?.cpu), ms(r.trace?.total), ms(r.editMs), ms(r.edit?.longtask), ms(r.workerBuild), ms(r.workerEdit), r.heap ? mb(r.heap) : '?', r.survived ? 'yes' : 'NO', `${r.openLoad ?? '?'} / ${r.editLoad ?? '?'}`].join(' | '),
      );
    }
    console.log(`interactive = no main-thread block over 200 ms while opening, an edit → its result shown within 300 ms (wall clock: read with the load)`);
  }
} finally {
  await browser?.close().catch(() => {});
  await stack.stop();
}
