// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is single sign-on.
// Issue 21, single sign-on: the authorization code flow (PKCE, state, nonce) against a real
// OpenID provider (oidc-provider) started here, driven over HTTP through its login and consent pages.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SIGN_IN_OPTIONS_PATH, SSO_CALLBACK_PATH, SSO_START_PATH, SSO_TEXTS } from '@tessera/contracts';
import type { LightMyRequestResponse } from 'fastify';
import type { OidcConfig } from '../src/config.js';
import { ADMIN, login, postJson, refresh, refreshCookieOf, signupAdmin, userCount } from './support/auth-helpers.js';
import { insertMember } from './support/members.js';
import { signInAtProvider, startTestProvider, type TestProvider } from './support/oidc-provider.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The browser's address of Tessera in these tests (the Host the shell server would forward). */
const HOST = '127.0.0.1:3900';
const REDIRECT_URI = `http://${HOST}/login`;
const PENDING_COOKIE = 'tessera_sso';

function oidcConfig(provider: TestProvider, extra: Partial<OidcConfig> = {}): OidcConfig {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    name: 'Acme ID',
    scopes: ['openid', 'profile', 'email'],
    ...extra,
  };
}

async function start(t: TestApp): Promise<{ url: string; pending: string }> {
  const res = await t.app.inject({ method: 'POST', url: SSO_START_PATH, headers: { host: HOST } });
  assert.equal(res.statusCode, 200, res.body);
  const pending = res.cookies.find((c) => c.name === PENDING_COOKIE);
  assert.ok(pending?.value, 'the pending sign-in is kept in a cookie');
  assert.equal(pending.httpOnly, true);
  return { url: res.json().authorization_url, pending: pending.value };
}

function callback(t: TestApp, query: string, pending?: string): Promise<LightMyRequestResponse> {
  return postJson(t.app, SSO_CALLBACK_PATH, { query }, { host: HOST, ...(pending ? { cookie: `${PENDING_COOKIE}=${pending}` } : {}) });
}

/** The whole round trip as a browser makes it: start, the provider's pages as `loginName`, back to Tessera. */
async function ssoSignIn(t: TestApp, loginName: string): Promise<LightMyRequestResponse> {
  const { url, pending } = await start(t);
  return callback(t, await signInAtProvider(url, loginName, REDIRECT_URI), pending);
}

function me(t: TestApp, accessToken: string) {
  return t.app.inject({ method: 'GET', url: '/api/v1/users', headers: { authorization: `Bearer ${accessToken}` } });
}

async function identityCount(t: TestApp): Promise<number> {
  const row = await t.app.db.selectFrom('oidc_identities').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

function assertRefused(res: LightMyRequestResponse, status: number, message: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.json().error.message, message);
  assert.equal(refreshCookieOf(res), undefined, 'no session is started');
}

