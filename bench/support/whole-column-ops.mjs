// MILLION_CLEAR_COLUMN (bench/million-rows.mjs): the whole-column operations of a windowed sheet
// as a user does them, on the open sheet: column C's header clicked and Delete pressed, then Ctrl+A
// and Ctrl+C (a copy of every cell: refused past COPY_MAX_CHARS; the copy's text held by the tab
// would otherwise be in the Delete's memory figure). For each: the time to what
// the user sees, the longest gap between two frames meanwhile (the page frozen that long) and the
// tab's peak resident memory (sampled every 100 ms), with the load average beside it.
import os from 'node:os';
import { startFrameGaps, stopFrameGaps } from './chromium.mjs';

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * Samples `tabBytes()` every 100 ms until the returned function is called; it returns the peak
 * (its `at` property: ms from the start to the sample that saw it, to tell which phase it was in).
 */
function peakOf(tabBytes) {
  const t0 = Date.now();
  let peak = tabBytes();
  let at = 0;
  const sample = () => {
    const now = tabBytes();
    if (now > peak) [peak, at] = [now, Date.now() - t0];
  };
  const timer = setInterval(sample, 100);
  const stop = () => {
    clearInterval(timer);
    sample();
    return peak;
  };
  return Object.assign(stop, { at: () => at });
}

/**
 * Resolves with the ms from `t0` until the windowed grid's status ends its 'Reading…' (it shows the
 * refusal or failure then, or goes away), or null after `timeoutMs`; the text shown at the end.
 * Polled in the page every 50 ms: a status never seen within 2 s counts as done.
 */
async function untilRead(page, t0, timeoutMs) {
  const answer = await page.evaluate(
    ({ timeoutMs }) =>
      new Promise((resolve) => {
        const start = performance.now();
        let seen = false;
        const poll = () => {
          const text = document.querySelector('[data-testid="windowed-status"]')?.textContent ?? '';
          if (text.startsWith('Reading')) seen = true;
          const done = (seen || performance.now() - start > 2_000) && !text.startsWith('Reading');
          if (done) resolve({ ms: performance.now() - start, text });
          else if (performance.now() - start > timeoutMs) resolve({ ms: null, text });
          else setTimeout(poll, 50);
        };
        poll();
      }),
    { timeoutMs },
  );
  return { ms: answer.ms === null ? null : Date.now() - t0, text: answer.text };
}

