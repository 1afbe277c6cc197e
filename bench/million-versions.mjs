// Figures of issue 23 for versions of a windowed sheet: a 1,000,000 × 10 sheet (10M cells, the cap)
// and a 300,000 × 10 one, imported through POST /api/v1/import, edited by a second user, then used
// as a user would in Debian's Chromium: the version panel (Timeline) opened, an older version
// previewed (click → its first rows; the preview's row scroll bar to its end and to its middle → the
// rows drawn), a cell's history (context menu → its entries), and that version restored while the
// second user has the sheet open (confirm → the restored cell shown in both tabs). Before the
// browser, the api's side: GET …/versions/:v/rows windows at the top, end and middle of another
// version (the first one rebuilds it; the others show whether it was kept) and GET …/cells/:r/:c/history,
// again at the end after the second user removed STRUCTURE_OPS rows (5; whole-grid ops, each read twice by a cell's history);
// last, a proposal of the second user's and its preview's windows (GET …/versions/{proposal}/rows).
// With each step: the tab's JS heap and resident size, the api's resident and peak size, the load average.
// The cells are short strings (the CSV stays under the 50 MB import limit) so that the stored rows
// of the 1,000,000-row sheet pass 64M characters (~74M).
// Runs the whole built product on the default ports + 900 (argument 1; BENCH_PORT_BASE: consecutive
// ports from it) with a fresh data folder; argument 2: the largest sheet, in rows.
import os from 'node:os';
import { productApi } from './support/product-api.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { jsHeapUsed, launchChromium } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { importCsv } from './support/import-csv.mjs';
import { signInPage } from './support/sign-in-page.mjs';
import { jumpInPage } from './support/row-scrollbar-jump.mjs';
import { cpuMs, rendererRss, statusKb } from './support/proc-stats.mjs';
import { liveClient } from './support/live-socket.mjs';

const ports = benchPorts(Number(process.argv[2] ?? 900));
const base = `http://localhost:${ports.shell}`;
const owner = { username: 'bench-versions', password: 'bench versions password' };
const member = { username: 'bench-versions-2', password: 'bench versions member password', nickname: 'Second' };
const STEP_TIMEOUT_MS = 180_000;
/** Rows removed (one op each) before the last cell history read. */
const STRUCTURE_OPS = Number(process.env.STRUCTURE_OPS ?? 5);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const s = (x) => (x === null ? 'FAILED' : `${(x / 1000).toFixed(2)} s`);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const api = productApi(base);

/** Column A `a{r}`, B `{tag}{r}` (unique to the sheet), C–J three or four letters: all strings. */
function csv(tag, rows) {
  const parts = ['a,b,c,d,e,f,g,h,i,j\n'];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let r = 0; r < rows; r++) {
    const cells = [`a${r}`, `${tag}${r}`];
    for (let c = 2; c < 10; c++) {
      const k = r * 7 + c * 13;
      cells.push(letters[k % 26] + letters[(k >> 2) % 26] + letters[(k >> 4) % 26] + (c % 2 ? letters[(k >> 6) % 26] : ''));
    }
    parts.push(`${cells.join(',')}\n`);
  }
  return parts.join('');
}


