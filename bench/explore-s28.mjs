import { launchChromium } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { productApi } from './support/product-api.mjs';
import { signInPage } from './support/sign-in-page.mjs';
process.env.BENCH_PORT_BASE ??= '56500';
const ports = benchPorts(0);
const stack = await startProductStack(ports, 'explore-');
const base = `http://127.0.0.1:${ports.shell}`;
const api = productApi(base);
const admin = { username: 'explorer', password: 'explorer password 1' };
const shot = (page, n) => page.screenshot({ path: `/tmp/lead/shots/${n}.png` });
try {
  const { access_token: token } = await api('/auth/signup', { method: 'POST', body: admin });
  const data = Array.from({ length: 12 }, (_, r) => [`Item ${r + 1}`, ['North', 'South', 'East'][r % 3], (r * 37) % 101]);
  const sheet = await api('/sheets', { method: 'POST', token, body: { name: 'Stock', headers: ['Item', 'Region', 'Amount'], data } });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await signInPage(page, base, admin);
  await page.getByTestId('remote-mfe-sheets-Navigator').getByRole('heading', { name: 'Sheets', exact: true }).waitFor();
  await page.goto(`${base}/sheets/${sheet.id}`);
  await page.getByTestId('sheet-grid').waitFor({ timeout: 15000 }).catch(async (e) => { await shot(page, 's0-fail'); console.log('errors so far', errors); throw e; });
  await page.waitForTimeout(1500);
  // Filter Region = North via the header's context menu.
  await page.getByText('North', { exact: true }).first().click({ button: 'right' });
  await page.waitForTimeout(300);
  await shot(page, 's1-menu');
  await page.getByText('Filter by this column…').click();
  await page.waitForTimeout(500);
  await shot(page, 's2-dialog');
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Clear', { exact: true }).click().catch((e) => console.log('no clear', e.message));
  await dialog.getByRole('checkbox', { name: /North/ }).check({ force: true }).catch((e) => console.log('no north', e.message));
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await page.waitForTimeout(800);
  await shot(page, 's3-filtered');
  // Select rows 1..10 by row headers (shown ones 1,4,7,10) and remove.
  const rowHeader = (n) => page.locator(`span.rowHeader:visible:text-is("${n}")`).first();
  await rowHeader(1).click();
  await rowHeader(10).click({ modifiers: ['Shift'] });
  await rowHeader(10).click({ button: 'right' });
  await page.waitForTimeout(300);
  await shot(page, 's4-rowmenu');
  await page.getByText(/^Remove rows?/).first().click();
  await page.waitForTimeout(1500);
  await shot(page, 's5-removed');
  const rowsAfterRemove = (await api(`/sheets/${sheet.id}`, { token })).data.map((r) => r[0]);
  console.log('after remove:', rowsAfterRemove.join(','));
  await page.keyboard.press('Control+z');
  await page.waitForTimeout(2000);
  await shot(page, 's6-undone');
  const rowsAfterUndo = (await api(`/sheets/${sheet.id}`, { token })).data.map((r) => r[0]);
  console.log('after undo:', rowsAfterUndo.join(','));
  await page.keyboard.press('Control+y');
  await page.waitForTimeout(2000);
  console.log('after redo:', (await api(`/sheets/${sheet.id}`, { token })).data.map((r) => r[0]).join(','));
  await shot(page, 's7-redone');
  for (const wait of [3000, 10000]) {
    await page.waitForTimeout(wait);
    console.log(`navigator after +${wait} ms:`, await page.getByTestId('remote-mfe-sheets-Navigator').getByText(/rows •/).first().textContent());
  }
  console.log('errors:', errors);
  await browser.close();
} finally {
  await stack.stop();
}
