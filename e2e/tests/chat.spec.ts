import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ask, lastReply, openChat } from '../support/chat-panel';
import { adminToken, openSheet, signIn } from '../support/session';

// Names of this run: the database is shared with the other spec files.
const run = Date.now().toString(36);
const importName = `Regional Sales ${run}`;
const ids = { sheet: '' };

// The imported sheet: totals by Region are East 45, North 320, South 100, West 60.
const csv = ['Region,Product,Amount,Units', 'North,Tea,120,3', 'South,Coffee,80.5,2', 'North,Coffee,200,5', 'East,Tea,45,1', 'South,Tea,19.5,4', 'West,Juice,60,2'].join('\n');
const regions = ['North', 'South', 'North', 'East', 'South', 'West'];
const amounts = [120, 80.5, 200, 45, 19.5, 60];

/** A sheet as the api stores it now (read with a token of our own: the page keeps its token in memory). */
async function storedSheet(request: APIRequestContext, id: string): Promise<{ name: string; metadata: { headers: string[] }; data: unknown[][]; version: number }> {
  const res = await request.get(`/api/v1/sheets/${id}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The stored sheet's non-empty rows, each cut to `width` columns. */
async function storedRows(request: APIRequestContext, id: string, width: number): Promise<unknown[][]> {
  const { data } = await storedSheet(request, id);
  return data.map((row) => row.slice(0, width)).filter((row) => row.some((cell) => cell !== null && cell !== ''));
}

/** The main grid's cell (row and column from 0); the overlays hold copies of the edges. */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

/** A column of the grid's first `count` rows, as the user reads it. */
async function gridColumn(page: Page, col: number, count: number): Promise<string[]> {
  const texts: string[] = [];
  for (let row = 0; row < count; row++) texts.push(((await gridCell(page, row, col).textContent()) ?? '').trim());
  return texts;
}

test.describe.serial('chat: a new user asks the built-in assistant about a sheet, runs a script on it, and stages AI edits', () => {
  test.beforeAll(async ({ request }) => {
    await adminToken(request);
  });

  test("imports a sheet, asks 'total of Amount by Region' in Agent • AI Powered, and gets a new sheet with the totals", async ({ page, request }) => {
    const navigator = await signIn(page);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-chat-'));
    try {
      const file = path.join(dir, `${importName}.csv`);
      writeFileSync(file, `${csv}\n`);
      const imported = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/import');
      await navigator.getByTestId('import-input').setInputFiles(file);
      ids.sheet = (await (await imported).json()).sheets[0].id;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(navigator.getByTestId(`row-sheet-${ids.sheet}`)).toContainText('6 rows • 4 cols');
    await openSheet(page, ids.sheet, importName);

    const panel = await openChat(page);
    // The panel names the sheet it works on.
    await panel.getByRole('button', { name: 'Show Context' }).click();
    await expect(panel).toContainText(importName);
    await expect(panel).toContainText('6 rows × 4 cols');
    await panel.getByRole('button', { name: 'Hide Context' }).click();

    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sheets');
    await ask(panel, 'Agent • AI Powered', 'total of Amount by Region');
    const sheet = await (await created).json();
    // Spec 02 §9: 'AI Generated Sheet' with the HH-MM-SS suffix.
    expect(sheet.name).toMatch(/^AI Generated Sheet \d{2}-\d{2}-\d{2}$/);

    const reply = await lastReply(panel);
    // The built-in assistant shows the Python it wrote (it is no model, and says so) and what it printed.
    await expect(reply.locator('pre code.language-python')).toContainText('# Written by the built-in assistant (no AI model)');
    await expect(reply.locator('pre code.language-python')).toContainText('"Total of Amount"');
    await expect(reply.locator('pre code.language-text')).toHaveText('4 groups');
    // 4 groups + 5 rows, at least 20; 2 columns, at least 10 (spec 02 §9).
    await expect(reply).toContainText(`Created sheet ${sheet.name} (20 rows × 10 cols).`);

    // The navigator lists it, and the active sheet is untouched.
    const row = navigator.getByTestId(`row-sheet-${sheet.id}`);
    await expect(row).toContainText(sheet.name);
    await expect(row).toContainText('20 rows • 10 cols');
    expect(await storedRows(request, ids.sheet, 4)).toHaveLength(6);

    // The totals, on the server and in the grid once the user opens it from the reply.
    await expect.poll(async () => (await storedSheet(request, sheet.id)).metadata.headers.slice(0, 2)).toEqual(['Region', 'Total of Amount']);
    expect(await storedRows(request, sheet.id, 2)).toEqual([
      ['East', 45],
      ['North', 320],
      ['South', 100],
      ['West', 60],
    ]);
    await reply.getByRole('button', { name: `Open ${sheet.name}` }).click();
    await expect(page.getByTestId('sheet-name')).toHaveText(sheet.name);
    const headerRow = page.getByTestId('sheet-grid').locator('.ht_clone_top thead tr').first();
    for (const header of ['Region', 'Total of Amount']) await expect(headerRow.locator('th', { hasText: header })).toBeVisible();
    await expect.poll(() => gridColumn(page, 0, 4)).toEqual(['East', 'North', 'South', 'West']);
    expect(await gridColumn(page, 1, 4)).toEqual(['45', '320', '100', '60']);
  });

  test('pastes a script in Agent • Direct Exec: its grid has the sheet\'s headers, so the open sheet updates', async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, importName);
    const panel = await openChat(page);
    const before = (await storedSheet(request, ids.sheet)).version;

    const script = [
      '# Amount with 10 % tax, Units unchanged',
      'def taxed(v):',
      '    return round(float(str(v).replace(",", "")) * 1.1, 2)',
      '',
      'print("taxing", len(rows), "rows")',
      'result = {"headers": headers, "rows": [[r[0], r[1], taxed(r[2]), r[3]] for r in rows]}',
    ].join('\n');
    await ask(panel, 'Agent • Direct Exec', script);
    const reply = await lastReply(panel);
    // The user's message shows the script as pasted: its comment is no heading, its lines stay lines.
    const mine = panel.getByRole('article', { name: 'You message' }).last();
    await expect(mine).toContainText('# Amount with 10 % tax, Units unchanged');
    await expect(mine.getByRole('heading')).toHaveCount(0);
    expect(await mine.evaluate((el) => (el as HTMLElement).innerText)).toContain(script);
    await expect(reply.locator('pre code.language-text')).toHaveText('taxing 6 rows');
    // The middleware proposed the grid as the sheet's next version, and the panel accepted it.
    await expect(reply).toContainText(new RegExp(`Applied to ${importName} as version \\d+\\.`));

    const taxed = amounts.map((a) => Math.round(a * 1.1 * 100) / 100);
    await expect.poll(async () => (await storedRows(request, ids.sheet, 4)).map((r) => r[2])).toEqual(taxed);
    expect((await storedSheet(request, ids.sheet)).version).toBeGreaterThan(before);
    // The grid of the open sheet shows it without a reload.
    await expect.poll(() => gridColumn(page, 2, 6)).toEqual(taxed.map(String));
    expect(await gridColumn(page, 0, 6)).toEqual(regions);
  });

  test('AI Editing Mode: a transform is staged and previewed; Commit applies it, and Discard of the next keeps the original', async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, importName);
    const panel = await openChat(page);
    const badge = page.getByTestId('remote-mfe-chat-HeaderStatus').getByRole('group', { name: 'AI Editing Mode' });
    const original = await storedRows(request, ids.sheet, 4);
    const originalVersion = (await storedSheet(request, ids.sheet)).version;
    const originalAmounts = original.map((r) => r[2] as number);
    const descending = [...originalAmounts].sort((a, b) => b - a);

    // On: the header shows the badge.
    await expect(badge).toHaveCount(0);
    await panel.getByRole('button', { name: 'AI Editing Mode' }).click();
    await expect(panel.getByRole('button', { name: 'AI Editing Mode' })).toHaveAttribute('aria-pressed', 'true');
    await expect(badge).toContainText('AI Editing Mode');

    await ask(panel, 'Agent • AI Powered', 'sort by Amount descending');
    await expect(await lastReply(panel)).toContainText('Staged as a proposed version');
    await expect(badge).toContainText('Staged edit');
    // The grid previews the staged edit; the sheet on the server is unchanged.
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    await expect.poll(() => gridColumn(page, 2, 6)).toEqual(descending.map(String));
    expect(await storedRows(request, ids.sheet, 4)).toEqual(original);
    expect((await storedSheet(request, ids.sheet)).version).toBe(originalVersion);

    await badge.getByRole('button', { name: 'Commit' }).click();
    await expect(badge).toHaveCount(0);
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    await expect.poll(async () => (await storedRows(request, ids.sheet, 4)).map((r) => r[2])).toEqual(descending);
    await expect.poll(() => gridColumn(page, 2, 6)).toEqual(descending.map(String));
    const committed = await storedRows(request, ids.sheet, 4);
    const committedVersion = (await storedSheet(request, ids.sheet)).version;
    expect(committedVersion).toBeGreaterThan(originalVersion);

    // Again, and Discard: the committed sheet stays, on the server and in the grid.
    await panel.getByRole('button', { name: 'AI Editing Mode' }).click();
    await expect(badge).toContainText('AI Editing Mode');
    await ask(panel, 'Agent • AI Powered', 'filter rows where Amount > 100');
    await expect(await lastReply(panel)).toContainText('Staged as a proposed version');
    await expect(badge).toContainText('Staged edit');
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    await expect.poll(() => gridColumn(page, 2, 2)).toEqual(descending.filter((a) => a > 100).map(String));
    expect(await storedRows(request, ids.sheet, 4)).toEqual(committed);

    await badge.getByRole('button', { name: 'Discard' }).click();
    await expect(badge).toHaveCount(0);
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    await expect.poll(() => gridColumn(page, 2, 6)).toEqual(descending.map(String));
    expect(await storedRows(request, ids.sheet, 4)).toEqual(committed);
    expect((await storedSheet(request, ids.sheet)).version).toBe(committedVersion);

    // After a reload the sheet is the committed one.
    await page.reload();
    await expect(page.getByTestId('sheet-grid')).toBeVisible();
    await expect.poll(() => gridColumn(page, 2, 6)).toEqual(descending.map(String));
  });
});
