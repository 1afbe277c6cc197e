import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/**
 * Sign-in and the first sheet, as every product spec starts: the admin that foundation.spec.ts
 * signs up (the first-run project runs before them), a sheet made through the api, and the
 * user's own steps in the UI to sign in and open it.
 */

export interface Account {
  username: string;
  password: string;
}

/** The admin of foundation.spec.ts; signed up here through the api when a spec runs on a stack without it. */
export const admin: Account = { username: 'first-admin', password: 'correct horse battery' };

/** An access token of the admin, for the test's own api calls (the page keeps its token in memory). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const status = await (await request.get('/api/v1/auth/status')).json();
  if (status.signup_open) {
    const res = await request.post('/api/v1/auth/signup', { data: admin });
    expect(res.status()).toBe(201);
  }
  const login = await request.post('/api/v1/auth/login', { data: admin });
  expect(login.ok()).toBe(true);
  return (await login.json()).access_token;
}

/** Signs in on the login page as a user would; returns the navigator once it lists the sheets. */
export async function signIn(page: Page, who: Account = admin): Promise<Locator> {
  await page.goto('/login');
  await page.getByLabel(/^username/i).fill(who.username);
  await page.getByLabel(/^password/i).fill(who.password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
  const navigator = page.getByTestId('remote-mfe-sheets-Navigator');
  await expect(navigator.getByRole('heading', { name: 'Sheets', exact: true })).toBeVisible();
  return navigator;
}

/** Creates a sheet as the admin through the api; returns its id. */
export async function createSheet(
  request: APIRequestContext,
  sheet: { name: string; headers: string[]; data: unknown[][] },
): Promise<string> {
  const res = await request.post('/api/v1/sheets', { headers: { Authorization: `Bearer ${await adminToken(request)}` }, data: sheet });
  expect(res.status()).toBe(201);
  return (await res.json()).id;
}

/** Opens a sheet from the navigator; returns once its name and grid show. */
export async function openSheet(page: Page, id: string, name: string) {
  await page.getByTestId(`row-sheet-${id}`).getByRole('button').first().click();
  await expect(page.getByTestId('sheet-name')).toHaveText(name);
  await expect(page.getByTestId('sheet-grid')).toBeVisible();
}
