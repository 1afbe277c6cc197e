import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { ask, lastReply, openChat } from '../support/chat-panel';
import { admin, adminToken, createSheet, openSheet, signIn } from '../support/session';

/**
 * Issue 20 as users live it: a column chart made from a selected range; a cell edit changes a
 * bar's height in the SVG, for its author and, live, for a second user who saw the chart appear;
 * a reload keeps it; the preview of an older version shows the older chart (or none); a viewer
 * sees it but cannot move it; an editor changes it with the same dialog; it stays on its cells
 * when the grid scrolls.
 */
const run = Date.now().toString(36);
const editor = { username: `chart-ed-${run}`, password: 'chart editor password' };
const viewer = { username: `chart-view-${run}`, password: 'chart viewer password' };
const sheetName = `Sales by Region ${run}`;
const ids = { sheet: '', viewer: '' };

function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function typeInto(page: Page, row: number, col: number, text: string) {
  await gridCell(page, row, col).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** The drawn heights of a chart's bars, in pixels, left to right. */
async function barHeights(frame: Locator): Promise<number[]> {
  return frame.locator('path.recharts-rectangle').evaluateAll((paths) => paths.map((p) => Math.round(p.getBoundingClientRect().height)));
}

/** Bars of category 0 against 1: 'lower', 'higher' (what a user sees comparing them). */
async function firstAgainstSecond(frame: Locator): Promise<string> {
  const [a, b] = await barHeights(frame);
  if (a === undefined || b === undefined) return 'no bars';
  return a < b ? 'lower' : a > b ? 'higher' : 'equal';
}

async function storedCharts(request: APIRequestContext): Promise<{ id: string; type: string; title: string; box: { row: number; col: number; dx: number; dy: number } }[]> {
  const res = await request.get(`/api/v1/sheets/${ids.sheet}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()).metadata.charts ?? [];
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe.serial('charts: from a range, live with the sheet, versioned with it', () => {
  test.beforeAll(async ({ request }) => {
    const auth = { Authorization: `Bearer ${await adminToken(request)}` };
    for (const who of [editor, viewer]) {
      const res = await request.post('/api/v1/users', { headers: auth, data: { ...who, role: 'user' } });
      expect(res.status()).toBe(201);
      if (who === viewer) ids.viewer = (await res.json()).id;
    }
    ids.sheet = await createSheet(request, {
      name: sheetName,
      headers: ['Region', 'Amount'],
      data: [
        ['North', 100],
        ['South', 200],
        ['East', 50],
      ],
    });
    // The viewer may only look at this sheet.
    const share = await request.put(`/api/v1/sheets/${ids.sheet}/access`, { headers: auth, data: { entries: [{ user_id: ids.viewer, level: 'viewer' }] } });
    expect(share.ok()).toBe(true);
  });

  test('a column chart from a selected range; an edit changes the bars for its author and, live, for a second user; a reload keeps it', async ({ browser, request }) => {
    test.setTimeout(180_000);
    const a = await newPage(browser);
    const b = await newPage(browser);
    try {
      await signIn(a.page, admin);
      await openSheet(a.page, ids.sheet, sheetName);
      await signIn(b.page, editor);
      await openSheet(b.page, ids.sheet, sheetName);
      await expect(b.page.getByTestId('connection-status')).toHaveText('Connected');
      await expect(b.page.getByTestId('chart-frame')).toHaveCount(0);

      // Nothing selected yet: nothing to chart.
      await expect(a.page.getByTestId('insert-chart')).toBeDisabled();
      await gridCell(a.page, 0, 0).click();
      await gridCell(a.page, 2, 1).click({ modifiers: ['Shift'] });
      await a.page.getByTestId('insert-chart').click();
      const dialog = a.page.getByTestId('insert-chart-dialog');
      await expect(dialog.getByTestId('chart-range')).toHaveValue('A1:B3');
      await expect(dialog.getByTestId('chart-type')).toHaveValue('column');
      await expect(dialog.getByTestId('chart-categories')).toHaveText('Categories from the first column');
      await expect(dialog.getByTestId('chart-xlsx-note')).toHaveText('XLSX export keeps the data but not the charts.');
      await dialog.getByTestId('chart-title').fill('Amount by Region');
      await dialog.getByTestId('chart-insert').click();
      await expect(dialog).toHaveCount(0);

      const mine = a.page.getByTestId('chart-frame');
      await expect(mine).toHaveCount(1);
      await expect(mine.getByTestId('chart-title-text')).toHaveText('Amount by Region');
      await expect(mine.getByTestId('chart-view')).toHaveAttribute('data-chart-type', 'column');
      // One bar per region; North (100) is lower than South (200).
      await expect(mine.locator('path.recharts-rectangle')).toHaveCount(3);
      await expect.poll(() => firstAgainstSecond(mine)).toBe('lower');
      // The chart stands beside its range, not over the cells it charts.
      const cellBox = await gridCell(a.page, 0, 1).boundingBox();
      const chartBox = await mine.boundingBox();
      expect(chartBox!.x).toBeGreaterThanOrEqual(cellBox!.x + cellBox!.width);

      // The second user sees it appear without a reload.
      const theirs = b.page.getByTestId('chart-frame');
      await expect(theirs).toHaveCount(1);
      await expect(theirs.getByTestId('chart-title-text')).toHaveText('Amount by Region');
      await expect(theirs.locator('path.recharts-rectangle')).toHaveCount(3);
      await expect.poll(() => firstAgainstSecond(theirs)).toBe('lower');

      // North becomes 400: its bar is now the tallest, on both screens.
      const before = await barHeights(mine);
      await typeInto(a.page, 0, 1, '400');
      await expect(gridCell(a.page, 0, 1)).toHaveText('400');
      await expect.poll(() => firstAgainstSecond(mine)).toBe('higher');
      expect((await barHeights(mine))[0]).toBeGreaterThan(before[0]!);
      await expect.poll(() => firstAgainstSecond(theirs)).toBe('higher');

      // The second user's edit reaches the author's chart too: South 900 is taller again.
      await typeInto(b.page, 1, 1, '900');
      await expect.poll(() => firstAgainstSecond(mine)).toBe('lower');
      await expect(a.page.getByTestId('save-status')).toHaveText('Saved');
      await expect(b.page.getByTestId('save-status')).toHaveText('Saved');

      // A reload keeps the chart and its data.
      await a.page.reload();
      await expect(a.page.getByTestId('sheet-grid')).toBeVisible();
      await expect(mine).toHaveCount(1);
      await expect(mine.getByTestId('chart-title-text')).toHaveText('Amount by Region');
      await expect(mine.locator('path.recharts-rectangle')).toHaveCount(3);
      await expect.poll(() => firstAgainstSecond(mine)).toBe('lower');
      expect(await storedCharts(request)).toHaveLength(1);
    } finally {
      await Promise.all([a.context.close(), b.context.close()]);
    }
  });

  test("previewing an older version shows that version's chart, or none before it was made", async ({ page }) => {
    await signIn(page, admin);
    await openSheet(page, ids.sheet, sheetName);
    const frame = page.getByTestId('chart-frame');
    await expect(frame).toHaveCount(1);

    // 1 the creation, 2 the chart, 3 North 400, 4 South 900.
    await page.getByTestId('timeline-menu').click();
    const timeline = page.getByTestId('timeline-panel');
    await timeline.getByRole('button', { name: 'Preview #1' }).click();
    const banner = page.getByTestId('preview-banner');
    await expect(banner).toContainText('Previewing version #1');
    await expect(gridCell(page, 0, 1)).toHaveText('100');
    await expect(frame).toHaveCount(0);
    await banner.getByRole('button', { name: 'Exit Preview' }).click();
    await expect(banner).toHaveCount(0);

    // Version 3: the chart, with North (400) above South (200).
    await page.getByTestId('timeline-menu').click();
    await timeline.getByRole('button', { name: 'Preview #3' }).click();
    await expect(banner).toContainText('Previewing version #3');
    await expect(gridCell(page, 1, 1)).toHaveText('200');
    await expect(frame).toHaveCount(1);
    await expect(frame.locator('path.recharts-rectangle')).toHaveCount(3);
    await expect.poll(() => firstAgainstSecond(frame)).toBe('higher');
    // Nobody moves or deletes a chart in a preview.
    await expect(frame.getByTestId('chart-resize')).toHaveCount(0);
    await banner.getByRole('button', { name: 'Exit Preview' }).click();
    await expect(banner).toHaveCount(0);
    // Back on the live sheet: South (900) is the tallest again.
    await expect.poll(() => firstAgainstSecond(frame)).toBe('lower');
  });

  test('a viewer sees the chart but cannot move, resize or delete it', async ({ page, request }) => {
    await signIn(page, viewer);
    await openSheet(page, ids.sheet, sheetName);
    await expect(page.getByText('View only', { exact: true })).toBeVisible();
    const frame = page.getByTestId('chart-frame');
    await expect(frame).toHaveCount(1);
    await expect(frame.locator('path.recharts-rectangle')).toHaveCount(3);
    await expect(page.getByTestId('insert-chart')).toHaveCount(0);
    await expect(frame.getByTestId('chart-resize')).toHaveCount(0);

    // A drag of the title bar leaves it where it was, on the screen and on the server.
    const stored = (await storedCharts(request))[0]!;
    const start = (await frame.boundingBox())!;
    const handle = (await frame.getByTestId('chart-handle').boundingBox())!;
    await page.mouse.move(handle.x + 20, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 220, handle.y + 160, { steps: 8 });
    await page.mouse.up();
    const after = (await frame.boundingBox())!;
    expect({ x: Math.round(after.x), y: Math.round(after.y) }).toEqual({ x: Math.round(start.x), y: Math.round(start.y) });
    expect((await storedCharts(request))[0]!.box).toEqual(stored.box);

    // Its menu only downloads.
    await frame.getByTestId('chart-menu').click();
    await expect(page.getByTestId('chart-download-png')).toBeVisible();
    await expect(page.getByTestId('chart-download-svg')).toBeVisible();
    await expect(page.getByTestId('chart-delete')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // And the server refuses the viewer's move.
    const login = await (await request.post('/api/v1/auth/login', { data: viewer })).json();
    const { id, ...definition } = stored as unknown as Record<string, unknown> & { id: string };
    const res = await request.put(`/api/v1/sheets/${ids.sheet}/charts/${id}`, {
      headers: { Authorization: `Bearer ${login.access_token}` },
      data: { ...definition, box: { ...stored.box, dx: stored.box.dx + 200 } },
    });
    expect(res.status()).toBe(403);
    expect((await storedCharts(request))[0]!.box).toEqual(stored.box);
  });

  test("an editor changes the chart's type, title and range with the same dialog; the chart stays on its cells when the grid scrolls", async ({ page, request }) => {
    await signIn(page, admin);
    await openSheet(page, ids.sheet, sheetName);
    const frame = page.getByTestId('chart-frame');
    await expect(frame.locator('path.recharts-rectangle')).toHaveCount(3);
    const box = (await storedCharts(request))[0]!.box;

    await frame.getByTestId('chart-menu').click();
    await page.getByTestId('chart-edit').click();
    const dialog = page.getByTestId('insert-chart-dialog');
    await expect(dialog.getByText('Edit chart', { exact: true })).toBeVisible();
    await expect(dialog.getByTestId('chart-range')).toHaveValue('A1:B3');
    await expect(dialog.getByTestId('chart-title')).toHaveValue('Amount by Region');
    // A range that is not one is refused in the dialog.
    await dialog.getByTestId('chart-range').fill('A1:B');
    await dialog.getByTestId('chart-insert').click();
    await expect(dialog.getByText('Enter a range of cells such as A1:B10')).toBeVisible();
    await dialog.getByTestId('chart-range').fill('A1:B2');
    await dialog.getByTestId('chart-type').selectOption('bar');
    await dialog.getByTestId('chart-title').fill('North and South');
    await expect(dialog.getByTestId('chart-insert')).toHaveText('Save');
    await dialog.getByTestId('chart-insert').click();
    await expect(dialog).toHaveCount(0);

    await expect(frame.getByTestId('chart-title-text')).toHaveText('North and South');
    await expect(frame.getByTestId('chart-view')).toHaveAttribute('data-chart-type', 'bar');
    await expect(frame.locator('path.recharts-rectangle')).toHaveCount(2);
    const [saved] = await storedCharts(request);
    expect(saved).toMatchObject({ type: 'bar', title: 'North and South', range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 }, box });
    // Kept after a reload.
    await page.reload();
    await expect(frame.getByTestId('chart-title-text')).toHaveText('North and South');

    // The grid scrolls down and right: the chart moves with the cells, as far as they do.
    const east = page.getByTestId('sheet-grid').locator('.ht_master .htCore td').filter({ hasText: /^East$/ });
    const cellBefore = (await east.boundingBox())!;
    const chartBefore = (await frame.boundingBox())!;
    await gridCell(page, 4, 0).hover();
    await page.mouse.wheel(40, 46);
    await expect.poll(async () => Math.round((await east.boundingBox())!.y)).toBeLessThan(Math.round(cellBefore.y));
    // Both moved by the same distance (within a pixel of rounding), across and down.
    const drift = async () => {
      const cell = (await east.boundingBox())!;
      const chart = (await frame.boundingBox())!;
      const dy = chart.y - chartBefore.y - (cell.y - cellBefore.y);
      const dx = chart.x - chartBefore.x - (cell.x - cellBefore.x);
      return Math.max(Math.abs(dx), Math.abs(dy)) <= 1 ? 'with its cells' : `off by ${dx.toFixed(1)}, ${dy.toFixed(1)}`;
    };
    await expect.poll(drift).toBe('with its cells');
    expect((await frame.boundingBox())!.y).toBeLessThan(chartBefore.y);
  });
  test("'chart of Amount by Region' to the built-in assistant: a column chart over its totals, on the result's new sheet, shown from the reply", async ({ page, request }) => {
    await signIn(page);
    await openSheet(page, ids.sheet, sheetName);
    const panel = await openChat(page);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sheets');
    await ask(panel, 'Agent • AI Powered', 'chart of Amount by Region');
    const result = await (await created).json();
    const reply = await lastReply(panel);
    const show = reply.getByRole('button', { name: /^Show chart: / });
    await expect(show).toBeVisible();

    // The chart is stored on the new sheet (a column chart over its totals), not on the one asked about.
    const auth = { Authorization: `Bearer ${await adminToken(request)}` };
    await expect
      .poll(async () => ((await (await request.get(`/api/v1/sheets/${result.id}`, { headers: auth })).json()).metadata.charts ?? []).map((c: { type: string }) => c.type))
      .toEqual(['column']);
    expect(await storedCharts(request)).toHaveLength(1);

    // 'Show chart' opens that sheet with the chart on it: a bar per region.
    await show.click();
    await expect(page.getByTestId('sheet-name')).toHaveText(result.name);
    const frame = page.getByTestId('chart-frame');
    await expect(frame).toHaveCount(1);
    await expect(frame.getByTestId('chart-view')).toHaveAttribute('data-chart-type', 'column');
    await expect(frame.locator('path.recharts-rectangle')).toHaveCount(3);
  });
});
