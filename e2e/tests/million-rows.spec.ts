import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminToken, openSheet, signIn } from '../support/session';

/**
 * Issue 23: a sheet of 120,000 rows without formulas opens a window of rows at a time (the grid
 * says data-windowed="on"), its chart too (drawn from the rows of its range); its own scroll bar
 * reaches the last row; an edit there is stored at that row and is there after a reload, and found
 * from the top with Ctrl+F. A formula typed there then (its 360,000 held cells are within the
 * formula engine's bound) makes the sheet come whole: the grid's own scroll bar is gone, the formula
 * is computed over the sheet's last rows, the user is still at the end, the same cell selected, and
 * Undo takes the formula back.
 */
const ROWS = 120_000;
const run = Date.now().toString(36);
const name = `Big ${run}`;

/** The grid's row whose header says `row` (1-based, as the user reads it). */
function rowHeaded(page: Page, row: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${row}$`) }) });
}

/** Drags the sheet-wide scroll bar to its end, as a user would to reach the last rows. */
async function jumpToEnd(page: Page) {
  await page.getByTestId('row-scrollbar').evaluate((bar) => {
    bar.scrollTop = bar.scrollHeight;
  });
  await expect(rowHeaded(page, ROWS)).toBeVisible();
}

test('a 120,000-row sheet without formulas, with a chart: opened windowed, the chart drawn, the last row edited, the edit there after a reload; a formula typed there shows the sheet whole, computed, at the same rows', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const data = Array.from({ length: ROWS }, (_, r) => [`row ${r + 1}`, r % 97, 'plain']);
  const res = await request.post('/api/v1/sheets', { headers: { Authorization: `Bearer ${token}` }, data: { name, headers: ['Name', 'N', 'Note'], data } });
  expect(res.status()).toBe(201);
  const id: string = (await res.json()).id;
  // A line chart of column N over every row (it draws the first 10,000).
  const chart = { type: 'line', range: { start_row: 0, start_col: 1, end_row: ROWS - 1, end_col: 1 }, categories: 'first_column', title: 'N', x_axis_title: '', y_axis_title: '', legend: 'none', stacked: false, box: { row: 1, col: 3, dx: 0, dy: 0, width: 400, height: 260 } };
  expect((await request.post(`/api/v1/sheets/${id}/charts`, { headers: { Authorization: `Bearer ${token}` }, data: chart })).status()).toBe(201);

  await signIn(page);
  await openSheet(page, id, name);
  await expect(page.getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await expect(rowHeaded(page, 1).locator('td').first()).toHaveText('row 1');
  await expect(page.getByTestId('chart-frame').locator('.recharts-line-curve')).toBeVisible();

  await jumpToEnd(page);
  const last = rowHeaded(page, ROWS).locator('td').nth(2);
  await expect(rowHeaded(page, ROWS).locator('td').first()).toHaveText(`row ${ROWS}`);
  // Typing into a selected cell replaces its text, as in sheets.spec.ts.
  await last.click();
  await page.keyboard.type('edited at the end');
  await page.keyboard.press('Enter');
  await expect(last).toHaveText('edited at the end');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  // Stored at that row (the api's window of the last rows).
  await expect
    .poll(async () => {
      const rows = await request.get(`/api/v1/sheets/${id}/rows?start=${ROWS - 1}&count=1`, { headers: { Authorization: `Bearer ${token}` } });
      return (await rows.json()).data[0];
    })
    .toEqual([`row ${ROWS}`, (ROWS - 1) % 97, 'edited at the end']);

  await page.reload();
  await expect(page.getByTestId('sheet-name')).toHaveText(name);
  await expect(page.getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await jumpToEnd(page);
  await expect(rowHeaded(page, ROWS).locator('td').nth(2)).toHaveText('edited at the end');

  // Ctrl+Home goes to A1 of the sheet (not of the rows the grid holds); Ctrl+F opens the sheet's own find
  // (the browser's sees only the rows drawn), which the api answers for a windowed sheet: Enter goes to
  // the last row's edit, 120,000 rows down, and selects it; Escape closes the bar.
  await rowHeaded(page, ROWS).locator('td').first().click();
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(rowHeaded(page, 1).locator('td').first()).toHaveClass(/\bcurrent\b/);
  await page.keyboard.press('ControlOrMeta+f');
  await expect(page.getByTestId('find-bar')).toBeVisible();
  await page.keyboard.type('EDITED AT');
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1');
  await page.keyboard.press('Enter');
  await expect(rowHeaded(page, ROWS).locator('td').nth(2)).toHaveClass(/\bcurrent\b/);
  // Marked as the match gone to (mfe-sheets find-marks.ts), its neighbours not; the marks go with the bar.
  await expect(rowHeaded(page, ROWS).locator('td').nth(2)).toHaveClass(/\btessera-find-match\b.*\btessera-find-current\b|\btessera-find-current\b.*\btessera-find-match\b/);
  await expect(rowHeaded(page, ROWS).locator('td').nth(1)).not.toHaveClass(/\btessera-find-match\b/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('find-bar')).toHaveCount(0);
  await expect(rowHeaded(page, ROWS).locator('td').nth(2)).not.toHaveClass(/\btessera-find-match\b/);

  // A formula over the last rows' N (rows 119,998-120,000 hold 8, 9, 10), typed over a Note: the
  // engine needs the whole sheet, and can take it, so the sheet is read whole and shown so.
  await rowHeaded(page, ROWS - 1).locator('td').nth(2).click();
  await page.keyboard.type(`=SUM(B${ROWS - 2}:B${ROWS})`);
  await page.keyboard.press('Enter');
  // The whole grid (no windowed grid, no row scroll bar of its own) computing formulas.
  await expect(page.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on', { timeout: 60_000 });
  await expect(page.getByTestId('sheet-grid')).not.toHaveAttribute('data-windowed');
  await expect(page.getByTestId('row-scrollbar')).toHaveCount(0);
  // The value, not the formula's text, where the user typed it; the last row is still on screen.
  await expect(rowHeaded(page, ROWS - 1).locator('td').nth(2)).toHaveText('27');
  await expect(rowHeaded(page, ROWS).locator('td').first()).toBeInViewport();
  await expect(page.getByTestId('formulas-over-limit')).toHaveCount(0);
  // Selected where Enter moved the selection to, and the step typed in the windowed grid is undone in the whole one.
  await expect(rowHeaded(page, ROWS).locator('td').nth(2)).toHaveClass(/\bcurrent\b/);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(rowHeaded(page, ROWS - 1).locator('td').nth(2)).toHaveText('plain');
});
