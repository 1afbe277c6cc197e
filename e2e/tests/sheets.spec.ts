import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminToken, openSheet, signIn } from '../support/session';
import { readXlsx } from '../support/xlsx-reader';

// Names of this run: the database is shared with the other spec files (and kept between tests).
const run = Date.now().toString(36);
const groupName = `Planning ${run}`;
const sheetName = `Quarterly Budget ${run}`;
const importName = `Imported Stock ${run}`;

// Filled in as the tests go (they run in order, each on the previous one's items).
const ids = { group: '', sheet: '', imported: '' };

/** A sheet as the api stores it, read with a token of our own (the page keeps its token in memory). */
async function storedSheet(request: APIRequestContext, id: string): Promise<{ name: string; group_id: string | null; data: unknown[][] }> {
  const res = await request.get(`/api/v1/sheets/${id}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The main grid's cell (row and column from 0); the overlays hold copies of the edges. */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

/** Double-clicks a row of the tree, types the new name in the inline input and saves it with Enter. */
async function renameByDoubleClick(page: Page, row: Locator, oldName: string, newName: string) {
  await row.getByRole('button').first().dblclick();
  const input = page.getByRole('textbox', { name: `Rename ${oldName}` });
  await expect(input).toBeFocused();
  await input.fill(newName);
  await input.press('Enter');
  await expect(input).toHaveCount(0);
}

async function chooseFilter(navigator: Locator, page: Page, label: 'All Sheets' | 'Favorites' | 'Recent') {
  await navigator.getByRole('button', { name: /^Filter: / }).click();
  await page.getByRole('menuitemradio', { name: label }).click();
  await expect(navigator.getByRole('button', { name: `Filter: ${label}` })).toBeVisible();
}

// The whole run's sheets and groups are in one tree by the time this spec runs (other specs made
// them): a tall window keeps both ends of a drag on screen, as HTML5 drag and drop needs.
test.use({ viewport: { width: 1280, height: 2400 } });

test.describe.serial('sheets: a new user organises, edits, imports and exports sheets', () => {
  test.beforeAll(async ({ request }) => {
    await adminToken(request);
  });

  test('creates a group and a sheet and renames both by double-click; the names stay after a reload', async ({ page }) => {
    const navigator = await signIn(page);

    const groupCreated = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/groups');
    await navigator.getByRole('button', { name: 'Add Folder', exact: true }).click();
    const group = await (await groupCreated).json();
    ids.group = group.id;
    expect(group.name).toMatch(/^New Group/);
    const groupRow = navigator.getByTestId(`row-group-${ids.group}`);
    await expect(groupRow).toContainText(group.name);

    const sheetCreated = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sheets');
    await navigator.getByRole('button', { name: 'Add Sheet', exact: true }).click();
    const sheet = await (await sheetCreated).json();
    ids.sheet = sheet.id;
    expect(sheet.name).toMatch(/^New Sheet/);
    const sheetRow = navigator.getByTestId(`row-sheet-${ids.sheet}`);
    await expect(sheetRow).toContainText(sheet.name);
    // A new sheet at root level is 10 rows by 10 columns (spec 01 §5).
    await expect(sheetRow).toContainText('10 rows • 10 cols');

    await renameByDoubleClick(page, groupRow, group.name, groupName);
    await expect(groupRow).toContainText(groupName);
    await renameByDoubleClick(page, sheetRow, sheet.name, sheetName);
    await expect(sheetRow).toContainText(sheetName);

    await page.reload();
    await expect(navigator.getByTestId(`row-group-${ids.group}`)).toContainText(groupName);
    await expect(navigator.getByTestId(`row-sheet-${ids.sheet}`)).toContainText(sheetName);
  });

  test('drags the sheet into the group, then back to root level through the drop zone', async ({ page, request }) => {
    const navigator = await signIn(page);
    const tree = navigator.getByRole('list', { name: 'Sheet tree' });
    const groupItem = navigator.getByTestId(`group-${ids.group}`);
    const sheetRow = navigator.getByTestId(`row-sheet-${ids.sheet}`);
    const atRoot = tree.locator(`:scope > li[data-testid="sheet-${ids.sheet}"]`);
    await expect(atRoot).toBeVisible();

    // Into the group: a plain drag onto the group's row.
    await sheetRow.dragTo(navigator.getByTestId(`row-group-${ids.group}`));
    await expect(groupItem.getByTestId(`sheet-${ids.sheet}`)).toBeVisible();
    await expect(atRoot).toHaveCount(0);
    await expect(navigator.getByTestId(`row-group-${ids.group}`).getByTestId('group-badge')).toHaveText('1');
    expect((await storedSheet(request, ids.sheet)).group_id).toBe(ids.group);

    // Back to root: the zone only exists once a drag has started, so the drag is made by hand.
    await sheetRow.hover();
    await page.mouse.down();
    const box = await sheetRow.boundingBox();
    if (!box) throw new Error('the sheet row has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 20, { steps: 5 });
    const zone = navigator.getByTestId('root-drop-zone');
    await expect(zone).toHaveText('Drop here to move to root level');
    await zone.hover();
    await page.mouse.up();
    await expect(atRoot).toBeVisible();
    await expect(groupItem.getByTestId(`sheet-${ids.sheet}`)).toHaveCount(0);
    await expect(zone).toHaveCount(0);

    // The move was stored: after a reload the sheet is still at root level.
    await page.reload();
    await expect(atRoot).toBeVisible();
    await expect(groupItem).toBeVisible();
    await expect(groupItem.getByTestId(`sheet-${ids.sheet}`)).toHaveCount(0);
  });

  test('types values and a formula, sees the result, and finds both after a reload', async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);

    await gridCell(page, 0, 0).click();
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.keyboard.type('=SUM(A1:A2)');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 2, 0)).toHaveText('5');
    await expect(page.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on');

    // The server has the edits: the numbers as numbers, the formula as its text.
    await expect.poll(async () => (await storedSheet(request, ids.sheet)).data.slice(0, 3).map((row) => row[0])).toEqual([2, 3, '=SUM(A1:A2)']);
    await expect(page.getByTestId('save-status')).toHaveText('Saved');

    await page.reload();
    await expect(page.getByTestId('sheet-name')).toHaveText(sheetName);
    await expect(gridCell(page, 0, 0)).toHaveText('2');
    await expect(gridCell(page, 1, 0)).toHaveText('3');
    await expect(gridCell(page, 2, 0)).toHaveText('5');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');

    // The cell's editor shows the formula, not its value.
    await gridCell(page, 2, 0).dblclick();
    await expect(page.locator('textarea.handsontableInput')).toHaveValue('=SUM(A1:A2)');
    await page.keyboard.press('Escape');

    // Issue 23: the formulas are computed in a Web Worker (started from a blob: the remote is
    // served from another origin), not on the page's main thread; an edit is computed there too.
    expect(page.workers().some((worker) => worker.url().startsWith('blob:'))).toBe(true);
    await gridCell(page, 0, 0).click();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 2, 0)).toHaveText('10');
    // An error shows as its code (in column B: the export test below reads column A as it was).
    await gridCell(page, 0, 1).click();
    await page.keyboard.type('=A1/0');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 0, 1)).toHaveText('#DIV/0!');
    await gridCell(page, 0, 0).click();
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 2, 0)).toHaveText('5');
    await expect.poll(async () => (await storedSheet(request, ids.sheet)).data[0]?.slice(0, 2)).toEqual([2, '=A1/0']);
  });

  test('imports a CSV from disk and sees its counts and its size in the tree', async ({ page }) => {
    const navigator = await signIn(page);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-'));
    try {
      const file = path.join(dir, `${importName}.csv`);
      writeFileSync(file, 'Item,Units,Price\nBolts,120,0.25\nNuts,80,0.1\n"Washers, steel",45,0.05\nScrews,300,0.3\n');

      const imported = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/import');
      await navigator.getByTestId('import-input').setInputFiles(file);
      const result = await (await imported).json();
      expect(result.sheets).toHaveLength(1);
      ids.imported = result.sheets[0].id;

      await expect(navigator.getByTestId('import-counts')).toHaveText('Updated sheets: 1 • New categories: 0');
      const row = navigator.getByTestId(`row-sheet-${ids.imported}`);
      await expect(row).toContainText(importName);
      await expect(row).toContainText('4 rows • 3 cols');

      await openSheet(page, ids.imported, importName);
      await expect(page.getByTestId('sheet-size')).toHaveText('4 rows × 3 cols');
      // The first row became the column headers.
      const headerRow = page.getByTestId('sheet-grid').locator('.ht_clone_top thead tr').first();
      for (const header of ['Item', 'Units', 'Price']) await expect(headerRow.locator('th', { hasText: header })).toBeVisible();
      await expect(gridCell(page, 2, 0)).toHaveText('Washers, steel');
      await expect(gridCell(page, 3, 1)).toHaveText('300');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('exports the sheet as XLSX from the File menu; the downloaded workbook holds its cells', async ({ page }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);

    await page.getByTestId('file-menu').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export as XLSX' }).click();
    const download = await downloading;

    // The toolbar names the file `{sheet name}_{YYYY-MM-DD}.xlsx`, with the browser's date.
    const today = await page.evaluate(() => {
      const now = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    });
    expect(download.suggestedFilename()).toBe(`${sheetName}_${today}.xlsx`);

    const workbook = readXlsx(await download.path());
    expect(workbook.sheetNames).toHaveLength(1);
    const [worksheet] = workbook.sheetNames;
    // The header row first, then the rows; the numbers stay numbers.
    const rows = workbook.rows(worksheet);
    expect(rows[0].slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(rows.slice(1, 3).map((row) => row[0])).toEqual([2, 3]);
    expect(workbook.cell(worksheet, 'A2')).toMatchObject({ t: 'n', v: 2 });
    expect(workbook.cell(worksheet, 'A3')).toMatchObject({ t: 'n', v: 3 });
    // The formula is a formula in the file, its rows moved below the header row.
    expect(workbook.cell(worksheet, 'A4')?.f).toBe('SUM(A2:A3)');
  });

  test('search finds the sheet by part of its name; Favorites, Recent and All Sheets', async ({ page }) => {
    const navigator = await signIn(page);
    const search = navigator.getByPlaceholder('Search sheets...');

    await search.fill(`Budget ${run}`);
    const results = navigator.getByRole('list', { name: 'Search results' });
    await expect(results.getByTestId(`sheet-${ids.sheet}`)).toBeVisible();
    await expect(results.getByTestId(`sheet-${ids.imported}`)).toHaveCount(0);
    await expect(results.getByRole('listitem')).toHaveCount(1);
    await search.fill(`zz-no-such-sheet-${run}`);
    await expect(navigator.getByText('No Sheets Found')).toBeVisible();
    await search.fill('');
    await expect(navigator.getByRole('list', { name: 'Sheet tree' })).toBeVisible();

    // Mark the sheet as a favorite from its menu.
    await navigator.getByRole('button', { name: `Actions for ${sheetName}` }).click();
    await page.getByRole('menuitem', { name: 'Add to Favorites' }).click();
    await navigator.getByRole('button', { name: `Actions for ${sheetName}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Remove from Favorites' })).toBeVisible();
    await page.keyboard.press('Escape');

    await chooseFilter(navigator, page, 'Favorites');
    const favorites = navigator.getByRole('list', { name: 'Favorites' });
    await expect(favorites.getByTestId(`sheet-${ids.sheet}`)).toBeVisible();
    await expect(favorites.getByTestId(`sheet-${ids.imported}`)).toHaveCount(0);

    // Recent: the latest updated first (the import came after the edits).
    await chooseFilter(navigator, page, 'Recent');
    const recent = navigator.getByRole('list', { name: 'Recent' });
    await expect(recent.getByTestId(`sheet-${ids.sheet}`)).toBeVisible();
    await expect(recent.getByRole('listitem').first()).toHaveAttribute('data-testid', `sheet-${ids.imported}`);

    await chooseFilter(navigator, page, 'All Sheets');
    const tree = navigator.getByRole('list', { name: 'Sheet tree' });
    await expect(tree.getByTestId(`group-${ids.group}`)).toBeVisible();
    await expect(tree.getByTestId(`sheet-${ids.sheet}`)).toBeVisible();
  });

  test("the File menu's Delete asks first, then the sheet leaves the tree and the selection clears", async ({ page }) => {
    const navigator = await signIn(page);
    await openSheet(page, ids.sheet, sheetName);

    await page.getByTestId('file-menu').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete "${sheetName}"?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete' }).click();

    await expect(dialog).toHaveCount(0);
    await expect(navigator.getByTestId(`sheet-${ids.sheet}`)).toHaveCount(0);
    await expect(page.getByText('No Sheet Selected')).toBeVisible();
    await expect(page.getByText('Select a sheet to see file operations')).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(ids.sheet));
    await expect(navigator.getByTestId(`sheet-${ids.imported}`)).toBeVisible();
  });
});