describe('single sign-on with a real OpenID provider', () => {
  let provider: TestProvider;
  let t: TestApp;
  before(async () => {
    provider = await startTestProvider({ redirectUris: [REDIRECT_URI] });
    t = await createTestApp({ oidc: oidcConfig(provider, { roleClaim: 'groups', roleMap: [{ value: 'tessera-admins', role: 'admin' }] }) });
    await signupAdmin(t.app);
  });
  after(async () => {
    await t?.close();
    await provider?.close();
  });

  it('tells the sign-in page that SSO is on, its name, and that password sign-in is on', async () => {
    const res = await t.app.inject({ method: 'GET', url: SIGN_IN_OPTIONS_PATH });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { password_login: true, sso: { name: 'Acme ID' } });
  });

  it('sends the browser to the provider with PKCE (S256), state, nonce and the configured scopes', async () => {
    const { url } = await start(t);
    const auth = new URL(url);
    assert.equal(auth.origin, provider.issuer);
    assert.equal(auth.searchParams.get('client_id'), provider.clientId);
    assert.equal(auth.searchParams.get('redirect_uri'), REDIRECT_URI);
    assert.equal(auth.searchParams.get('response_type'), 'code');
    assert.equal(auth.searchParams.get('scope'), 'openid profile email');
    assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
    assert.match(auth.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((auth.searchParams.get('state') ?? '').length >= 32);
    assert.ok((auth.searchParams.get('nonce') ?? '').length >= 32);
  });

  it('the first sign-in creates a member (role user) from the claims, with the tokens a password sign-in gets; the second finds the same member', async () => {
    provider.accounts.set('alice-sub', { preferred_username: 'alice', name: 'Alice Liddell', email: 'alice@acme.test' });
    const before = await userCount(t.app);
    const first = await ssoSignIn(t, 'alice-sub');
    assert.equal(first.statusCode, 200, first.body);
    const body = first.json();
    assert.equal(body.user.username, 'alice');
    assert.equal(body.user.nickname, 'Alice Liddell');
    assert.equal(body.user.email, 'alice@acme.test');
    assert.equal(body.user.role, 'user');
    assert.equal(await userCount(t.app), before + 1);
    // The same kind of session as a password sign-in: a working access token and a refresh cookie.
    assert.equal((await me(t, body.access_token)).statusCode, 200);
    const cookie = refreshCookieOf(first);
    assert.ok(cookie);
    assert.equal((await refresh(t.app, cookie)).statusCode, 200);
    // The pending sign-in is used up.
    assert.ok(first.cookies.some((c) => c.name === PENDING_COOKIE && c.value === ''), 'the pending cookie is cleared');

    const second = await ssoSignIn(t, 'alice-sub');
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json().user.id, body.user.id);
    assert.equal(await userCount(t.app), before + 1, 'no second member');
    // Nobody can sign in with a password as this member.
    assert.equal((await postJson(t.app, '/api/v1/auth/login', { username: 'alice', password: 'correct horse battery' })).statusCode, 401);
  });

  it('makes a taken username unique, and falls back to the email without preferred_username', async () => {
    await insertMember(t.app, 'user', { username: 'bob' });
    provider.accounts.set('bob-sub', { preferred_username: 'Bob' });
    const bob = await ssoSignIn(t, 'bob-sub');
    assert.equal(bob.statusCode, 200, bob.body);
    assert.equal(bob.json().user.username, 'Bob-2');

    provider.accounts.set('carol-sub', { email: 'carol@acme.test' });
    const carol = await ssoSignIn(t, 'carol-sub');
    assert.equal(carol.statusCode, 200, carol.body);
    assert.equal(carol.json().user.username, 'carol@acme.test');
  });

  it('maps the role claim (OIDC_ROLE_CLAIM / OIDC_ROLE_MAP) on the first sign-in and follows it on later ones', async () => {
    provider.accounts.set('dave-sub', { preferred_username: 'dave', groups: ['staff', 'tessera-admins'] });
    const first = await ssoSignIn(t, 'dave-sub');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().user.role, 'admin');
    const adminToken = first.json().access_token;
    assert.equal((await me(t, adminToken)).statusCode, 200);

    provider.accounts.set('dave-sub', { preferred_username: 'dave', groups: ['staff'] });
    const second = await ssoSignIn(t, 'dave-sub');
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json().user.id, first.json().user.id);
    assert.equal(second.json().user.role, 'user');
    // The admin token issued before the change stops working (the role change raised the epoch).
    assert.equal((await me(t, adminToken)).statusCode, 401);
  });

  it('refuses a reply whose state was tampered with: 400, clear text, nobody created, no session', async () => {
    provider.accounts.set('eve-sub', { preferred_username: 'eve' });
    const { url, pending } = await start(t);
    const query = new URLSearchParams(await signInAtProvider(url, 'eve-sub', REDIRECT_URI));
    query.set('state', `${query.get('state')}x`);
    const before = await userCount(t.app);
    assertRefused(await callback(t, query.toString(), pending), 400, SSO_TEXTS.stateMismatch);
    assert.equal(await userCount(t.app), before);
  });

  it('refuses an ID token carrying another nonce (the authorization request was tampered with): 400, clear text, nobody created', async () => {
    provider.accounts.set('mallory-sub', { preferred_username: 'mallory' });
    const { url, pending } = await start(t);
    const tampered = new URL(url);
    tampered.searchParams.set('nonce', 'a-nonce-chosen-by-someone-else-0123456789');
    const query = await signInAtProvider(tampered.href, 'mallory-sub', REDIRECT_URI);
    const before = await userCount(t.app);
    const identities = await identityCount(t);
    assertRefused(await callback(t, query, pending), 400, SSO_TEXTS.nonceMismatch);
    assert.equal(await userCount(t.app), before);
    assert.equal(await identityCount(t), identities);
  });

  it('refuses a reply without a pending sign-in in this browser, and a replayed one', async () => {
    provider.accounts.set('trent-sub', { preferred_username: 'trent' });
    const { url, pending } = await start(t);
    const query = await signInAtProvider(url, 'trent-sub', REDIRECT_URI);
    assertRefused(await callback(t, query), 400, SSO_TEXTS.noPendingSignIn);
    assertRefused(await callback(t, query, 'not-a-pending-sign-in'), 400, SSO_TEXTS.noPendingSignIn);
    const ok = await callback(t, query, pending);
    assert.equal(ok.statusCode, 200, ok.body);
    // The same code again: the provider refuses a used code.
    assertRefused(await callback(t, query, pending), 400, SSO_TEXTS.verificationFailed);
  });

  it("shows the provider's refusal (the user cancelled) as a 400 with its text", async () => {
    const { url, pending } = await start(t);
    const state = new URL(url).searchParams.get('state') ?? '';
    const query = new URLSearchParams({ error: 'access_denied', error_description: 'End-User aborted interaction', state });
    assertRefused(await callback(t, query.toString(), pending), 400, SSO_TEXTS.providerRefused('End-User aborted interaction'));
  });

  it("signing out a provider's member gives the provider's end-session URL; a password member's sign-out stays 204", async () => {
    provider.accounts.set('frank-sub', { preferred_username: 'frank' });
    const signedIn = await ssoSignIn(t, 'frank-sub');
    const cookie = refreshCookieOf(signedIn);
    assert.ok(cookie);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { host: HOST }, cookies: { tessera_refresh: cookie } });
    assert.equal(out.statusCode, 200, out.body);
    const end = new URL(out.json().end_session_url);
    assert.equal(`${end.origin}${end.pathname}`, `${provider.issuer}/session/end`);
    assert.equal(end.searchParams.get('client_id'), provider.clientId);
    assert.equal(end.searchParams.get('post_logout_redirect_uri'), REDIRECT_URI);
    assert.equal((await refresh(t.app, cookie)).statusCode, 401, 'the session ended here too');

    const admin = await login(t.app, ADMIN.username, ADMIN.password);
    const adminOut = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', cookies: { tessera_refresh: admin.refreshCookie } });
    assert.equal(adminOut.statusCode, 204);
  });
});

