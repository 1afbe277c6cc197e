import { expect, test, type Page } from '@playwright/test';
import { startService, stopService } from '../support/stack';

const admin = { username: 'first-admin', password: 'correct horse battery', nickname: 'Ada' };

async function expectMainScreen(page: Page) {
  // Navigator (sidebar) and Workspace (data tab) render on the main screen.
  await expect(page.getByTestId('remote-mfe-sheets-Navigator')).toBeVisible();
  await expect(page.getByText('No Sheet Selected')).toBeVisible();
  await expect(page.getByText('Select a sheet from the sidebar to get started')).toBeVisible();
}

test.describe.serial('foundation: a new user', () => {
  // Nothing the product loads may be refused by its own Content-Security-Policy.
  let cspViolations: string[] = [];
  test.beforeEach(({ page }) => {
    cspViolations = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy|Refused to (load|execute|connect|apply)/i.test(msg.text())) {
        cspViolations.push(msg.text());
      }
    });
  });
  test.afterEach(() => {
    expect(cspViolations).toEqual([]);
  });

  test('signs up as the first admin and sees all four remotes', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByText('Welcome back')).toBeVisible();

    await page.getByRole('link', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByText('Create admin first account')).toBeVisible();
    await page.getByLabel(/^username/i).fill(admin.username);
    await page.getByLabel(/^password/i).fill(admin.password);
    await page.getByLabel(/^nickname/i).fill(admin.nickname);
    await page.getByRole('button', { name: /sign up/i }).click();

    await expectMainScreen(page);
    await expect(page.getByTestId('remote-mfe-chat-ChatPanel').getByPlaceholder('Ask about your sheet...')).toBeVisible();
    await expect(page.getByText('Disconnected')).toBeVisible();

    // About shows both services as the health monitor saw them.
    await page.getByTestId('about-button').click();
    const about = page.getByTestId('about-dialog');
    await expect(about.getByTestId('health-api').getByText('healthy', { exact: true })).toBeVisible();
    await expect(about.getByTestId('health-ai-middleware').getByText('healthy', { exact: true })).toBeVisible();
    await expect(about.getByTestId('health-api')).toContainText('/health');
    await page.keyboard.press('Escape');
    await expect(about).toHaveCount(0);

    // Members panel behind the Members button in the header: the admin is listed as (You).
    await page.getByRole('button', { name: /members/i }).click();
    const members = page.getByTestId('remote-mfe-members-MembersPanel');
    await expect(members).toBeVisible();
    await expect(members.getByText(admin.username)).toBeVisible();
    await expect(members.getByText('(You)')).toBeVisible();
    await expect(members.getByText('admin', { exact: true })).toBeVisible();

    // Git tab: the repository panel with its empty message; the URL keeps the tab.
    await page.getByRole('tab', { name: /git/i }).click();
    await expect(page).toHaveURL(/tab=git/);
    await expect(page.getByText('No commits yet — create your first file to initialize the repository.')).toBeVisible();

    // A reload keeps the session and the tab.
    await page.reload();
    await expect(page).toHaveURL(/tab=git/);
    await expect(page.getByText('No commits yet — create your first file to initialize the repository.')).toBeVisible();
  });

  test('signup is closed after the first account', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveCount(0);
    await page.goto('/signup');
    await expect(page.getByText('Signup disabled. Contact an admin for a new account.')).toBeVisible();
  });

  test('logs out and signs in again', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(/^username/i).fill(admin.username);
    await page.getByLabel(/^password/i).fill('wrong password!');
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await expect(page.getByText('Invalid credentials')).toBeVisible();

    await page.getByLabel(/^password/i).fill(admin.password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await expectMainScreen(page);

    // The user menu in the navigator shows the nickname and offers Log out.
    const userMenu = page.getByTestId('remote-mfe-sheets-Navigator').getByRole('button', { name: 'User menu' });
    await expect(userMenu).toContainText(admin.nickname);
    await userMenu.click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await page.getByLabel(/^username/i).fill(admin.username);
    await page.getByLabel(/^password/i).fill(admin.password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await expectMainScreen(page);
  });

  test('keeps working when the chat remote is down, and Retry loads it once it is back', async ({ page }) => {
    await stopService('mfe-chat');
    try {
      await page.goto('/login');
      await page.getByLabel(/^username/i).fill(admin.username);
      await page.getByLabel(/^password/i).fill(admin.password);
      await page.getByRole('button', { name: /^sign in$/i }).click();
      await expectMainScreen(page);
      const fallback = page.getByTestId('remote-fallback-mfe-chat');
      await expect(fallback).toBeVisible();
      await expect(fallback).toContainText('Chat is unavailable');
      await expect(page.getByPlaceholder('Ask about your sheet...')).toHaveCount(0);
      // The rest of the page still works: the members panel opens.
      await page.getByRole('button', { name: /members/i }).click();
      await expect(page.getByTestId('remote-mfe-members-MembersPanel').getByText('(You)')).toBeVisible();
    } finally {
      await startService('mfe-chat');
    }
    await page.getByTestId('remote-fallback-mfe-chat').getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByPlaceholder('Ask about your sheet...')).toBeVisible();
    await expect(page.getByTestId('remote-fallback-mfe-chat')).toHaveCount(0);
  });
});
