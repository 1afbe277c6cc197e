// Issue 23: a sheet replaced while a windowed page shows it. A 1,000,000 × 10 sheet (argument 2 for
// another row count) is imported through the product, one cell of its first row edited (B1 →
// "edited"), and opened windowed in Debian's Chromium; then the same member restores the imported
// version through the api (POST /sheets/:id/snapshots/1/restore, as the History panel does), which
// sends everyone on the sheet a live `sync`. Prints the largest socket frame the page received, the
// time until the page shows the restored cell (B1 back to "m0"), the tab's peak resident size and JS
// heap while it happened, the api's peak resident size over the restore (its high-water mark reset
// just before), and what failed (a crashed tab, a page error). Then the sync alone, without the
// restore's own cost: a second socket of the member (this process's, connected as a windowed page
// does: `?grid=windowed`) sends a reload_request, which gives everyone on the sheet a sync; the
// same figures for it. Load average beside every figure.
// Runs the built product on the default ports + 900 (argument 1; BENCH_PORT_BASE for a port range).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { productApi } from './support/product-api.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { jsHeapUsed, launchChromium } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { importCsv } from './support/import-csv.mjs';
import { signInPage } from './support/sign-in-page.mjs';
import { requireFromApi } from './support/built-api.mjs';
import { rendererRss, statusKb } from './support/proc-stats.mjs';

const { WebSocket } = createRequire(requireFromApi.resolve('@fastify/websocket'))('ws');

const ports = benchPorts(Number(process.argv[2] ?? 900));
const rows = Number(process.argv[3] ?? 1_000_000);
const base = `http://localhost:${ports.shell}`;
const user = { username: 'bench-sync', password: 'bench sync password' };
const TIMEOUT_MS = 180_000;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const mb = (bytes) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const api = productApi(base);

function csv(count) {
  const parts = ['a,b,c,d,e,f,g,h,i,j\n'];
  for (let r = 0; r < count; r++) {
    const m = r % 100;
    parts.push(`${r},m${r},${m},${(m + 1) % 100},${(m + 2) % 100},${(m + 3) % 100},${(m + 4) % 100},${(m + 5) % 100},${(m + 6) % 100},${(m + 7) % 100}\n`);
  }
  return parts.join('');
}