describe('single sign-on: the first account, password sign-in turned off, a provider that is down', () => {
  let provider: TestProvider;
  before(async () => {
    provider = await startTestProvider({ redirectUris: [REDIRECT_URI] });
  });
  after(() => provider?.close());

  it('refuses to make the first account through SSO unless the provider maps it to admin (signup would close with no admin)', async () => {
    const t = await createTestApp({ oidc: oidcConfig(provider, { roleClaim: 'groups', roleMap: [{ value: 'tessera-admins', role: 'admin' }] }) });
    try {
      provider.accounts.set('first-sub', { preferred_username: 'first' });
      assertRefused(await ssoSignIn(t, 'first-sub'), 403, SSO_TEXTS.firstAccountFirst);
      assert.equal(await userCount(t.app), 0);
      provider.accounts.set('boss-sub', { preferred_username: 'boss', groups: 'tessera-admins' });
      const boss = await ssoSignIn(t, 'boss-sub');
      assert.equal(boss.statusCode, 200, boss.body);
      assert.equal(boss.json().user.role, 'admin');
    } finally {
      await t.close();
    }
  });

  it('PASSWORD_LOGIN=false: the page is told so, password sign-in is refused, the first admin can still sign up once', async () => {
    const t = await createTestApp({ oidc: oidcConfig(provider), passwordLogin: false });
    try {
      assert.deepEqual((await t.app.inject({ method: 'GET', url: SIGN_IN_OPTIONS_PATH })).json(), { password_login: false, sso: { name: 'Acme ID' } });
      const admin = await signupAdmin(t.app);
      assert.ok(admin.accessToken);
      const res = await postJson(t.app, '/api/v1/auth/login', { username: ADMIN.username, password: ADMIN.password });
      assertRefused(res, 403, SSO_TEXTS.passwordLoginOff('Acme ID'));
      assert.equal((await postJson(t.app, '/api/v1/auth/signup', { ...ADMIN, username: 'second' })).statusCode, 403);
      provider.accounts.set('grace-sub', { preferred_username: 'grace' });
      const sso = await ssoSignIn(t, 'grace-sub');
      assert.equal(sso.statusCode, 200, sso.body);
    } finally {
      await t.close();
    }
  });

  it('a provider that is down: a clear 503 on sign-in with SSO, the api keeps running, password sign-in still works', async () => {
    const down = await startTestProvider({ redirectUris: [REDIRECT_URI] });
    const issuer = down.issuer;
    await down.close();
    const t = await createTestApp({ oidc: { ...oidcConfig(provider), issuer } });
    try {
      await signupAdmin(t.app);
      const res = await t.app.inject({ method: 'POST', url: SSO_START_PATH, headers: { host: HOST } });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().error.code, 'service_unavailable');
      assert.equal(res.json().error.message, `${SSO_TEXTS.providerDown('Acme ID')} ${SSO_TEXTS.providerDownPasswordHint}`);
      assert.ok(!res.cookies.some((c) => c.name === PENDING_COOKIE), 'no pending sign-in');
      assert.deepEqual((await t.app.inject({ method: 'GET', url: SIGN_IN_OPTIONS_PATH })).json(), { password_login: true, sso: { name: 'Acme ID' } });
      assert.ok((await login(t.app)).accessToken, 'password sign-in still works');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('without OIDC_ISSUER the SSO routes answer 404 with a clear text and the page is told SSO is off', async () => {
    const t = await createTestApp();
    try {
      assert.deepEqual((await t.app.inject({ method: 'GET', url: SIGN_IN_OPTIONS_PATH })).json(), { password_login: true, sso: null });
      const res = await t.app.inject({ method: 'POST', url: SSO_START_PATH });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error.message, SSO_TEXTS.notConfigured);
      assert.equal((await callback(t, 'code=x&state=y')).json().error.message, SSO_TEXTS.notConfigured);
    } finally {
      await t.close();
    }
  });
});

describe('a bad single sign-on configuration stops the api at start', () => {
  const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  function startApi(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', entry], {
        env: { PATH: process.env.PATH ?? '', API_PORT: '0', DATA_DIR: '/nonexistent/tessera-oidc-config-test', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  }

  it('OIDC_ISSUER without OIDC_CLIENT_ID: exit code 1 and the text', async () => {
    const { code, stderr } = await startApi({ OIDC_ISSUER: 'https://id.example.com' });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /api: invalid configuration: OIDC_CLIENT_ID is required with OIDC_ISSUER/);
  });

  it('PASSWORD_LOGIN=false without SSO: exit code 1 and the text', async () => {
    const { code, stderr } = await startApi({ PASSWORD_LOGIN: 'false' });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /PASSWORD_LOGIN=false needs single sign-on \(OIDC_ISSUER\)/);
  });
});
