// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refresh cookie and its rotation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeTokenClaims, REFRESH_COOKIE_NAME } from '@tessera/contracts';
import { login, refresh, refreshCookieOf, signupAdmin } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('refresh cookie and rotation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('sets an httpOnly, SameSite=Strict cookie scoped to the auth routes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: 'admin', password: 'correct horse battery' },
    });
    const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE_NAME);
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.path, '/api/v1/auth');
    assert.ok(cookie.maxAge && cookie.maxAge > 0);
  });

  it('stores only a hash of the refresh token', async () => {
    const session = await login(t.app);
    const stored = await t.app.db.selectFrom('refresh_tokens').select('token_hash').execute();
    assert.ok(stored.length > 0);
    assert.ok(stored.every((r) => r.token_hash !== session.refreshCookie));
    assert.ok(stored.every((r) => !r.token_hash.includes(session.refreshCookie)));
  });

  it('rotates on each use: a new cookie each time, the previous one refused', async () => {
    const session = await login(t.app);
    const first = await refresh(t.app, session.refreshCookie);
    assert.equal(first.statusCode, 200, first.body);
    const second = refreshCookieOf(first);
    assert.ok(second && second !== session.refreshCookie);
    assert.equal(typeof first.json().access_token, 'string');
    assert.equal(first.json().user.role, 'admin');

    const next = await refresh(t.app, second);
    assert.equal(next.statusCode, 200);
    const third = refreshCookieOf(next);
    assert.ok(third && third !== second);

    const replay = await refresh(t.app, session.refreshCookie);
    assert.equal(replay.statusCode, 401);
    assert.equal(replay.json().error.code, 'unauthorized');
  });

  it('detects reuse: an old token revokes the whole family, so the newest fails too', async () => {
    const session = await login(t.app);
    const r1 = await refresh(t.app, session.refreshCookie);
    const newest = refreshCookieOf(r1)!;
    // The stolen (already rotated) token comes back...
    assert.equal((await refresh(t.app, session.refreshCookie)).statusCode, 401);
    // ...and the legitimate holder's newest token is dead as well.
    const res = await refresh(t.app, newest);
    assert.equal(res.statusCode, 401);
    // Another session (another family) is not affected.
    const other = await login(t.app);
    assert.equal((await refresh(t.app, other.refreshCookie)).statusCode, 200);
  });

  it('refuses a missing or unknown cookie with 401 in the error shape', async () => {
    for (const res of [await refresh(t.app), await refresh(t.app, 'made-up-token')]) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'unauthorized');
      assert.equal(typeof res.json().error.message, 'string');
    }
  });

  it('puts the role from the database into the refreshed token', async () => {
    const session = await login(t.app);
    assert.equal(decodeTokenClaims(session.accessToken)?.role, 'admin');
    await t.app.db.updateTable('users').set({ role: 'host' }).where('id', '=', session.userId).execute();
    try {
      const res = await refresh(t.app, session.refreshCookie);
      assert.equal(res.statusCode, 200);
      assert.equal(decodeTokenClaims(res.json().access_token)?.role, 'host');
      assert.equal(res.json().user.role, 'host');
    } finally {
      await t.app.db.updateTable('users').set({ role: 'admin' }).where('id', '=', session.userId).execute();
    }
  });

  it('refuses an expired refresh token', async () => {
    const session = await login(t.app);
    await t.app.db.updateTable('refresh_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('rotated_at', 'is', null).execute();
    assert.equal((await refresh(t.app, session.refreshCookie)).statusCode, 401);
  });
});

describe('logout', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('revokes the refresh token family and clears the cookie', async () => {
    const session = await login(t.app);
    const rotated = refreshCookieOf(await refresh(t.app, session.refreshCookie))!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { [REFRESH_COOKIE_NAME]: rotated },
    });
    assert.equal(res.statusCode, 204);
    const cleared = res.cookies.find((c) => c.name === REFRESH_COOKIE_NAME);
    assert.ok(cleared);
    assert.equal(cleared.value, '');
    assert.equal(cleared.path, '/api/v1/auth');
    assert.equal((await refresh(t.app, rotated)).statusCode, 401);
  });

  it('succeeds without a cookie (nothing to revoke) and accepts a JSON content type with an empty body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 204);
  });
});
