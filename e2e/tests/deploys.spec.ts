import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  alive,
  DEPLOY_PORTS,
  releaseCopy,
  remotes,
  shellOrigin,
  startChatOrigin,
  startDeployStack,
  stopDeployStack,
} from '../support/deploys';

// Independent deploys (DESIGN.md § Remote versions): the chat team releases 1.0.0 and
// 1.1.0 (whose composer reads differently); ops swap them with `npm run remotes` while
// the product keeps running, and the user sees the change at their next page load.
// This file runs its own stack: it signs up its own first admin.

const admin = { username: 'deploy-admin', password: 'deploy admin password' };
const member = { username: 'deploy-member', password: 'deploy member password' };
const LABEL_1_0 = 'Ask about your sheet...';
const LABEL_1_1 = 'Ask about your sheet (1.1.0)...';

let pids: number[] = [];
let adminId = '';
let page: Page;

function userIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
}

async function signIn(p: Page, who: { username: string; password: string }) {
  await p.goto(`${shellOrigin}/login`);
  await p.getByLabel(/^username/i).fill(who.username);
  await p.getByLabel(/^password/i).fill(who.password);
  await p.getByRole('button', { name: /^sign in$/i }).click();
  await expect(p.getByTestId('remote-mfe-sheets-Navigator')).toBeVisible();
}

/** The chat panel shows this release's label, and the About view names the running release. */
async function expectChat(p: Page, label: string, version: string, release: string) {
  const panel = p.getByTestId('remote-mfe-chat-ChatPanel');
  await expect(panel.getByPlaceholder(label, { exact: true })).toBeVisible();
  await p.getByTestId('about-button').click();
  const row = p.getByTestId('about-dialog').getByTestId('remote-version-mfe-chat');
  await expect(row.getByRole('cell').nth(1)).toHaveText(version);
  await expect(row.getByRole('cell').nth(2)).toHaveText(release);
  await p.keyboard.press('Escape');
  await expect(p.getByTestId('about-dialog')).toHaveCount(0);
}

function expectNothingRestarted() {
  expect(pids.filter((pid) => !alive(pid))).toEqual([]);
}

test.describe.serial('deploys: ops swap the chat remote while the product runs', () => {
  // Each test reloads the whole product three times and runs the ops command between.
  test.describe.configure({ timeout: 120_000 });
  test.beforeAll(async ({ browser, request }) => {
    // Two production builds of the chat remote, then the stack.
    test.setTimeout(600_000);
    // Side by side: each copy builds in its own folder into its own release folder.
    await Promise.all([
      releaseCopy('mfe-chat', '1.0.0'),
      releaseCopy('mfe-chat', '1.1.0', [{ file: 'src/composer/Composer.tsx', from: `'${LABEL_1_0}'`, to: `'${LABEL_1_1}'` }]),
    ]);
    pids = (await startDeployStack()).map((p) => p.pid);

    const signup = await request.post(`${shellOrigin}/api/v1/auth/signup`, { data: admin });
    expect(signup.status()).toBe(201);
    const token = (await signup.json()).access_token as string;
    adminId = userIdOf(token);
    const created = await request.post(`${shellOrigin}/api/v1/users`, {
      data: { ...member, role: 'user' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(created.status()).toBe(201);

    page = await newPage(browser);
    await signIn(page, admin);
  });

  test.afterAll(async () => {
    await page?.context().close();
    await stopDeployStack();
  });

  test('set mfe-chat 1.1.0: after a reload the page shows 1.1.0, nothing restarted', async () => {
    await expectChat(page, LABEL_1_0, '0.1.0', 'live');

    expect(await remotes('set', 'mfe-chat', '1.0.0')).toContain('mfe-chat: live 1.0.0, previous 0.1.0');
    await page.reload();
    await expectChat(page, LABEL_1_0, '1.0.0', 'live');

    expect(await remotes('set', 'mfe-chat', '1.1.0')).toContain('mfe-chat: live 1.1.0, previous 1.0.0');
    await page.reload();
    await expectChat(page, LABEL_1_1, '1.1.0', 'live');
    expectNothingRestarted();
  });

  test('rollback mfe-chat: back to 1.0.0', async () => {
    expect(await remotes('rollback', 'mfe-chat')).toContain('rolled back from 1.1.0 to 1.0.0');
    await page.reload();
    await expectChat(page, LABEL_1_0, '1.0.0', 'live');
    expectNothingRestarted();
  });

  test('a live version whose server is down: the page falls back to the previous version and stays usable', async () => {
    // 1.1.0 goes live from a second origin, which then goes down.
    const second = await startChatOrigin(DEPLOY_PORTS['mfe-chat'] + 10);
    await remotes('set', 'mfe-chat', '1.1.0', '--origin', `http://localhost:${DEPLOY_PORTS['mfe-chat'] + 10}`);
    await second.stop();

    await page.reload();
    await expectChat(page, LABEL_1_0, '1.0.0', 'previous');
    await expect(page.getByTestId('remote-fallback-mfe-chat')).toHaveCount(0);
    // The rest of the page works: the members panel opens.
    await page.getByTestId('members-toggle').click();
    await expect(page.getByTestId('remote-mfe-members-MembersPanel').getByText('(You)')).toBeVisible();
    await page.getByTestId('members-toggle').click();

    await remotes('rollback', 'mfe-chat');
    expectNothingRestarted();
  });

  test('a canary of 100% for one user id shows 1.1.0 to that user only', async ({ browser }) => {
    expect(await remotes('canary', 'mfe-chat', '1.1.0', '100', '--users', adminId)).toContain(
      `mfe-chat: canary 1.1.0 for 100% of users ${adminId}`,
    );
    expect(await remotes('list')).toMatch(/canary {4}1\.1\.0 +100% of users/);

    await page.reload();
    await expectChat(page, LABEL_1_1, '1.1.0', 'canary');

    const other = await newPage(browser);
    try {
      await signIn(other, member);
      await expectChat(other, LABEL_1_0, '1.0.0', 'live');
    } finally {
      await other.context().close();
    }
    expectNothingRestarted();
  });
});

async function newPage(browser: Browser): Promise<Page> {
  // A browser context of its own: its own storage and cookies, as a person's browser.
  const context = await browser.newContext();
  return context.newPage();
}