/** Resolves with the ms from `t0` until `ready()` (polled every 500 ms) holds, or null after `timeoutMs`. */
async function until(ready, t0, timeoutMs) {
  for (;;) {
    if (await ready()) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) return null;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The whole-column operations on the open windowed sheet of `rows` rows: returns the lines to print
 * (failures pushed to `failures`). `cellsOfColumn(start)`: column C's cells of the api's window at
 * `start` (the server's rows), to check that Delete emptied them there; `apiCpuMs()`: the api's CPU time so far.
 */
export async function wholeColumnOps(page, { rows, tabBytes, cellsOfColumn, apiCpuMs, cpuProfile, heapProfile, failures, timeoutMs = Number(process.env.WHOLE_COLUMN_TIMEOUT_MS ?? 300_000) }) {
  const lines = [];
  const grid = page.getByTestId('sheet-grid');

  // Column C's header, then Delete.
  await grid.locator('.ht_clone_top thead th', { hasText: /^c$/i }).first().click();
  await startFrameGaps(page);
  let peak = peakOf(tabBytes);
  if (cpuProfile) await cpuProfile.start();
  // MILLION_HEAP: what the Delete allocated, sampled from the key until the read and sent end (the tab's peak is about then).
  const heapBefore = heapProfile ? await heapProfile.start() : null;
  let t0 = Date.now();
  const apiCpu0 = apiCpuMs();
  await page.keyboard.press('Delete');
  const { ms: sentMs, text: deleteText } = await untilRead(page, t0, timeoutMs);
  const heapAtSent = heapProfile ? await heapProfile.stop() : null;
  const sentRss = tabBytes();
  // MILLION_HEAP: the JS heap's largest size while the operations go out (polled through CDP: a busy page answers late).
  let sendHeap = 0;
  let polling = !!heapProfile;
  const heapPoll = (async () => {
    while (polling) {
      sendHeap = Math.max(sendHeap, (await heapProfile.used()) ?? 0);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  // The server has it all once the last rows' window is empty there (the changes are applied in order).
  const emptyAt = async (start) => (await cellsOfColumn(start)).every((v) => v === null || v === undefined || v === '');
  const savedMs = await until(() => emptyAt(rows - 5_000), t0, timeoutMs);
  const apiCpu = apiCpuMs() - apiCpu0;
  polling = false;
  await heapPoll;
  const badge = await page.getByTestId('save-status').textContent().catch(() => '?');
  const profile = cpuProfile ? await cpuProfile.stop() : null;
  const gap = await stopFrameGaps(page);
  const tabPeak = peak();
  const peakAt = peak.at();
  const checked = [0, Math.floor(rows / 2), rows - 5_000];
  const left = [];
  for (const start of checked) {
    const cells = await cellsOfColumn(start);
    const held = cells.filter((v) => v !== null && v !== undefined && v !== '').length;
    if (held > 0) left.push(`${held} at ${start}`);
  }
  if (left.length) failures.push(`Delete: column C still holds values on the server: ${left.join(', ')}`);
  if (sentMs === null || savedMs === null) failures.push('Delete: not done in time');
  lines.push(`column C's header, Delete on ${rows.toLocaleString('en-US')} rows →${deleteText ? ` "${deleteText}"` : ''} read and sent ${sentMs === null ? 'FAILED' : s(sentMs)}, the server's column C empty ${savedMs === null ? 'FAILED' : s(savedMs)}; longest frame gap ${Math.round(gap)} ms; tab peak ${mb(tabPeak)}; api CPU meanwhile ${s(apiCpu)}; the badge says ${badge}; server's column C empty at rows ${checked.join(', ')}: ${left.length ? 'NO' : 'yes'}  load ${load()}`);
  if (profile) lines.push(profile);
  if (heapProfile) {
    const retained = await heapProfile.after();
    lines.push(`heap (MILLION_HEAP): JS heap before the Delete (after a GC) ${mb(heapBefore)}; when read and sent ${mb(heapAtSent.used)} (tab ${mb(sentRss)} resident); largest while the operations went out ${mb(sendHeap)}; tab peak ${mb(tabPeak)} at ${s(peakAt)} after the key; once saved, after a GC ${mb(retained)} (tab ${mb(tabBytes())} resident)  load ${load()}`);
    lines.push(`what the Delete allocated that was still alive when read and sent (sampling heap profile):\n${heapAtSent.summary}`);
  }

  // Then Ctrl+A, Ctrl+C: every cell copied (column C empty now), or refused.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await grid.locator('.ht_master td').nth(3).click();
  await page.keyboard.press('Control+a');
  await startFrameGaps(page);
  peak = peakOf(tabBytes);
  t0 = Date.now();
  await page.keyboard.press('Control+c');
  const { ms: copyMs, text: copyText } = await untilRead(page, t0, timeoutMs);
  const copied = copyText === '' ? await page.evaluate(() => navigator.clipboard.readText().then((t) => t.length, (e) => `clipboard not read: ${e.message}`)) : null;
  lines.push(`Ctrl+A, Ctrl+C on ${rows.toLocaleString('en-US')} rows → ${copyText ? `"${copyText.slice(0, 90)}"` : `copied (${copied} characters on the clipboard)`}: ${copyMs === null ? 'FAILED' : s(copyMs)}; longest frame gap ${Math.round(await stopFrameGaps(page))} ms; tab peak ${mb(peak())}  load ${load()}`);
  if (copyMs === null) failures.push('Ctrl+C: no answer');

  await page.keyboard.press('Escape');
  return lines;
}

/**
 * MILLION_COPY_COLUMN (bench/million-rows.mjs): column C's header clicked and Ctrl+C pressed on the
 * open windowed sheet of `rows` rows (the clipboard granted), as a user copies a whole column: the
 * time until the clipboard holds it (the grid's status gone: copyColumns resolves once written), the
 * longest frame gap and the tab's peak meanwhile; then the clipboard's text checked against column
 * C's values (row r holds r % 100: bench/million-rows.mjs's CSV) — read after the figures, its
 * reading allocates the text again in the page. With `heapProfile` (MILLION_HEAP) the JS heap before
 * (after a GC), when written, and a sampling profile of what the copy allocated still alive then.
 * Returns the lines to print (failures pushed to `failures`).
 */
export async function copyColumnOp(page, { rows, tabBytes, heapProfile, failures, timeoutMs = Number(process.env.WHOLE_COLUMN_TIMEOUT_MS ?? 300_000) }) {
  const lines = [];
  const grid = page.getByTestId('sheet-grid');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // A cell first, as a user working in the grid: a header's click leaves the focus where it was (the
  // navigator's button the sheet was opened with), and Handsontable ignores a copy event aimed there.
  await grid.locator('.ht_master td').nth(3).click();
  await grid.locator('.ht_clone_top thead th', { hasText: /^c$/i }).first().click();
  await startFrameGaps(page);
  const peak = peakOf(tabBytes);
  const heapBefore = heapProfile ? await heapProfile.start() : null;
  const before = tabBytes();
  // MILLION_HEAP: the JS heap's largest size while copying (polled through CDP: a busy page answers late).
  let heapMax = 0;
  let polling = !!heapProfile;
  const heapPoll = (async () => {
    while (polling) {
      heapMax = Math.max(heapMax, (await heapProfile.used()) ?? 0);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const t0 = Date.now();
  await page.keyboard.press('Control+c');
  const { ms: copyMs, text: copyText } = await untilRead(page, t0, timeoutMs);
  polling = false;
  await heapPoll;
  const heapAtCopied = heapProfile ? await heapProfile.stop() : null;
  const gap = await stopFrameGaps(page);
  const tabPeak = peak();
  const peakAt = peak.at();
  const copyLoad = load();
  // The text exactly: column C of every row, by line breaks, none after the last.
  const check = await page.evaluate(
    (rows) =>
      navigator.clipboard.readText().then(
        (text) => {
          const expected = Array.from({ length: rows }, (_, r) => String(r % 100)).join('\n');
          return { length: text.length, same: text === expected };
        },
        (e) => ({ length: null, same: false, error: e.message }),
      ),
    rows,
  );
  if (copyMs === null) failures.push('Ctrl+C of column C: no answer');
  if (copyText) failures.push(`Ctrl+C of column C: "${copyText}"`);
  if (!check.same) failures.push(`Ctrl+C of column C: the clipboard does not hold column C (${check.error ?? `${check.length} characters`})`);
  lines.push(`column C's header, Ctrl+C on ${rows.toLocaleString('en-US')} rows → ${check.same ? `column C on the clipboard (${check.length} characters, exact)` : 'NOT column C'}: ${copyMs === null ? 'FAILED' : s(copyMs)}; longest frame gap ${Math.round(gap)} ms; tab ${mb(before)} before, peak ${mb(tabPeak)} at ${s(peakAt)} after the key  load ${copyLoad}`);
  if (heapProfile) {
    const retained = await heapProfile.after();
    lines.push(`heap (MILLION_HEAP): JS heap before the copy (after a GC) ${mb(heapBefore)}; largest while copying ${mb(heapMax)}; when on the clipboard ${mb(heapAtCopied.used)}; after a GC ${mb(retained)} (tab ${mb(tabBytes())} resident)  load ${load()}`);
    lines.push(`what the copy allocated that was still alive when on the clipboard (sampling heap profile):\n${heapAtCopied.summary}`);
  }
  await page.keyboard.press('Escape');
  return lines;
}

/**
 * MILLION_COPY_ALL (bench/million-rows.mjs): Ctrl+A then Ctrl+C on the open windowed sheet of `rows`
 * rows (every column: the clipboard granted), then Ctrl+A then Ctrl+X, as a user copies and cuts the
 * whole sheet: for each, the time until the grid's status ends (read, text built and written; a Cut's
 * cells_clear sent), the longest frame gap, the tab's peak meanwhile (the figure issue 23 bounds at
 * 600 MB), and the clipboard's length; after the Cut, column C's cells of the last window checked
 * empty on the server (`cellsOfColumn`), then Ctrl+Z and the same cells checked back (the Cut's undo
 * step kept the values). Returns the lines to print (failures pushed to `failures`).
 */
export async function copyAllOps(page, { rows, tabBytes, cellsOfColumn, failures, timeoutMs = Number(process.env.WHOLE_COLUMN_TIMEOUT_MS ?? 300_000) }) {
  const lines = [];
  const grid = page.getByTestId('sheet-grid');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const clipboardLength = () => page.evaluate(() => navigator.clipboard.readText().then((t) => t.length, (e) => `clipboard not read: ${e.message}`));
  for (const key of ['Control+c', 'Control+x']) {
    await grid.locator('.ht_master td').nth(3).click();
    await page.keyboard.press('Control+a');
    await startFrameGaps(page);
    const before = tabBytes();
    const peak = peakOf(tabBytes);
    const t0 = Date.now();
    await page.keyboard.press(key);
    const { ms: doneMs, text } = await untilRead(page, t0, timeoutMs);
    const gap = await stopFrameGaps(page);
    const tabPeak = peak();
    const peakAt = peak.at();
    const opLoad = load();
    const copied = text === '' ? await clipboardLength() : null;
    lines.push(`Ctrl+A, ${key === 'Control+c' ? 'Ctrl+C' : 'Ctrl+X'} on ${rows.toLocaleString('en-US')} rows → ${text ? `"${text.slice(0, 90)}"` : `${copied} characters on the clipboard`}: read and built ${doneMs === null ? 'FAILED' : s(doneMs)}; longest frame gap ${Math.round(gap)} ms; tab ${mb(before)} before, peak ${mb(tabPeak)} at ${s(peakAt)} after the key  load ${opLoad}`);
    if (doneMs === null || text) failures.push(`Ctrl+A, ${key}: ${text || 'no answer'}`);
    await page.keyboard.press('Escape');
  }
  // The Cut's clear reached the server, then its undo brings the values back.
  const last = rows - 5_000;
  const heldAt = async () => (await cellsOfColumn(last)).filter((v) => v !== null && v !== undefined && v !== '').length;
  const t0 = Date.now();
  const cleared = await until(async () => (await heldAt()) === 0, t0, timeoutMs);
  if (cleared === null) failures.push('Ctrl+X: column C of the last rows not cleared on the server');
  await grid.locator('.ht_master td').nth(3).click();
  const peak = peakOf(tabBytes);
  const t1 = Date.now();
  await page.keyboard.press('Control+z');
  // At most 2 minutes: the undo of ten million cells is its own matter (its figure, not its end, is what this prints).
  const back = await until(async () => (await heldAt()) === 5_000, t1, Math.min(timeoutMs, 120_000));
  if (back === null) failures.push('Ctrl+Z after Ctrl+X: column C of the last rows not back on the server');
  lines.push(`then Ctrl+Z → column C of the last 5,000 rows back on the server: ${back === null ? 'FAILED' : s(back)}; tab peak ${mb(peak())}  load ${load()}`);
  return lines;
}
