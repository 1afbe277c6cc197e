import { expect, test, type Locator, type Page, type WebSocketRoute } from '@playwright/test';
import { admin, adminToken, createSheet, openSheet, signIn } from '../support/session';

const run = Date.now().toString(36);
const member = { username: `live-${run}`, password: 'live member password', nickname: `Lia ${run}` };
const sheetName = `Live Budget ${run}`;

/** The main grid's cell (row and column from 0); the overlays hold copies of the edges. */
function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function typeInto(page: Page, row: number, col: number, text: string) {
  await gridCell(page, row, col).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test.describe.serial('live: two users on one sheet', () => {
  const ids = { sheet: '' };
  let token = '';

  test.beforeAll(async ({ request }) => {
    token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    // The admin creates the second member through the api.
    const user = await request.post('/api/v1/users', { headers: auth, data: { ...member, role: 'user' } });
    expect(user.ok()).toBe(true);
    ids.sheet = await createSheet(request, { name: sheetName, headers: ['Item', 'Cost'], data: [['Rent', 1200], ['Food', 300], ['Gas', 80]] });
  });

  test('presence and toasts, edits both ways, and edits made while one socket is cut arrive after reconnect', async ({ browser, request }) => {
    // Two browser contexts: two people's browsers, each with its own session.
    const adminContext = await browser.newContext();
    const memberContext = await browser.newContext();
    try {
      const adminPage = await adminContext.newPage();
      const memberPage = await memberContext.newPage();

      // The member's sheet socket runs through a route the test can cut, as a lost network
      // would: both ends are closed, and new connections are refused until it is restored.
      let offline = false;
      const open: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
      await memberPage.routeWebSocket(/\/sheets\//, (ws) => {
        if (offline) {
          void ws.close({ code: 4000, reason: 'offline' });
          return;
        }
        open.push({ page: ws, server: ws.connectToServer() });
      });

      await signIn(adminPage, admin);
      await openSheet(adminPage, ids.sheet, sheetName);
      await expect(adminPage.getByTestId('connection-status')).toHaveText('Connected');

      // The admin is told the member joined, by nickname (watched from before: a toast lasts 5 s).
      const toast = (text: string) => adminPage.getByTestId('presence-toasts').getByRole('status').filter({ hasText: text });
      const joined = expect(toast('joined the sheet')).toContainText(member.nickname, { timeout: 30_000 });
      await signIn(memberPage, member);
      await openSheet(memberPage, ids.sheet, sheetName);
      await expect(memberPage.getByTestId('connection-status')).toHaveText('Connected');
      await joined;

      // Both see two users online.
      await expect(adminPage.getByTestId('online-indicator')).toContainText('2 online');
      await expect(memberPage.getByTestId('online-indicator')).toContainText('2 online');

      // An edit in one shows in the other, both ways.
      await typeInto(memberPage, 0, 1, '1250');
      await expect(gridCell(adminPage, 0, 1)).toHaveText('1250');
      await typeInto(adminPage, 2, 0, 'Petrol');
      await expect(gridCell(memberPage, 2, 0)).toHaveText('Petrol');
      await expect(memberPage.getByTestId('save-status')).toHaveText('Saved');

      // The admin's selected cell shows in the member's grid in the admin's colour.
      await gridCell(adminPage, 1, 1).click();
      await expect(gridCell(memberPage, 1, 1)).toHaveAttribute('data-presence', /.+/);

      // The member's socket is cut: the member edits offline while the admin edits too.
      const left = expect(toast('left the sheet')).toContainText(member.nickname, { timeout: 30_000 });
      offline = true;
      for (const { page, server } of open.splice(0)) {
        void page.close({ code: 4000, reason: 'offline' });
        void server.close();
      }
      await expect(memberPage.getByTestId('connection-status')).toHaveText('Disconnected');
      await left;
      await typeInto(memberPage, 1, 0, 'Groceries');
      await typeInto(memberPage, 1, 1, '350');
      await expect(memberPage.getByTestId('save-status')).toHaveText('Unsaved');
      await typeInto(adminPage, 0, 0, 'Mortgage');
      await expect(gridCell(adminPage, 1, 0)).toHaveText('Food');

      // Back online: what the member typed reaches the admin, and the admin's edit the member.
      offline = false;
      await expect(memberPage.getByTestId('connection-status')).toHaveText('Connected', { timeout: 40_000 });
      await expect(gridCell(adminPage, 1, 0)).toHaveText('Groceries');
      await expect(gridCell(adminPage, 1, 1)).toHaveText('350');
      await expect(gridCell(memberPage, 0, 0)).toHaveText('Mortgage');
      await expect(memberPage.getByTestId('save-status')).toHaveText('Saved');

      // Every copy is the server's sheet.
      const stored = await request.get(`/api/v1/sheets/${ids.sheet}`, { headers: { Authorization: `Bearer ${token}` } });
      expect((await stored.json()).data).toEqual([
        ['Mortgage', 1250],
        ['Groceries', 350],
        ['Petrol', 80],
      ]);
    } finally {
      await adminContext.close();
      await memberContext.close();
    }
  });
});
