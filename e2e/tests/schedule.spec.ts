import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ask, lastReply, openChat } from '../support/chat-panel';
import { adminToken, createSheet, openSheet, signIn } from '../support/session';

// The agreed requests of the built-in assistant (no model): P1 solves, P2 cannot be solved
// (2 doctors a night for 28 nights needs 56 doctor-nights; 3 doctors × at most 8 nights = 24).
const P1 = 'schedule 12 doctors over 28 days, 2 on day shift and 1 on night shift, at most 6 days in a row';
const P2 = 'schedule 3 doctors over 28 days, 2 on night shift, at most 8 nights each';

// A schedule's grid: the doctor, one column per day, then a total per shift type of the request.
const DAYS = Array.from({ length: 28 }, (_, i) => String(i + 1));
const scheduleHeaders = (shifts: string[]) => ['Doctor ID', 'Doctor Name', ...DAYS, ...shifts.map((s) => `Total ${s}`)];
// Spec 02 §8, §2 (the Operation Failed panel).
const FAILED_MESSAGE = 'Math model requirements update cannot be fulfilled. Solver could not solve the problem after 3 attempts.';

// The whole grid of a schedule (2 + 28 + 2 columns of 120 px) fits on a wide screen, so the
// test reads every column as a user sees it, without scrolling a virtualised grid.
test.use({ viewport: { width: 4600, height: 1100 } });

