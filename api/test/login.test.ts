// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is sign-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MESSAGES } from '@tessera/contracts';
import { ADMIN, postJson, refreshCookieOf, signupAdmin } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('login', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('returns an access token and the user, and sets the refresh cookie', async () => {
    const res = await postJson(t.app, '/api/v1/auth/login', { username: ADMIN.username, password: ADMIN.password });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(typeof body.access_token, 'string');
    assert.equal(body.user.username, ADMIN.username);
    assert.equal(body.user.role, 'admin');
    assert.ok(refreshCookieOf(res));
  });

  it('accepts the username in any case', async () => {
    const res = await postJson(t.app, '/api/v1/auth/login', { username: ADMIN.username.toUpperCase(), password: ADMIN.password });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('answers a wrong password and an unknown user alike: 401 Invalid credentials, no cookie', async () => {
    const wrongPassword = await postJson(t.app, '/api/v1/auth/login', { username: ADMIN.username, password: 'not the password' });
    const unknownUser = await postJson(t.app, '/api/v1/auth/login', { username: 'nobody', password: ADMIN.password });
    for (const res of [wrongPassword, unknownUser]) {
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { error: { code: 'unauthorized', message: MESSAGES.invalidCredentials } });
      assert.equal(refreshCookieOf(res), undefined);
    }
    assert.equal(MESSAGES.invalidCredentials, 'Invalid credentials');
  });
});