const stack = await startProductStack(ports, 'tessera-bench-million-versions-');
const apiPid = stack.processes.find((p) => p.name === 'api').pid;
let browser;
try {
  browser = await launchChromium();
  await api('/auth/signup', { method: 'POST', body: owner });
  const { access_token: token, user: ownerUser } = await api('/auth/login', { method: 'POST', body: owner });
  const second = await api('/users', { method: 'POST', token, body: { ...member, role: 'user' } });
  const { access_token: memberToken } = await api('/auth/login', { method: 'POST', body: { username: member.username, password: member.password } });
  const small = await api('/sheets', { method: 'POST', token, body: { name: 'small', headers: ['a'], data: [['s0']] } });
  const sizes = [
    { label: '300,000 × 10', rows: 300_000, tag: 't' },
    { label: '1,000,000 × 10', rows: 1_000_000, tag: 'm' },
  ].filter((x) => x.rows <= Number(process.argv[3] ?? 1_000_000));

  /** One GET through the api, timed, with the api's CPU for it. */
  async function timed(pathname, auth = token) {
    const cpu0 = cpuMs(apiPid);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1${pathname}`, { headers: { Authorization: `Bearer ${auth}` } });
    const text = await res.text();
    return { ms: performance.now() - t0, cpu: cpuMs(apiPid) - cpu0, status: res.status, text };
  }
  const apiMem = () => `api ${mb(statusKb(apiPid, 'VmRSS'))} resident, peak ${mb(statusKb(apiPid, 'VmHWM'))}`;
  const lines = [];
  const say = (line) => {
    console.log(line);
    lines.push(line);
  };

  for (const size of sizes) {
    const text = csv(size.tag, size.rows);
    const imported = await importCsv(base, token, size.label, text);
    size.id = imported.id;
    say(`\n== ${size.label} (${mb(Buffer.byteLength(text))} CSV) imported in ${s(imported.ms)}  ${apiMem()}  load ${load()}`);
    await api(`/sheets/${size.id}/access`, { method: 'PUT', token, body: { entries: [{ user_id: ownerUser.id, level: 'owner' }, { user_id: second.id, level: 'editor' }] } });
    // The second user's edits: B1 (so a preview of version 1 differs at its first row), a cell at the end and one in the middle.
    let { version } = await api(`/sheets/${size.id}/rows?start=0&count=1`, { token: memberToken });
    for (const change of [{ row: 0, col: 1, value: 'edited-first' }, { row: size.rows - 1, col: 1, value: 'edited-last' }, { row: size.rows >> 1, col: 2, value: 'edited-middle' }]) {
      ({ version } = await api(`/sheets/${size.id}/cells`, { method: 'PATCH', token: memberToken, body: { base_version: version, changes: [change] } }));
    }

    // The api's side, on version 2 (the browser previews version 1, not kept by these reads).
    const windows = [];
    for (const [name, start] of [['top', 0], ['end', size.rows - 500], ['middle', size.rows >> 1], ['top again', 0]]) {
      const r = await timed(`/sheets/${size.id}/versions/2/rows?start=${start}&count=500${start === 0 && name === 'top' ? '&summary=1' : ''}`);
      if (r.status !== 200) throw new Error(`version rows at ${start}: ${r.status} ${r.text.slice(0, 200)}`);
      windows.push(`${name} ${s(r.ms)} (api CPU ${s(r.cpu)})`);
    }
    say(`GET …/versions/2/rows, 500-row windows one after another: ${windows.join(', ')}  ${apiMem()}  load ${load()}`);
    const hist = await timed(`/sheets/${size.id}/cells/0/1/history`);
    say(`GET …/cells/0/1/history: ${s(hist.ms)} (api CPU ${s(hist.cpu)}), ${hist.status === 200 ? `${JSON.parse(hist.text).changes.length} changes` : `${hist.status} ${hist.text.slice(0, 120)}`}  ${apiMem()}  load ${load()}`);

    // The browser: the owner's tab.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const failures = [];
    page.on('crash', () => failures.push('the tab crashed'));
    page.on('pageerror', (err) => failures.push(`page error: ${err.message.slice(0, 200)}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const tabMem = async () => `JS heap ${mb((await jsHeapUsed(cdp)) ?? 0)}, tabs ${mb(rendererRss(process.pid))} resident`;
    /** Runs a step: its figure (or FAILED) with the memory and load after it. */
    async function step(name, fn) {
      const t0 = Date.now();
      let figure;
      try {
        figure = await fn(t0);
      } catch (err) {
        failures.push(`${name}: ${err.message.split('\n')[0]}`);
        figure = `FAILED after ${s(Date.now() - t0)}`;
      }
      say(`${name}: ${figure}; ${await tabMem().catch(() => 'tab memory ?')}; ${apiMem()}  load ${load()}`);
    }
    await signInPage(page, base, owner);
    const grid = page.getByTestId('sheet-grid');
    const cellB = (text) => grid.locator('.ht_master td', { hasText: new RegExp(`^${text}$`) }).first();
    await page.getByTestId(`sheet-${small.id}`).getByRole('button').first().click();
    await cellB('s0').waitFor({ timeout: 60_000 });
    await step('open the sheet (click → first rows)', async (t0) => {
      await page.getByTestId(`sheet-${size.id}`).getByRole('button').first().click();
      await cellB('edited-first').waitFor({ timeout: STEP_TIMEOUT_MS });
      return s(Date.now() - t0);
    });
    const panel = page.getByTestId('timeline-panel');
    await step('the version panel (Timeline → its entries)', async (t0) => {
      await page.getByTestId('timeline-menu').click();
      await panel.getByTestId('timeline-entry').first().waitFor({ timeout: STEP_TIMEOUT_MS });
      return `${s(Date.now() - t0)}, ${await panel.getByTestId('timeline-entry').count()} entries`;
    });
    await step('preview #1 (click → its first rows)', async (t0) => {
      await panel.getByRole('button', { name: 'Preview #1' }).click();
      await cellB(`${size.tag}0`).waitFor({ timeout: STEP_TIMEOUT_MS });
      const banner = (await page.getByTestId('preview-banner').textContent()) ?? '';
      return `${s(Date.now() - t0)}; the banner reads "${banner.replace(/\s+/g, ' ').trim()}"`;
    });
    for (const [name, fraction] of [['its end', 1], ['its middle', 0.5], ['a quarter', 0.25]]) {
      await step(`preview: the row scroll bar to ${name} → rows drawn`, async () => {
        const target = Math.round(fraction * (size.rows - 1));
        return s(await page.evaluate(jumpInPage, { fraction, target, tag: size.tag }));
      });
    }
    await page.getByTestId('preview-banner').getByRole('button', { name: 'Exit Preview' }).click();
    await page.getByTestId('preview-banner').waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
    await page.evaluate(jumpInPage, { fraction: 0, target: 1, tag: size.tag }).catch(() => {});
    await step('cell history of B1 (context menu → its entries)', async (t0) => {
      await cellB('edited-first').click({ button: 'right' });
      await page.locator('.htContextMenu').getByText('Cell history', { exact: true }).click();
      const dialog = page.getByTestId('cell-history');
      await dialog.getByTestId('cell-history-entry').first().waitFor({ timeout: STEP_TIMEOUT_MS });
      const n = await dialog.getByTestId('cell-history-entry').count();
      const figure = `${s(Date.now() - t0)}, ${n} entries, the first "${((await dialog.getByTestId('cell-history-entry').first().textContent()) ?? '').trim()}"`;
      await dialog.getByRole('button', { name: 'Close' }).click();
      return figure;
    });

    // The second user's tab, on the sheet, while the owner restores version 1.
    const other = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const otherPage = await other.newPage();
    otherPage.on('crash', () => failures.push("the second user's tab crashed"));
    await signInPage(otherPage, base, { username: member.username, password: member.password });
    await otherPage.getByTestId(`sheet-${size.id}`).getByRole('button').first().click();
    const otherGrid = otherPage.getByTestId('sheet-grid');
    await otherGrid.locator('.ht_master td', { hasText: /^edited-first$/ }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const otherCdp = await other.newCDPSession(otherPage);
    await otherCdp.send('Performance.enable');
    const otherRequests = [];
    otherPage.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.includes('/sheets/')) otherRequests.push(`${req.method()} ${url.pathname.split('/').slice(5).join('/')}${url.search}`);
    });
    await step('restore #1 while the second user has the sheet open (confirm → B1 restored in the owner\'s tab; in the other\'s)', async (t0) => {
      await page.getByTestId('timeline-menu').click();
      await panel.getByRole('button', { name: 'Restore #1' }).click();
      const posted = page.waitForResponse((r) => r.url().endsWith('/snapshots/1/restore'), { timeout: STEP_TIMEOUT_MS }).then((r) => `${r.status()} after ${s(Date.now() - t0)}`, () => 'no answer');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
      const mine = cellB(`${size.tag}0`).waitFor({ timeout: STEP_TIMEOUT_MS }).then(() => Date.now() - t0);
      const theirs = otherGrid.locator('.ht_master td', { hasText: new RegExp(`^${size.tag}0$`) }).first().waitFor({ timeout: STEP_TIMEOUT_MS }).then(() => Date.now() - t0, (err) => {
        failures.push(`the second user's tab: ${err.message.split('\n')[0]}`);
        return null;
      });
      const [a, b, answer] = await Promise.all([mine, theirs, posted]);
      const alerts = await page.getByRole('alert').allTextContents().catch(() => []);
      const otherHeap = await otherCdp.send('Performance.getMetrics').then(({ metrics }) => mb(metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0), () => '?');
      return `POST …/restore ${answer}; owner's B1 ${s(a)}, second user's ${s(b)} (their JS heap ${otherHeap}; their requests: ${otherRequests.join(', ') || 'none'})${alerts.length ? `; alerts: ${alerts.join(' | ')}` : ''}`;
    });
    await other.close();
    await context.close();

    // Whole-grid ops in a cell's history: the second user removes the last row STRUCTURE_OPS times
    // over a live socket (each a version with no cell deltas), then B1's history is read again.
    const { version: now } = await api(`/sheets/${size.id}/rows?start=0&count=1`, { token: memberToken });
    const socket = await liveClient(`http://localhost:${ports.api}`, size.id, memberToken, now);
    for (let i = 0; i < STRUCTURE_OPS; i++) await socket.op('rows_remove', size.rows - 1 - i);
    socket.close();
    const histAfter = await timed(`/sheets/${size.id}/cells/0/1/history`);
    say(`GET …/cells/0/1/history after ${STRUCTURE_OPS} rows removed (whole-grid ops): ${s(histAfter.ms)} (api CPU ${s(histAfter.cpu)}), ${histAfter.status === 200 ? `${JSON.parse(histAfter.text).changes.length} changes` : `${histAfter.status} ${histAfter.text.slice(0, 120)}`}  ${apiMem()}  load ${load()}`);
    // A proposal of the second user's (one cell on the live version), then its preview's windows.
    let t0 = performance.now();
    const proposal = await api(`/sheets/${size.id}/versions`, { method: 'POST', token: memberToken, body: { changes: [{ row: 5, col: 3, value: 'proposed' }] } });
    const proposeMs = performance.now() - t0;
    const proposalWindows = [];
    for (const [name, start] of [['top', 0], ['end', size.rows - STRUCTURE_OPS - 500], ['middle', size.rows >> 1], ['top again', 0]]) {
      const r = await timed(`/sheets/${size.id}/versions/${proposal.version_id}/rows?start=${start}&count=500`);
      if (r.status !== 200) throw new Error(`proposal rows at ${start}: ${r.status} ${r.text.slice(0, 200)}`);
      proposalWindows.push(`${name} ${s(r.ms)} (api CPU ${s(r.cpu)})`);
    }
    say(`POST …/versions (a proposal of one cell): ${s(proposeMs)}; its 500-row windows one after another: ${proposalWindows.join(', ')}  ${apiMem()}  load ${load()}`);
    say(`  failures: ${failures.length ? [...new Set(failures)].join(' | ') : 'none'}`);
  }
  console.log('\n== summary ==');
  for (const line of lines) console.log(line);
} finally {
  await browser?.close();
  await stack.stop();
}