/** A sheet as the api stores it now (read with a token of our own: the page keeps its token in memory). */
async function storedSheet(request: APIRequestContext, id: string): Promise<{ name: string; metadata: { headers: string[]; origin?: string }; data: unknown[][] }> {
  const res = await request.get(`/api/v1/sheets/${id}`, { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The next sheet the page creates (the chat makes result sheets through the api, as the user). */
function nextCreatedSheet(page: Page): Promise<{ id: string; name: string }> {
  return page
    .waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sheets', { timeout: 60_000 })
    .then((r) => r.json());
}

/** The header badge of the solver, whichever status it shows. */
const solverBadge = (page: Page): Locator => page.getByTestId('remote-mfe-chat-HeaderStatus').getByText(/^Solver: /);

/** The column headers and the first `rowCount` rows of the open grid, as its cells read on screen. */
async function gridOnScreen(page: Page, rowCount: number): Promise<{ headers: string[]; rows: string[][] }> {
  const grid = page.getByTestId('sheet-grid');
  // The top overlay holds the header row; its first cell is the corner above the row numbers.
  const headers = (await grid.locator('.ht_clone_top thead tr').first().locator('th').allTextContents()).slice(1).map((t) => t.trim());
  const body = grid.locator('.ht_master .htCore tbody tr');
  const rows: string[][] = [];
  for (let row = 0; row < rowCount; row++) rows.push((await body.nth(row).locator('td').allTextContents()).map((t) => t.trim()));
  return { headers, rows };
}

/** How many cells of a column hold each shift code. */
function shiftCounts(rows: string[][], col: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) if (row[col]) counts[row[col]] = (counts[row[col]] ?? 0) + 1;
  return counts;
}

/**
 * A schedule sheet the chat made, as the user finds it: listed in the navigator with its
 * size, then opened: the schedule's headers and one row per doctor (id and name), nothing
 * below. Returns the doctors' rows as they read on screen.
 */
async function expectScheduleSheet(
  page: Page,
  request: APIRequestContext,
  sheet: { id: string; name: string },
  expected: { doctors: number; shifts: string[]; origin: 'schedule_auto' | 'schedule_manual_retry' },
): Promise<string[][]> {
  const headers = scheduleHeaders(expected.shifts);
  const row = page.getByTestId('remote-mfe-sheets-Navigator').getByTestId(`row-sheet-${sheet.id}`);
  await expect(row).toContainText(sheet.name);
  // Spec 02 §9: the result's rows + 5, at least 20; its columns.
  await expect(row).toContainText(`${Math.max(20, expected.doctors + 5)} rows • ${headers.length} cols`);
  // Not on screen: the sheet's origin (spec 02 §3 metadata.origin).
  await expect.poll(async () => (await storedSheet(request, sheet.id)).metadata.origin).toBe(expected.origin);

  await openSheet(page, sheet.id, sheet.name);
  await expect.poll(async () => (await gridOnScreen(page, 0)).headers.slice(0, headers.length)).toEqual(headers);
  const { rows } = await gridOnScreen(page, expected.doctors + 1);
  const doctors = rows.slice(0, expected.doctors);
  for (const doctor of doctors) expect(doctor[0] !== '' && doctor[1] !== '', `doctor row ${doctor.join(' ')}`).toBe(true);
  expect(new Set(doctors.map((d) => d[0])).size).toBe(expected.doctors);
  expect(rows[expected.doctors].slice(0, headers.length).every((cell) => cell === '')).toBe(true);
  return doctors;
}

test.describe.serial('schedule: a new user asks the built-in assistant for a staff schedule', () => {
  test.beforeAll(async ({ request }) => {
    await adminToken(request);
  });

  test("asks for 12 doctors over 28 days in Agent • AI Powered: 'Solver: success', and a Schedule sheet of the right shape in the navigator", async ({ page, request }) => {
    await signIn(page);
    const panel = await openChat(page);
    await expect(solverBadge(page)).toHaveCount(0);

    const created = nextCreatedSheet(page);
    await ask(panel, 'Agent • AI Powered', P1);
    const sheet = await created;
    // Spec 02 §9: 'Schedule' and the time of day, HH-MM-SS.
    expect(sheet.name).toMatch(/^Schedule \d{2}-\d{2}-\d{2}$/);
    await lastReply(panel);
    await expect(solverBadge(page)).toHaveText('Solver: success');
    await expect(page.getByTestId('remote-mfe-chat-RecoveryBanner').getByRole('alert')).toHaveCount(0);

    const doctors = await expectScheduleSheet(page, request, sheet, { doctors: 12, shifts: ['D', 'N'], origin: 'schedule_auto' });
    // Every day: 2 on the day shift and 1 on the night shift, nobody else.
    for (let day = 1; day <= 28; day++) expect(shiftCounts(doctors, 1 + day), `day ${day}`).toEqual({ D: 2, N: 1 });
    // Each doctor's totals are the shifts of their row.
    for (const doctor of doctors) {
      const days = doctor.slice(2, 30);
      expect(Number(doctor[30])).toBe(days.filter((c) => c === 'D').length);
      expect(Number(doctor[31])).toBe(days.filter((c) => c === 'N').length);
    }
  });

  test("asks for 3 doctors with 2 on every night: 'Solver: failed' and Operation Failed; Retry with Simpler Requirements makes a '-retry' sheet; Reset Session clears the failure", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await signIn(page);
    const panel = await openChat(page);
    const banner = page.getByTestId('remote-mfe-chat-RecoveryBanner').getByRole('alert');

    await ask(panel, 'Agent • AI Powered', P2);
    const reply = await lastReply(panel, 'failed');
    await expect(solverBadge(page)).toHaveText('Solver: failed');
    await expect(reply).toContainText('Solver failed after 3 attempts');

    // The recovery banner in the main area: the spec's texts and actions that name the numbers in conflict.
    await expect(banner.getByRole('heading', { name: 'Operation Failed' })).toBeVisible();
    await expect(banner).toContainText(FAILED_MESSAGE);
    await expect(banner).toContainText('Suggested actions');
    const actions = banner.getByRole('listitem');
    await expect(actions.filter({ hasText: /\b56\b/ }).first()).toBeVisible();
    await expect(actions.filter({ hasText: /\b24\b/ }).first()).toBeVisible();
    for (const name of ['Rollback', 'Retry with Simpler Requirements', 'Reset Session']) await expect(banner.getByRole('button', { name })).toBeEnabled();

    // Retry with Simpler Requirements: solved at once, into a '-retry' sheet; the failure is cleared.
    const created = nextCreatedSheet(page);
    await banner.getByRole('button', { name: 'Retry with Simpler Requirements' }).click();
    const retried = await created;
    expect(retried.name).toMatch(/^Schedule \d{2}-\d{2}-\d{2}-retry$/);
    await expect(banner).toHaveCount(0);
    await expect(solverBadge(page)).toHaveText('Solver: success');
    await expectScheduleSheet(page, request, retried, { doctors: 3, shifts: ['N'], origin: 'schedule_manual_retry' });

    // The same request fails again; Reset Session hides the banner and the badge.
    await ask(panel, 'Agent • AI Powered', P2);
    await lastReply(panel, 'failed');
    await expect(solverBadge(page)).toHaveText('Solver: failed');
    await expect(banner).toContainText(FAILED_MESSAGE);
    await banner.getByRole('button', { name: 'Reset Session' }).click();
    await expect(banner).toHaveCount(0);
    await expect(solverBadge(page)).toHaveCount(0);
  });

  test('Rollback: after an AI change to the open sheet and a failed solve, the sheet goes back to its version from before the AI, and the solver to the last model that solved', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const name = `Night cover ${Date.now().toString(36)}`;
    const id = await createSheet(request, { name, headers: ['Name', 'Hours'], data: [['Ana', 10], ['Ben', 20]] });
    await signIn(page);
    await openSheet(page, id, name);
    const panel = await openChat(page);
    const banner = page.getByTestId('remote-mfe-chat-RecoveryBanner').getByRole('alert');
    const hours = async () => (await storedSheet(request, id)).data.slice(0, 2).map((row) => row[1]);

    // The AI changes the open sheet: every Hours doubled.
    await ask(panel, 'Agent • Direct Exec', 'result = {"headers": headers, "rows": [[r[0], r[1] * 2] for r in rows if r[0]]}');
    await expect(await lastReply(panel)).toContainText(new RegExp(`Applied to ${name} as version \\d+\\.`));
    await expect.poll(hours).toEqual([20, 40]);

    // A schedule that solves, then one that cannot.
    await ask(panel, 'Agent • AI Powered', P1);
    await lastReply(panel);
    await expect(solverBadge(page)).toHaveText('Solver: success');
    await ask(panel, 'Agent • AI Powered', P2);
    await lastReply(panel, 'failed');
    await expect(solverBadge(page)).toHaveText('Solver: failed');

    // Rollback: the sheet is back as it was before the AI, on screen and stored; the badge is back to the model that solved.
    await banner.getByRole('button', { name: 'Rollback' }).click();
    await expect(banner).toHaveCount(0);
    await expect.poll(hours).toEqual([10, 20]);
    await expect(solverBadge(page)).toHaveText('Solver: success');
    const grid = page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr');
    await expect.poll(async () => [await grid.nth(0).locator('td').nth(1).textContent(), await grid.nth(1).locator('td').nth(1).textContent()]).toEqual(['10', '20']);
    await expect(panel.getByRole('log', { name: 'Messages' }).getByRole('article').last()).toContainText('Rollback');
  });
});
