// Figures of issue 20 (charts), in Debian's Chromium on the built product:
// - JS of the main screen with a sheet open that has no chart, and what a chart adds (the lazy
//   chart chunks): a sheet without a chart must load none of it;
// - render of a 10,000-point line chart (from the server's answer to the drawn line);
// - the chart's update after a cell edit (from the Enter key to the line redrawn).
// Starts its own stack on the default ports + 760 (argument 1 to change it; argument 2: the points,
// 10,000 unless given) with a fresh data folder.
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { productApi } from './support/product-api.mjs';
import { DEFAULT_PORTS } from '../scripts/lib/stack.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { launchChromium } from './support/chromium.mjs';

const offset = Number(process.argv[2] ?? 760);
const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + offset]));
const stack = await startProductStack(ports, 'tessera-charts-bench-');

const POINTS = Number(process.argv[3] ?? 10_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => `${x.toFixed(1)} ms`;
const base = `http://localhost:${ports.shell}`;
const user = { username: 'bench-charts', password: 'bench-charts-password' };

const api = productApi(base);

const browser = await launchChromium();
try {
  await api('/auth/signup', { method: 'POST', body: user });
  const { access_token: token } = await api('/auth/login', { method: 'POST', body: user });
  const plain = await api('/sheets', { method: 'POST', token, body: { name: 'Plain', headers: ['Item', 'Cost'], data: [['Rent', 1200], ['Food', 300]] } });
  const series = Array.from({ length: POINTS }, (_, i) => [i + 1, Math.round(1000 + 500 * Math.sin(i / 150) + (i % 97))]);
  const big = await api('/sheets', { method: 'POST', token, body: { name: 'Ten thousand points', headers: ['Day', 'Value'], data: series } });

  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  let scripts = new Map();
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script' && !res.url().endsWith('.js')) return;
    try {
      const body = await res.body();
      scripts.set(res.url(), gzipSync(body, { level: 6 }).length);
    } catch {
      /* redirects have no body */
    }
  });
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB gz`;
  const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);

  // Signed in, a sheet without a chart open: every JS file of the main screen.
  await page.goto(`${base}/login`);
  await page.getByLabel(/^username/i).fill(user.username);
  await page.getByLabel(/^password/i).fill(user.password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
  const open = async (id) => {
    await page.getByTestId(`row-sheet-${id}`).getByRole('button').first().click();
    await page.getByTestId('sheet-grid').waitFor();
  };
  await open(plain.id);
  await page.waitForLoadState('networkidle');
  const before = new Map(scripts);
  console.log(`charts: main screen with a sheet without a chart: ${kb(total(before))} of JS in ${before.size} files`);

  // The 10k sheet, its first chart inserted through the dialog: what that adds.
  scripts = new Map();
  await open(big.id);
  await page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').first().locator('td').first().click();
  const insert = async () => {
    await page.getByTestId('insert-chart').click();
    const dialog = page.getByTestId('insert-chart-dialog');
    await dialog.getByTestId('chart-range').fill(`A1:B${POINTS}`);
    await dialog.getByTestId('chart-type').selectOption('line');
    await dialog.getByTestId('chart-title').fill('Ten thousand points');
    const t0 = Date.now();
    await dialog.getByTestId('chart-insert').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="chart-frame"] .recharts-line-curve'), null, { timeout: 180_000, polling: 200 });
    console.log(`charts: first chart inserted and drawn (chart code fetched, cold): ${Date.now() - t0} ms from the click`);
  };
  await insert();
  await page.waitForLoadState('networkidle');
  const added = new Map(scripts);
  const chartFiles = [...added.keys()].filter((url) => !before.has(url));
  const chartBytes = chartFiles.reduce((sum, url) => sum + added.get(url), 0);
  console.log(`charts: JS added by the first chart (lazy): ${kb(chartBytes)} in ${chartFiles.length} files`);
  for (const url of chartFiles) console.log(`  ${kb(added.get(url)).padStart(12)}  ${new URL(url).pathname}`);
  const chartCodeBefore = chartFiles.filter((url) => before.has(url)).length;
  console.log(`charts: chart files among the ${before.size} of the screen without a chart: ${chartCodeBefore} (0 bytes of chart code before a chart is shown)`);

  // Render: from the server's answer to a chart change (the Edit dialog's Save) to the line in the
  // DOM. Each save also changes the range, by one blank row past the data (A1:B10001, A1:B10000,
  // ...): the same 10,000 points, but a new range is read whole and the whole chart drawn again
  // from its points (a chart keeps its data while its range is the same: a title alone would not).
  const renders = [];
  for (let i = 0; i < 5; i++) {
    const watch = page.evaluate(
      () =>
        new Promise((resolve) => {
          const title = document.querySelector('[data-testid="chart-title-text"]');
          const start = { answered: 0 };
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (e.name.includes('/charts/') && e.initiatorType !== 'other') start.answered = e.responseEnd;
          }).observe({ type: 'resource' });
          const seen = title.textContent;
          const check = () => {
            const line = document.querySelector('[data-testid="chart-frame"] .recharts-line-curve');
            if (document.querySelector('[data-testid="chart-title-text"]').textContent !== seen && line) {
              // The resource entry is delivered a little after the response: wait for it, then subtract.
              const drawn = performance.now();
              const finish = () => (start.answered ? resolve(drawn - start.answered) : setTimeout(finish, 5));
              finish();
              return true;
            }
            return false;
          };
          const obs = new MutationObserver(() => check() && obs.disconnect());
          obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        }),
    );
    await page.getByTestId('chart-menu').click();
    await page.getByTestId('chart-edit').click();
    const dialog = page.getByTestId('insert-chart-dialog');
    await dialog.getByTestId('chart-range').fill(`A1:B${POINTS + (i % 2 === 0 ? 1 : 0)}`);
    await dialog.getByTestId('chart-title').fill(`Ten thousand points (${i + 1})`);
    await dialog.getByTestId('chart-insert').click();
    renders.push(await watch);
    await dialog.waitFor({ state: 'detached' });
  }
  console.log(`charts: render of a ${POINTS.toLocaleString('en')}-point line chart (server answer → line drawn): median ${fmt(median(renders))} of ${renders.length} (${renders.map(fmt).join(', ')}); target ≤ 200 ms`);

  // Update after a cell edit: from the Enter that commits the value to the line's path redrawn.
  // The chart's box sits over the first rows of column B (placed when the dialog opened on A1): a
  // click there lands on the chart. The cells edited are plotted ones of column B below the box,
  // inside the grid's visible area (the range is all 10,000 rows).
  const updates = [];
  const rows = page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr');
  const cell = (row) => rows.nth(row).locator('td').nth(1);
  const frameBox = await page.getByTestId('chart-frame').boundingBox();
  const gridBox = await page.getByTestId('sheet-grid').boundingBox();
  const free = [];
  for (let r = 0, n = await rows.count(); r < n && free.length < 7; r++) {
    const box = await cell(r).boundingBox();
    const underChart = box && box.x < frameBox.x + frameBox.width && box.x + box.width > frameBox.x && box.y < frameBox.y + frameBox.height;
    if (box && !underChart && box.y + box.height < gridBox.y + gridBox.height - 20) free.push(r);
  }
  if (free.length < 7) throw new Error(`only ${free.length} plotted cells of column B are visible outside the chart's box`);
  console.log(`charts: cells edited: B${free[0] + 1}…B${free.at(-1) + 1} (outside the chart's box)`);
  for (const [i, row] of free.entries()) {
    await cell(row).click();
    await page.keyboard.type(String(5000 + i * 700));
    // The watch is in place in the page before the Enter (an evaluate not awaited may start after it).
    await page.evaluate(() => {
      window.__chartUpdate = new Promise((resolve) => {
        const line = document.querySelector('[data-testid="chart-frame"] .recharts-line-curve');
        const d = line.getAttribute('d');
        let pressed = 0;
        // A chart that never follows the edit fails the run instead of hanging it.
        setTimeout(() => resolve(null), 30_000);
        window.addEventListener('keydown', (e) => e.key === 'Enter' && (pressed = performance.now()), { capture: true, once: true });
        const obs = new MutationObserver(() => {
          const now = document.querySelector('[data-testid="chart-frame"] .recharts-line-curve');
          if (pressed && now && now.getAttribute('d') !== d) {
            obs.disconnect();
            resolve(performance.now() - pressed);
          }
        });
        obs.observe(document.querySelector('[data-testid="chart-frame"]'), { subtree: true, childList: true, attributes: true, attributeFilter: ['d'] });
      });
    });
    await page.keyboard.press('Enter');
    const took = await page.evaluate(() => window.__chartUpdate);
    if (took === null) {
      // Told, not hidden: the figure below counts only the edits the chart followed.
      await page.screenshot({ path: path.join(os.tmpdir(), 'tessera-charts-bench-update.png') });
      console.log(`charts: the line did not change within 30 s of the edit of B${row + 1} (the cell shows ${JSON.stringify(await cell(row).textContent())}; screenshot ${os.tmpdir()}/tessera-charts-bench-update.png)`);
      continue;
    }
    updates.push(took);
  }
  if (updates.length === 0) throw new Error('the chart followed none of the edits');
  console.log(`charts: update of the ${POINTS.toLocaleString('en')}-point chart after a cell edit (Enter → line redrawn): median ${fmt(median(updates))} of ${updates.length} of ${free.length} edits (${updates.map(fmt).join(', ')}); target ≤ 100 ms`);
} finally {
  await browser.close();
  await stack.stop();
}