const stack = await startProductStack(ports, 'tessera-bench-sync-');
const apiPid = stack.processes.find((p) => p.name === 'api').pid;
let browser;
try {
  browser = await launchChromium();
  await api('/auth/signup', { method: 'POST', body: user });
  const { access_token: token } = await api('/auth/login', { method: 'POST', body: user });
  const small = await api('/sheets', { method: 'POST', token, body: { name: 'small', headers: ['a'], data: [['s0']] } });
  const text = csv(rows);
  const sheet = await importCsv(base, token, `${rows} rows`, text);
  console.log(`imported ${rows} × 10 (${mb(Buffer.byteLength(text))} CSV) in ${s(sheet.ms)}  load ${load()}`);
  const { version } = await api(`/sheets/${sheet.id}/rows?start=0&count=1`, { token });
  await api(`/sheets/${sheet.id}/cells`, { method: 'PATCH', token, body: { base_version: version, changes: [{ row: 0, col: 1, value: 'edited' }] } });

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const failures = [];
  let watching = false;
  page.on('crash', () => failures.push('the tab crashed'));
  page.on('pageerror', (err) => watching && failures.push(`page error: ${err.message.slice(0, 200)}`));
  page.on('console', (msg) => watching && msg.type() === 'error' && failures.push(`console error: ${msg.text().slice(0, 200)}`));
  // The sheet socket's frames as the page received them (the largest is the sync).
  const received = [];
  const sockets = [];
  page.on('websocket', (ws) => {
    sockets.push(ws.url());
    ws.on('framereceived', (f) => watching && received.push(typeof f.payload === 'string' ? Buffer.byteLength(f.payload) : f.payload.length));
  });
  await signInPage(page, base, user);
  const grid = page.getByTestId('sheet-grid');
  await page.getByTestId(`sheet-${small.id}`).getByRole('button').first().click();
  await grid.locator('td', { hasText: /^s0$/ }).first().waitFor({ timeout: 60_000 });
  await page.getByTestId(`sheet-${sheet.id}`).getByRole('button').first().click();
  await grid.locator('td', { hasText: /^edited$/ }).first().waitFor({ timeout: TIMEOUT_MS });
  const windowed = await page.evaluate(() => document.querySelector('[data-testid="sheet-grid"]')?.getAttribute('data-windowed') === 'on');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  console.log(`opened windowed: ${windowed}; JS heap ${mb(await jsHeapUsed(cdp))} (after a GC), tab ${mb(rendererRss(process.pid))} resident  load ${load()}; sockets ${sockets.map((u) => new URL(u).pathname + new URL(u).search.replace(/token=[^&]*/, '')).join(', ')}`);

  // The sync alone (first: the api has not grown for a restore yet): a reload_request from another socket of the member.
  await cdp.send('HeapProfiler.collectGarbage');
  const heap2 = await jsHeapUsed(cdp);
  const tab2 = rendererRss(process.pid);
  writeFileSync(`/proc/${apiPid}/clear_refs`, '5');
  const api2 = statusKb(apiPid, 'VmRSS');
  watching = true;
  let tabPeak = tab2;
  let heapPeak = heap2;
  const sampler2 = setInterval(() => {
    tabPeak = Math.max(tabPeak, rendererRss(process.pid));
    void jsHeapUsed(cdp).then((h) => (heapPeak = Math.max(heapPeak, h ?? 0)), () => {});
  }, 100);
  let t0 = Date.now();
  const other = new WebSocket(`ws://127.0.0.1:${ports.api}/sheets/${sheet.id}?token=${encodeURIComponent(token)}&grid=windowed`);
  let otherSync = null;
  await new Promise((resolve, reject) => {
    other.on('message', (raw) => {
      for (const f of [JSON.parse(String(raw))].flat()) {
        if (f.type === 'access') {
          t0 = Date.now();
          other.send(JSON.stringify({ type: 'reload_request', sheet_id: sheet.id }));
        }
        if (f.type === 'sync') {
          otherSync = { bytes: raw.length, ms: Date.now() - t0, cells: f.data.data !== undefined };
          resolve();
        }
      }
    });
    other.on('error', reject);
  });
  await new Promise((r) => setTimeout(r, 5_000));
  clearInterval(sampler2);
  other.close();
  const largest2 = received.length ? Math.max(...received) : 0;
  console.log(`reload_request from another socket of the member (everyone on the sheet gets a sync):`);
  console.log(`  that socket's sync: ${mb(otherSync.bytes)}${otherSync.cells ? ' with the cells' : ' without the cells'} after ${s(otherSync.ms)}  load ${load()}`);
  console.log(`  page: socket frames received ${received.length}, largest ${mb(largest2)}; tab ${mb(tab2)} → peak ${mb(tabPeak)} resident; JS heap ${mb(heap2)} → peak ${mb(heapPeak)}`);
  console.log(`  api: ${mb(api2)} resident before, peak ${mb(statusKb(apiPid, 'VmHWM'))} over the sync  load ${load()}`);
  console.log(`  failures: ${failures.length ? [...new Set(failures)].join(' | ') : 'none'}`);

  // The api's peak from here on: its high-water mark reset (Linux clear_refs 5).
  await cdp.send('HeapProfiler.collectGarbage');
  const heapBefore = await jsHeapUsed(cdp);
  const tabBefore = rendererRss(process.pid);
  writeFileSync(`/proc/${apiPid}/clear_refs`, '5');
  const apiBefore = statusKb(apiPid, 'VmRSS');
  failures.length = 0;
  received.length = 0;
  tabPeak = tabBefore;
  heapPeak = heapBefore;
  const sampler = setInterval(() => {
    tabPeak = Math.max(tabPeak, rendererRss(process.pid));
    void jsHeapUsed(cdp).then((h) => (heapPeak = Math.max(heapPeak, h ?? 0)), () => {});
  }, 100);
  t0 = Date.now();
  let shownMs = null;
  try {
    await api(`/sheets/${sheet.id}/snapshots/1/restore`, { method: 'POST', token });
    const restoreMs = Date.now() - t0;
    console.log(`restore answered in ${s(restoreMs)}  load ${load()}`);
    await grid.locator('td', { hasText: /^m0$/ }).first().waitFor({ timeout: TIMEOUT_MS });
    shownMs = Date.now() - t0;
  } catch (err) {
    failures.push(`restored cell not shown after ${s(Date.now() - t0)}: ${err.message.split('\n')[0]}`);
  }
  // Frames still arriving after the cell showed are counted too.
  await new Promise((r) => setTimeout(r, 2_000));
  clearInterval(sampler);
  const apiPeak = statusKb(apiPid, 'VmHWM');
  let heapAfter = null;
  try {
    heapAfter = await jsHeapUsed(cdp);
  } catch (err) {
    failures.push(`heap not read: ${err.message.split('\n')[0]}`);
  }
  const largest = received.length ? Math.max(...received) : 0;
  console.log(`restore of version 1 while the page shows the sheet windowed (${rows} × 10):`);
  console.log(`  restore → B1 shows "m0" again: ${shownMs === null ? 'FAILED' : s(shownMs)}  load ${load()}`);
  console.log(`  socket frames received: ${received.length}, largest ${mb(largest)}, total ${mb(received.reduce((a, b) => a + b, 0))}`);
  console.log(`  tab: ${mb(tabBefore)} → peak ${mb(tabPeak)} resident; JS heap ${mb(heapBefore)} → peak ${mb(heapPeak)}, ${heapAfter === null ? '?' : mb(heapAfter)} after`);
  console.log(`  api: ${mb(apiBefore)} resident before, peak ${mb(apiPeak)} over the restore and its sync  load ${load()}`);
  console.log(`  failures: ${failures.length ? [...new Set(failures)].join(' | ') : 'none'}`);

  await context.close();
} finally {
  await browser?.close();
  await stack.stop();
}
