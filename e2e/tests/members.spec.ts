import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminToken, signIn } from '../support/session';

const member = {
  username: `member-${Date.now().toString(36)}`,
  password: 'member password 1',
  newPassword: 'member password 2',
  nickname: 'Mo',
};


async function openMembers(page: Page) {
  await page.getByTestId('members-toggle').click();
  const panel = page.getByTestId('remote-mfe-members-MembersPanel');
  await expect(panel.getByRole('table')).toBeVisible();
  return panel;
}

async function newPage(browser: Browser) {
  // A second browser context: its own storage and cookies, as a second person's browser.
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe.serial('members: an admin and a new member', () => {
  test('the admin adds a member, promotes them; the member sees it after a reload and changes their password', async ({
    page,
    browser,
    request,
  }) => {
    // The admin of foundation.spec.ts; signed up here when this file runs alone on an empty stack.
    await adminToken(request);

    // The admin adds a member through the Add Member dialog.
    await signIn(page);
    const adminPanel = await openMembers(page);
    await expect(adminPanel.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
    await expect(page.getByTestId('online-indicator')).toContainText('online');
    await adminPanel.getByRole('button', { name: 'Add Member' }).click();
    const add = page.getByRole('dialog', { name: 'Add Member' });
    await expect(add.getByRole('button', { name: 'Create' })).toBeDisabled();
    await add.getByLabel('Username').fill(member.username);
    await add.getByLabel('Password').fill(member.password);
    await add.getByLabel('Nickname').fill(member.nickname);
    await add.getByRole('combobox').selectOption('user');
    await add.getByRole('button', { name: 'Create' }).click();
    await expect(add).toHaveCount(0);
    const adminRow = adminPanel.getByTestId(`member-row-${member.username}`);
    await expect(adminRow.getByRole('cell').nth(1)).toHaveText('user');
    await expect(adminRow.getByRole('cell').nth(2)).toHaveText(member.nickname);

    // The member signs in in a second browser: no Actions column, no admin buttons.
    const second = await newPage(browser);
    try {
      const memberPage = second.page;
      await signIn(memberPage, member);
      const memberPanel = await openMembers(memberPage);
      await expect(memberPanel.getByTestId(`member-row-${member.username}`)).toContainText('(You)');
      await expect(memberPanel.getByRole('columnheader', { name: 'Username' })).toBeVisible();
      await expect(memberPanel.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
      await expect(memberPanel.getByRole('button', { name: 'Add Member' })).toHaveCount(0);

      // The admin promotes them.
      await adminRow.getByRole('button', { name: `Actions for ${member.username}` }).click();
      await page.getByRole('menuitem', { name: 'Promote' }).click();
      await expect(adminRow.getByRole('cell').nth(1)).toHaveText('admin');

      // The member closes and opens their Members panel: the list loads again on opening and shows the new role.
      await memberPage.getByTestId('members-toggle').click();
      await expect(memberPage.getByTestId('members-panel')).toBeHidden();
      const reopened = await openMembers(memberPage);
      await expect(reopened.getByTestId(`member-row-${member.username}`).getByRole('cell').nth(1)).toHaveText('admin');

      // After a reload the role check refreshes the member's token: they have admin rights.
      await memberPage.reload();
      const promotedPanel = await openMembers(memberPage);
      await expect(promotedPanel.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
      await expect(promotedPanel.getByRole('button', { name: 'Add Member' })).toBeVisible();
      await expect(promotedPanel.getByTestId(`member-row-${member.username}`).getByRole('cell').nth(1)).toHaveText('admin');

      // The member closes the Members panel and changes their own password in Account Settings (user menu).
      await memberPage.getByTestId('members-toggle').click();
      await expect(memberPage.getByTestId('members-panel')).toBeHidden();
      await memberPage.getByTestId('remote-mfe-sheets-Navigator').getByRole('button', { name: 'User menu' }).click();
      await memberPage.getByRole('menuitem', { name: 'Account Settings' }).click();
      await expect(memberPage).toHaveURL(/\/settings$/);
      const settings = memberPage.getByTestId('remote-mfe-members-AccountSettings');
      await expect(settings.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
      await expect(settings.getByLabel('Nickname')).toHaveValue(member.nickname);
      await settings.getByRole('button', { name: 'Change Password' }).click();
      const change = memberPage.getByRole('dialog', { name: 'Change Password' });
      await change.getByLabel('Current password').fill(member.password);
      await change.getByLabel('New password').fill(member.newPassword);
      await change.getByRole('button', { name: 'Submit' }).click();
      await expect(settings.getByText('Password updated')).toBeVisible();

      // Signed out, the old password no longer works and the new one does.
      await memberPage.getByTestId('logout-button').click();
      await expect(memberPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await memberPage.getByLabel(/^username/i).fill(member.username);
      await memberPage.getByLabel(/^password/i).fill(member.password);
      await memberPage.getByRole('button', { name: /^sign in$/i }).click();
      await expect(memberPage.getByText('Invalid credentials')).toBeVisible();
      await signIn(memberPage, { username: member.username, password: member.newPassword });
    } finally {
      await second.context.close();
    }
  });
});
