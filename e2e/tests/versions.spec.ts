import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { admin, adminToken, createSheet, openSheet, signIn } from '../support/session';

// Names of this run: the database is shared with the other spec files.
const run = Date.now().toString(36);
const sheetName = `Versioned Budget ${run}`;
const ids = { sheet: '' };

/** The sheet as the api stores it now (read with a token of our own: the page keeps its token in memory). */
async function storedCell(request: APIRequestContext, row: number, col: number): Promise<unknown> {
  const res = await request.get(`/api/v1/sheets/${ids.sheet}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()).data[row]?.[col];
}

/** The main grid's cell (row and column from 0); the overlays hold copies of the edges. */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function openTimeline(page: Page): Promise<Locator> {
  await page.getByTestId('timeline-menu').click();
  const panel = page.getByTestId('timeline-panel');
  await expect(panel.getByTestId('timeline-entry').first()).toBeVisible();
  return panel;
}

test.describe.serial('versions: a new user edits, previews, applies and restores versions of a sheet', () => {
  test.beforeAll(async ({ request }) => {
    ids.sheet = await createSheet(request, { name: sheetName, headers: ['Item', 'Cost'], data: [['Rent', 1200], ['Food', 300]] });
  });

  test('edits a cell, previews the first version read-only with the difference highlighted, applies it and sees it after a reload', async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    await gridCell(page, 0, 1).click();
    await page.keyboard.type('1250');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 0, 1)).toHaveText('1250');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await expect.poll(() => storedCell(request, 0, 1)).toBe(1250);

    const timeline = await openTimeline(page);
    await expect(timeline.getByTestId('timeline-entry')).toHaveCount(2);
    await timeline.getByRole('button', { name: 'Preview #1' }).click();

    const banner = page.getByTestId('preview-banner');
    await expect(banner).toContainText('Previewing version #1');
    await expect(banner.getByRole('button', { name: 'Apply' })).toBeEnabled();
    await expect(banner.getByRole('button', { name: 'Exit Preview' })).toBeVisible();
    await expect(gridCell(page, 0, 1)).toHaveText('1200');
    // The one cell that differs from the live version is highlighted.
    const highlighted = page.getByTestId('sheet-grid').locator('.ht_master td.tessera-cell-changed');
    await expect(highlighted).toHaveCount(1);
    await expect(highlighted).toHaveText('1200');
    // Visibly so: its background is the highlight's, not the read-only grey of the others.
    await expect(highlighted).toHaveCSS('background-color', 'rgb(253, 230, 138)');
    await expect(gridCell(page, 1, 1)).not.toHaveCSS('background-color', 'rgb(253, 230, 138)');
    await expect(banner).toContainText('1 cell differs from the live version');

    // Read-only: typing changes nothing, here or on the server.
    await gridCell(page, 1, 1).click();
    await page.keyboard.type('999');
    await page.keyboard.press('Enter');
    await expect(gridCell(page, 1, 1)).toHaveText('300');
    expect(await storedCell(request, 1, 1)).toBe(300);

    await banner.getByRole('button', { name: 'Apply' }).click();
    await expect(banner).toHaveCount(0);
    await expect(gridCell(page, 0, 1)).toHaveText('1200');
    await expect.poll(() => storedCell(request, 0, 1)).toBe(1200);

    await page.reload();
    await expect(page.getByTestId('sheet-grid')).toBeVisible();
    await expect(gridCell(page, 0, 1)).toHaveText('1200');
    // The grid is editable again.
    await gridCell(page, 1, 0).click();
    await page.keyboard.type('Groceries');
    await page.keyboard.press('Enter');
    await expect.poll(() => storedCell(request, 1, 0)).toBe('Groceries');
  });

  test("the git tab lists the sheet's versions; checking out the edited one restores it, and Preview opens the data tab", async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    await page.getByTestId('tab-git').click();
    const panel = page.getByTestId('remote-mfe-git-GitPanel');
    const versions = panel.getByRole('list', { name: 'Sheet versions' });
    // 1 the creation, 2 the edit, 3 the checkout of 1 (live), 4 'Groceries'.
    const live = versions.getByTestId('sheet-version').and(page.locator('[data-status="live"]'));
    await expect(live).toHaveCount(1);
    await expect(live).toContainText('#4');
    // The live version cannot be discarded; an archived one can be checked out or discarded.
    await expect(live.getByRole('button', { name: /^Discard/ })).toHaveCount(0);
    const edited = versions.getByTestId('sheet-version').filter({ hasText: '#2' });
    await expect(edited).toContainText('archived');
    await expect(edited.getByRole('button', { name: 'Discard #2' })).toBeVisible();

    await edited.getByRole('button', { name: 'Checkout #2' }).click();
    await expect(versions.getByTestId('sheet-version').first()).toContainText('#5');
    await expect(versions.locator('[data-status="live"]')).toContainText('#5');
    await expect.poll(() => storedCell(request, 0, 1)).toBe(1250);

    // Preview from the git tab: the data tab opens with the banner.
    await versions.getByTestId('sheet-version').filter({ hasText: '#3' }).getByRole('button', { name: 'Preview #3' }).click();
    const banner = page.getByTestId('preview-banner');
    await expect(banner).toContainText('Previewing version #3');
    await expect(gridCell(page, 0, 1)).toHaveText('1200');
    await banner.getByRole('button', { name: 'Exit Preview' }).click();
    await expect(banner).toHaveCount(0);

    await page.reload();
    await expect(page.getByTestId('sheet-grid')).toBeVisible();
    await expect(gridCell(page, 0, 1)).toHaveText('1250');
    await expect(gridCell(page, 1, 0)).toHaveText('Food');
  });

  test("the grid's context menu shows a cell's history: who, when, from what to what", async ({ page }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    await gridCell(page, 0, 1).click({ button: 'right' });
    await page.locator('.htContextMenu').getByText('Cell history', { exact: true }).click();
    const dialog = page.getByTestId('cell-history');
    await expect(dialog).toContainText('History of B1');
    const entries = dialog.getByTestId('cell-history-entry');
    // Newest first: the checkout of 2 (1200 → 1250), the checkout of 1 (1250 → 1200), the edit (1200 → 1250).
    await expect(entries.first()).toContainText('1200 → 1250');
    await expect(entries.first()).toContainText(admin.username);
    await expect(entries.first()).toContainText('0m ago');
    await expect(dialog).toContainText('1250 → 1200');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test("the Code tab's 'Run on sheet' runs the open .py file on the sheet; a result with the sheet's headers updates it", async ({ page, request }) => {
    const headers = { Authorization: `Bearer ${await adminToken(request)}` };
    const tree = await (await request.get('/ai/git/tree', { headers })).json();
    const file = `double_${run}.py`;
    const commit = await request.post('/ai/git/commits', {
      headers,
      data: {
        message: `Add ${file}`,
        base_commit: tree.repository.head,
        changes: [{ path: `jobs/${file}`, action: 'upsert', content: "print('doubling', len(rows))\nresult = {'headers': headers, 'rows': [[r[0], r[1] * 2] for r in rows]}\n" }],
      },
    });
    expect(commit.ok()).toBe(true);

    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    await expect(gridCell(page, 0, 1)).toHaveText('1250');
    await page.getByTestId('view-code').click();
    const code = page.getByTestId('code-view');
    await code.getByRole('button', { name: file }).click();
    await expect(code.getByTestId('code-preview')).toContainText('doubling');
    await code.getByRole('button', { name: 'Run on sheet' }).click();
    await expect(code.getByTestId('run-status')).toHaveText('Updated the sheet: 2 cells changed', { timeout: 30_000 });
    await expect(code.getByTestId('run-output')).toContainText('doubling 2');
    await expect.poll(() => storedCell(request, 0, 1)).toBe(2500);
    expect(await storedCell(request, 1, 1)).toBe(600);

    await page.getByTestId('view-sheet').click();
    await expect(gridCell(page, 0, 1)).toHaveText('2500');
    await expect(gridCell(page, 1, 1)).toHaveText('600');
  });
  test("the column header's menu sorts the sheet A → Z by Cost: the rows move with their cells, in the grid and on the server; Ctrl+Z puts them back", async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    await expect(gridCell(page, 0, 0)).toHaveText('Rent');
    await expect(gridCell(page, 1, 0)).toHaveText('Food');
    // Right-clicking the Cost header selects its column; the menu sorts by it.
    await page.getByTestId('sheet-grid').locator('.ht_clone_top .colHeader', { hasText: 'Cost' }).first().click({ button: 'right' });
    await page.locator('.htContextMenu').getByText('Sort sheet A → Z', { exact: true }).click();
    await expect(gridCell(page, 0, 0)).toHaveText('Food');
    await expect(gridCell(page, 0, 1)).toHaveText('600');
    await expect(gridCell(page, 1, 0)).toHaveText('Rent');
    await expect(gridCell(page, 1, 1)).toHaveText('2500');
    await expect.poll(() => storedCell(request, 0, 0)).toBe('Food');
    expect(await storedCell(request, 1, 1)).toBe(2500);

    // A filter of the user's own view: Item, only Rent. Row 2 shows alone, with its own number; the sheet is unchanged.
    await page.getByTestId('sheet-grid').locator('.ht_clone_top .colHeader', { hasText: 'Item' }).first().click({ button: 'right' });
    await page.locator('.htContextMenu').getByText('Filter by this column…', { exact: true }).click();
    const filter = page.getByTestId('filter-dialog');
    await expect(filter).toContainText('Food (1)');
    await filter.getByRole('button', { name: 'Clear', exact: true }).click();
    await filter.getByRole('checkbox', { name: /Rent/ }).check();
    await filter.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('filter-count')).toHaveText('Showing 1 of 2 rows');
    await expect(gridCell(page, 0, 0)).toHaveText('Rent');
    await expect(page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody th').first()).toHaveText('2');
    expect(await storedCell(request, 0, 0)).toBe('Food');
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(gridCell(page, 0, 0)).toHaveText('Food');
    // Ctrl+Z: the rows go back to their order before the sort, in the grid and on the server.
    await gridCell(page, 0, 0).click();
    await page.keyboard.press('Control+z');
    await expect(gridCell(page, 0, 0)).toHaveText('Rent');
    await expect(gridCell(page, 1, 1)).toHaveText('600');
    await expect.poll(() => storedCell(request, 0, 0)).toBe('Rent');
  });
});
