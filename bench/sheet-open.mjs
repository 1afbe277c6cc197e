// Figures of issue #3 (browser side): in Debian's Chromium, from the click on a sheet in the
// navigator to its first rendered rows, for a 100,000 × 26 and a 250,000 × 26 sheet of plain
// values and a 10,000 × 26 sheet holding 1,000 formulas; and the first edit of the 100k sheet
// (from the Enter key to the new value on screen). Runs the whole built product (`npm start`'s
// processes) on ports +500, with its own data folder, and stops it afterwards.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORTS, remotesManifest, startStack } from '../scripts/lib/stack.mjs';
import { launchChromium } from './support/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + 500]));
const base = `http://localhost:${ports.shell}`;
const admin = { username: 'bench-admin', password: 'bench password 1' };
const RUNS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (x) => `${(x / 1000).toFixed(2)} s`;

/**
 * A CSV with a header row; column A holds the row number, B the marker `{tag}{r}` (unique to
 * the sheet, so the wait never matches the sheet shown before), the others
 * short numbers (a 250k × 26 file stays under the 50 MB import limit), or a formula where
 * `formula(r, c)` says.
 */
function csv(tag, rows, cols, formula = () => null) {
  const header = Array.from({ length: cols }, (_, c) => `col${c}`).join(',');
  const lines = [header];
  for (let r = 0; r < rows; r++) {
    const cells = [];
    for (let c = 0; c < cols; c++) cells.push(formula(r, c) ?? (c === 0 ? String(r) : c === 1 ? `${tag}${r}` : String((r + c) % 100)));
    lines.push(cells.join(','));
  }
  return lines.join('\n');
}

async function importSheet(token, name, text) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), `${name}.csv`);
  form.append('name', name);
  const res = await fetch(`${base}/api/v1/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`import ${name}: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return body.sheets[0].id;
}

async function signUp() {
  const res = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (!res.ok) throw new Error(`signup: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return body.access_token ?? body.accessToken;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-open-'));
const dataDir = path.join(work, 'data');
mkdirSync(dataDir, { recursive: true });
writeFileSync(path.join(dataDir, 'remotes.json'), JSON.stringify(await remotesManifest(ports), null, 2));
const stack = await startStack({ ports, dataDir, logDir: path.join(work, 'logs'), env: { REMOTES_MANIFEST: path.join(dataDir, 'remotes.json') } });
const browser = await launchChromium();
try {
  const token = await signUp();
  const sheets = {
    plain100k: await importSheet(token, 'plain 100k', csv('h', 100_000, 26)),
    plain250k: await importSheet(token, 'plain 250k', csv('q', 250_000, 26)),
    // 1,000 formulas in column C (on screen) of the first 1,000 rows, each on its own row's A: row 3 shows 3007.
    formulas10k: await importSheet(token, 'formulas 10k', csv('f', 10_000, 26, (r, c) => (c === 2 && r < 1000 ? `=A${r + 1}*1000+7` : null))),
    small: await importSheet(token, 'small', csv('s', 5, 3)),
  };

  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel(/^username/i).fill(admin.username);
  await page.getByLabel(/^password/i).fill(admin.password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
  await page.getByTestId(`sheet-${sheets.small}`).waitFor();

  const grid = page.getByTestId('sheet-grid');
  /** Click in the navigator → the grid shows the sheet's first data row. */
  async function open(id, firstValue) {
    const row = page.getByTestId(`sheet-${id}`).getByRole('button').first();
    const t0 = Date.now();
    await row.click();
    await grid.locator('td', { hasText: new RegExp(`^${firstValue}$`) }).first().waitFor({ timeout: 60_000 });
    return Date.now() - t0;
  }
  async function openRuns(id, firstValue) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      await open(sheets.small, 's0');
      times.push(await open(id, firstValue));
    }
    return times;
  }
  // The first open of any sheet also loads the Workspace's code: report it apart.
  const firstEver = await open(sheets.small, 's0');
  const p100 = await openRuns(sheets.plain100k, 'h0');
  const p250 = await openRuns(sheets.plain250k, 'q0');
  const f10 = await openRuns(sheets.formulas10k, '3007');

  // First edit of the 100k sheet: type into B2 (h1) and press Enter; timed in the page,
  // from the Enter keydown to the DOM mutation that shows the new value.
  await open(sheets.plain100k, 'h0');
  await grid.locator('td', { hasText: /^h1$/ }).first().click();
  await page.keyboard.type('edited');
  await page.evaluate(() => {
    const root = document.querySelector('[data-testid="sheet-grid"]');
    document.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.__editStart ??= performance.now(); }, { capture: true });
    new MutationObserver((_, observer) => {
      if ([...root.querySelectorAll('td')].some((td) => td.textContent === 'edited')) {
        window.__editShown = performance.now();
        observer.disconnect();
      }
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
  await page.keyboard.press('Enter');
  await grid.locator('td', { hasText: /^edited$/ }).first().waitFor();
  const edit = await page.evaluate(() => window.__editShown - window.__editStart);

  console.log(`first sheet opened (loads the Workspace code too): ${s(firstEver)}`);
  console.log(`open 100,000 × 26 (click → first rows), median of ${RUNS}: ${s(median(p100))}  [${p100.map(s).join(', ')}]  target ≤ 1 s`);
  console.log(`open 250,000 × 26, median of ${RUNS}: ${s(median(p250))}  [${p250.map(s).join(', ')}]  target ≤ 1.5 s`);
  console.log(`open 10,000 × 26 with 1,000 formulas, median of ${RUNS}: ${s(median(f10))}  [${f10.map(s).join(', ')}]  target ≤ 1.5 s`);
  console.log(`first edit of the 100k sheet (Enter → value shown): ${edit.toFixed(1)} ms  target ≤ 50 ms`);
} finally {
  await browser.close();
  await stack.stop();
  rmSync(work, { recursive: true, force: true });
}
