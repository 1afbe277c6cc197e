import { expect, test, type Locator, type Page } from '@playwright/test';
import { admin, adminToken, createSheet, openSheet, signIn } from '../support/session.js';

/**
 * Issue 17 §3: a member deleted while their tab is open on a sheet is signed out there at once
 * (their sockets close with 4401 and no fresh token can be had), and the sign-in page says why;
 * the admin working on the same sheet keeps every edit.
 */
const SESSION_ENDED = 'Your session has ended. Sign in again.';
const member = { username: `gone-${Date.now().toString(36)}`, password: 'member password 1', nickname: 'Soon Gone' };
const sheetName = `Revocation ${Date.now().toString(36)}`;

/** The main grid's cell (row and column from 0). */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function typeInto(page: Page, row: number, col: number, text: string) {
  await gridCell(page, row, col).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('a member deleted while their tab is open is signed out with the session-ended notice; the admin keeps their edits', async ({ browser, request }) => {
  // Two browsers, two sign-ins and a reload on a shared machine: a hang guard, not a timing.
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const created = await request.post('/api/v1/users', { headers: auth, data: { ...member, role: 'user' } });
  expect(created.ok()).toBe(true);
  const memberId = (await created.json()).id as string;
  const sheetId = await createSheet(request, { name: sheetName, headers: ['Item', 'Cost'], data: [['Rent', 1200], ['Food', 300]] });

  const adminContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    const memberPage = await memberContext.newPage();
    await signIn(adminPage, admin);
    await openSheet(adminPage, sheetId, sheetName);
    await expect(adminPage.getByTestId('connection-status')).toHaveText('Connected');
    await signIn(memberPage, member);
    await openSheet(memberPage, sheetId, sheetName);
    await expect(memberPage.getByTestId('connection-status')).toHaveText('Connected');

    // The admin edits; the member sees it live.
    await typeInto(adminPage, 0, 1, '1250');
    await expect(gridCell(memberPage, 0, 1)).toHaveText('1250');

    // The admin deletes the member while the member's tab is on the sheet.
    const deleted = await request.delete(`/api/v1/users/${memberId}`, { headers: auth });
    expect(deleted.status()).toBe(204);

    // The member's tab: signed out, and told why.
    await expect(memberPage.getByText(SESSION_ENDED)).toBeVisible();
    await expect(memberPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(memberPage).toHaveURL(/\/login/);

    // The admin goes on: the earlier edit and a new one are there, after a reload too.
    await typeInto(adminPage, 1, 1, '333');
    await expect(adminPage.getByTestId('connection-status')).toHaveText('Connected');
    await adminPage.reload();
    await expect(gridCell(adminPage, 0, 1)).toHaveText('1250');
    await expect(gridCell(adminPage, 1, 1)).toHaveText('333');
    const sheet = await (await request.get(`/api/v1/sheets/${sheetId}`, { headers: auth })).json();
    expect((sheet.data as unknown[][]).slice(0, 2).map((row) => row.map(String))).toEqual([
      ['Rent', '1250'],
      ['Food', '333'],
    ]);
  } finally {
    await adminContext.close();
    await memberContext.close();
  }
});
