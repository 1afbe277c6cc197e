import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { adminToken, openSheet, signIn } from '../support/session.js';

/**
 * Issue 18 as users live it: an owner shares a sheet view-only with a member, who sees 'View
 * only' and whose typing changes nothing, until the owner makes them an editor (the open grid
 * unlocks without a reload); the owner closes a group to everyone else and it
 * leaves the member's navigator at once; the owner deletes a sheet and brings it back from the
 * Trash with its history; an admin finds all of it in Activity.
 */
const stamp = Date.now().toString(36);
const owner = { username: `owner-${stamp}`, password: 'owner password 1' };
const member = { username: `reader-${stamp}`, password: 'reader password 1' };
const sheetName = `Budget ${stamp}`;
const groupName = `Board ${stamp}`;

function gridCell(page: Page, row: number, col: number): Locator {
  return page.getByTestId('sheet-grid').locator('.ht_master .htCore tbody tr').nth(row).locator('td').nth(col);
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** Opens an item's menu in the navigator and picks an entry. */
async function itemMenu(page: Page, name: string, entry: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

test('sharing, view only, no access, the trash and the activity log', async ({ browser, request }) => {
  // Three people in three browsers on a shared machine: a hang guard, not a timing.
  test.setTimeout(240_000);
  const adminAuth = { Authorization: `Bearer ${await adminToken(request)}` };
  for (const who of [owner, member]) {
    const res = await request.post('/api/v1/users', { headers: adminAuth, data: { ...who, role: 'user' } });
    expect(res.status()).toBe(201);
  }
  const ownerLogin = await (await request.post('/api/v1/auth/login', { data: owner })).json();
  const ownerAuth = { Authorization: `Bearer ${ownerLogin.access_token}` };
  const sheet = await (
    await request.post('/api/v1/sheets', { headers: ownerAuth, data: { name: sheetName, headers: ['Item', 'Cost'], data: [['Rent', 1200], ['Food', 300]] } })
  ).json();
  const group = await (await request.post('/api/v1/groups', { headers: ownerAuth, data: { name: groupName } })).json();

  const a = await newPage(browser);
  const b = await newPage(browser);
  const c = await newPage(browser);
  try {
    // The owner shares the sheet with the member, view only.
    const ownerNav = await signIn(a.page, owner);
    await itemMenu(a.page, sheetName, 'Share...');
    const share = a.page.getByRole('dialog', { name: `Share “${sheetName}”` });
    await share.getByLabel('Add a member').selectOption({ label: member.username });
    await expect(share.getByLabel(`Level for ${member.username}`)).toHaveValue('viewer');
    await share.getByRole('button', { name: 'Save' }).click();
    await expect(share).toBeHidden();

    // The member opens it: 'View only', and typing changes nothing, on the screen or on the server.
    const memberNav = await signIn(b.page, member);
    await expect(memberNav.getByTestId(`row-group-${group.id}`)).toBeVisible();
    await openSheet(b.page, sheet.id, sheetName);
    await expect(b.page.getByText('View only', { exact: true })).toBeVisible();
    await gridCell(b.page, 0, 1).dblclick();
    await b.page.keyboard.type('9999');
    await b.page.keyboard.press('Enter');
    await expect(gridCell(b.page, 0, 1)).toHaveText('1200');
    const stored = await (await request.get(`/api/v1/sheets/${sheet.id}`, { headers: ownerAuth })).json();
    expect(stored.data[0][1]).toBe(1200);
    expect(stored.version).toBe(1);

    // The owner makes the member an editor while the sheet is open there: the grid unlocks live.
    await itemMenu(a.page, sheetName, 'Share...');
    await share.getByLabel(`Level for ${member.username}`).selectOption({ label: 'Editor' });
    await share.getByRole('button', { name: 'Save' }).click();
    await expect(share).toBeHidden();
    await expect(b.page.getByText('View only', { exact: true })).toHaveCount(0);
    await gridCell(b.page, 0, 1).click();
    await b.page.keyboard.type('1250');
    await b.page.keyboard.press('Enter');
    await expect.poll(async () => (await (await request.get(`/api/v1/sheets/${sheet.id}`, { headers: ownerAuth })).json()).data[0][1]).toBe(1250);

    // The owner closes the group to everyone else: it leaves the member's navigator without a reload.
    await itemMenu(a.page, groupName, 'Share...');
    const groupShare = a.page.getByRole('dialog', { name: `Share “${groupName}”` });
    await groupShare.getByLabel('Level for Everyone in the workspace').selectOption({ label: 'No access' });
    await groupShare.getByRole('button', { name: 'Save' }).click();
    await expect(groupShare).toBeHidden();
    await expect(memberNav.getByTestId(`row-group-${group.id}`)).toHaveCount(0);
    await expect(ownerNav.getByTestId(`row-group-${group.id}`)).toBeVisible();

    // The owner edits, deletes the sheet, and restores it from the Trash with its history.
    await openSheet(a.page, sheet.id, sheetName);
    await gridCell(a.page, 1, 1).click();
    await a.page.keyboard.type('350');
    await a.page.keyboard.press('Enter');
    await expect.poll(async () => (await (await request.get(`/api/v1/sheets/${sheet.id}`, { headers: ownerAuth })).json()).data[1][1]).toBe(350);
    await itemMenu(a.page, sheetName, 'Delete');
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(ownerNav.getByTestId(`row-sheet-${sheet.id}`)).toHaveCount(0);
    await ownerNav.getByTestId('open-trash').click();
    const trash = a.page.getByRole('dialog', { name: 'Trash' });
    await trash.getByRole('button', { name: `Restore ${sheetName}` }).click();
    await expect(ownerNav.getByTestId(`row-sheet-${sheet.id}`)).toBeVisible();
    await a.page.keyboard.press('Escape');
    const history = await (await request.get(`/api/v1/sheets/${sheet.id}/cells/1/1/history`, { headers: ownerAuth })).json();
    expect(JSON.stringify(history)).toContain('300');
    expect(JSON.stringify(history)).toContain('350');

    // An admin sees all of it in Activity.
    await signIn(c.page);
    await c.page.getByTestId('members-toggle').click();
    const panel = c.page.getByTestId('remote-mfe-members-MembersPanel');
    await panel.getByRole('button', { name: 'Activity' }).click();
    await panel.getByLabel('Member').selectOption({ label: owner.username });
    for (const label of ['Changed sharing', 'Deleted sheet', 'Restored']) {
      await expect(panel.getByRole('row').filter({ hasText: label }).filter({ hasText: sheetName }).first()).toBeVisible();
    }
    await expect(panel.getByRole('row').filter({ hasText: 'Changed sharing' }).filter({ hasText: groupName })).toBeVisible();
  } finally {
    await Promise.all([a.context.close(), b.context.close(), c.context.close()]);
  }
});
