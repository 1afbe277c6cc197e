import { expect, test, type Page } from '@playwright/test';
import { adminToken } from '../support/session.js';
import { OIDC_ADMIN_LOGIN_PREFIX, OIDC_NAME } from '../support/stack';

/**
 * Issue 21, single sign-on: the stack's api trusts a real OpenID provider (oidc-provider, started
 * by the global setup; any login name signs in there). 'Sign in with …' → the provider's login
 * and consent → back in Tessera as a new member; sign out ends the provider's session too; the
 * role claim mapping; a tampered state or nonce is refused on the sign-in page.
 */
const SSO_BUTTON = `Sign in with ${OIDC_NAME}`;
const run = Date.now().toString(36);

/** The provider's development pages: any login, then consent. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function expectMainScreen(page: Page) {
  await expect(page.getByTestId('remote-mfe-sheets-Navigator').getByRole('heading', { name: 'Sheets', exact: true })).toBeVisible();
}

/**
 * The members the provider's `login` became: the provider gives no preferred_username, so the
 * username is the email it gives (`<login>@example.com`).
 */
async function membersOf(request: Parameters<typeof adminToken>[0], login: string) {
  const res = await request.get('/api/v1/users', { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok()).toBe(true);
  const users = (await res.json()) as Array<{ username: string; role: string; nickname: string | null; email: string | null }>;
  return users.filter((u) => u.email === `${login}@example.com`);
}

test("'Sign in with …' → the provider's login and consent → back in Tessera as a new member; sign out ends the provider's session too", async ({ page, request }) => {
  test.setTimeout(120_000);
  const login = `sso-${run}`;
  expect(await membersOf(request, login)).toEqual([]);

  await page.goto('/login');
  // Password sign-in is on in this stack: both ways show.
  await expect(page.getByLabel(/^username/i)).toBeVisible();
  await page.getByRole('button', { name: SSO_BUTTON }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await signInAtProvider(page, login);

  await expectMainScreen(page);
  await expect(page).toHaveURL(/\/sheets/);
  const userMenu = page.getByTestId('remote-mfe-sheets-Navigator').getByRole('button', { name: 'User menu' });
  await expect(userMenu).toContainText(`${login} Example`);
  expect(await membersOf(request, login)).toEqual([
    expect.objectContaining({ username: `${login}@example.com`, role: 'user', nickname: `${login} Example`, email: `${login}@example.com` }),
  ]);

  // A reload keeps the session (the same refresh cookie a password sign-in gets).
  await page.reload();
  await expectMainScreen(page);

  // Sign out: Tessera's session ends, then the provider's (its confirmation page), back to sign-in.
  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL(/localhost:\d+\/login/);

  // The provider's session is over: signing in again asks for the login again; the same member comes back.
  await page.getByRole('button', { name: SSO_BUTTON }).click();
  await expect(page.getByPlaceholder('Enter any login')).toBeVisible();
  await signInAtProvider(page, login);
  await expectMainScreen(page);
  expect(await membersOf(request, login)).toHaveLength(1);
});

test("the provider's group claim maps to a Tessera role: a member of tessera-admins signs in as an admin", async ({ page, request }) => {
  test.setTimeout(120_000);
  const login = `${OIDC_ADMIN_LOGIN_PREFIX}${run}`;
  await page.goto('/login');
  await page.getByRole('button', { name: SSO_BUTTON }).click();
  await signInAtProvider(page, login);
  await expectMainScreen(page);
  expect(await membersOf(request, login)).toEqual([expect.objectContaining({ role: 'admin' })]);
  // What only admins see: adding a member.
  await page.getByRole('button', { name: /members/i }).click();
  await expect(page.getByRole('button', { name: 'Add Member' })).toBeVisible();
});

for (const [param, text] of [
  ['state', "Sign-in refused: the reply does not belong to the sign-in started in this browser (state mismatch). Start the sign-in again."],
  ['nonce', "Sign-in refused: the identity provider's ID token was not issued for this sign-in (nonce mismatch). Start the sign-in again."],
] as const) {
  test(`a tampered ${param} is refused on the sign-in page and nobody is signed in or created`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const login = `tampered-${param}-${run}`;
    // Someone between the page and the provider changes the authorization request's ${param}.
    await page.route('**/api/v1/auth/oidc/start', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      const url = new URL(body.authorization_url);
      url.searchParams.set(param, `${url.searchParams.get(param)}-tampered`);
      await route.fulfill({ response: res, json: { authorization_url: url.href } });
    });
    await page.goto('/login');
    await page.getByRole('button', { name: SSO_BUTTON }).click();
    await signInAtProvider(page, login);
    await expect(page.getByRole('alert')).toHaveText(text);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page).not.toHaveURL(/code=/);
    expect(await membersOf(request, login)).toEqual([]);
  });
}
