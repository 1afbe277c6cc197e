import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ask, lastReply, openChat } from '../support/chat-panel';
import { adminToken, openSheet, signIn } from '../support/session';
import { E2E_PORTS } from '../support/stack';

// Issue 19: Python with pandas and Matplotlib, run in gVisor. Names of this run: the database is
// shared with the other spec files.
const run = Date.now().toString(36);
const importName = `Orders ${run}`;
const ids = { sheet: '' };

// Totals by Region: North 320 (2 orders), South 100 (2), West 60 (1), East 45 (1).
const csv = ['Region,Product,Amount,Units', 'North,Tea,120,3', 'South,Coffee,80.5,2', 'North,Coffee,200,5', 'East,Tea,45,1', 'South,Tea,19.5,4', 'West,Juice,60,2'].join('\n');

/** The main grid's cell (row and column from 0); the overlays hold copies of the edges. */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function gridColumn(page: Page, col: number, count: number): Promise<string[]> {
  const texts: string[] = [];
  for (let row = 0; row < count; row++) texts.push(((await gridCell(page, row, col).textContent()) ?? '').trim());
  return texts;
}

async function storedRows(request: APIRequestContext, id: string, width: number): Promise<unknown[][]> {
  const res = await request.get(`/api/v1/sheets/${id}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  const { data } = (await res.json()) as { data: unknown[][] };
  return data.map((row) => row.slice(0, width)).filter((row) => row.some((cell) => cell !== null && cell !== ''));
}

test.describe.serial('Python with pandas and Matplotlib (gVisor): a groupby on an imported CSV, and a chart in the chat', () => {
  test.beforeAll(async ({ request }) => {
    await adminToken(request);
    // The stack runs the gVisor engine (RUNNER_ENGINE=auto picks it where runsc works, as in CI).
    const config = await (await request.get(`http://127.0.0.1:${E2E_PORTS['ai-middleware']}/config`)).json();
    expect(config.codeRunner?.engine, 'the ai-middleware runs Python in gVisor (runsc installed, run as root)').toBe('gvisor');
    expect(Object.keys(config.codeRunner.packages)).toEqual(expect.arrayContaining(['pandas', 'matplotlib']));
  });

  test('a pandas groupby in Agent • Direct Exec on an imported CSV: the result grid becomes a new sheet, in its column order', async ({ page, request }) => {
    const navigator = await signIn(page);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-python-'));
    try {
      const file = path.join(dir, `${importName}.csv`);
      writeFileSync(file, `${csv}\n`);
      const imported = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/import');
      await navigator.getByTestId('import-input').setInputFiles(file);
      ids.sheet = (await (await imported).json()).sheets[0].id;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await openSheet(page, ids.sheet, importName);
    const panel = await openChat(page);

    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sheets');
    await ask(
      panel,
      'Agent • Direct Exec',
      [
        'totals = df.groupby("Region", as_index=False).agg(Total=("Amount", "sum"), Orders=("Amount", "size"))',
        'print(f"{len(totals)} regions, {df.Amount.sum():g} in all")',
        'result = totals.sort_values("Total", ascending=False)',
      ].join('\n'),
    );
    const sheet = await (await created).json();
    const reply = await lastReply(panel);
    await expect(reply).toContainText('Code executed: a grid of 4 rows × 3 columns');
    await expect(reply.locator('pre code.language-text')).toHaveText('4 regions, 525 in all');
    await expect(reply).toContainText(`Created sheet ${sheet.name}`);

    // The imported sheet is untouched; the new one holds the totals, largest first.
    expect(await storedRows(request, ids.sheet, 4)).toHaveLength(6);
    await expect.poll(() => storedRows(request, sheet.id, 3)).toEqual([
      ['North', 320, 2],
      ['South', 100, 2],
      ['West', 60, 1],
      ['East', 45, 1],
    ]);
    await reply.getByRole('button', { name: `Open ${sheet.name}` }).click();
    await expect(page.getByTestId('sheet-name')).toHaveText(sheet.name);
    const headerRow = page.getByTestId('sheet-grid').locator('.ht_clone_top thead tr').first();
    for (const header of ['Region', 'Total', 'Orders']) await expect(headerRow.locator('th', { hasText: header })).toBeVisible();
    await expect.poll(() => gridColumn(page, 0, 4)).toEqual(['North', 'South', 'West', 'East']);
    expect(await gridColumn(page, 1, 4)).toEqual(['320', '100', '60', '45']);
    expect(await gridColumn(page, 2, 4)).toEqual(['2', '2', '1', '1']);
  });

  test('a Matplotlib bar chart shows as an image in the chat, with its download', async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, importName);
    const panel = await openChat(page);
    await ask(
      panel,
      'Agent • Direct Exec',
      [
        'import matplotlib.pyplot as plt',
        'ax = df.groupby("Region")["Amount"].sum().plot.bar(title="Amount by Region")',
        'ax.set_ylabel("Amount")',
        'plt.show()',
      ].join('\n'),
    );
    const reply = await lastReply(panel);
    await expect(reply).toContainText('Code executed: 1 figure');
    const image = reply.getByRole('group', { name: 'Figures' }).getByRole('img', { name: 'Figure 1' });
    await expect(image).toBeVisible();
    // Chromium decoded it: a real 640 × 480 PNG (Matplotlib's default size at 100 dpi).
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? [img.naturalWidth, img.naturalHeight] : null))).toEqual([640, 480]);

    const downloading = page.waitForEvent('download');
    await reply.getByRole('link', { name: 'Download figure 1 (PNG)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('figure-1.png');
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // A chart is no grid: the open sheet is left as it was.
    expect(await storedRows(request, ids.sheet, 4)).toHaveLength(6);
  });
});
