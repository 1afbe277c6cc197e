// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is password changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MESSAGES, REFRESH_COOKIE_NAME } from '@tessera/contracts';
import { ADMIN, login, postJson, refresh, signupAdmin } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('POST /api/v1/auth/change-password', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('changes one\'s own password given the current one, and ends the other sessions', async () => {
    const current = await login(t.app);
    const elsewhere = await login(t.app);
    const NEW = 'a completely new password';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: { authorization: `Bearer ${current.accessToken}` },
      cookies: { [REFRESH_COOKIE_NAME]: current.refreshCookie },
      payload: { old_password: ADMIN.password, new_password: NEW },
    });
    assert.equal(res.statusCode, 204, res.body);

    const oldLogin = await postJson(t.app, '/api/v1/auth/login', { username: ADMIN.username, password: ADMIN.password });
    assert.equal(oldLogin.statusCode, 401);
    assert.equal(oldLogin.json().error.message, MESSAGES.invalidCredentials);
    await login(t.app, ADMIN.username, NEW);

    assert.equal((await refresh(t.app, elsewhere.refreshCookie)).statusCode, 401, 'other session must end');
    assert.equal((await refresh(t.app, current.refreshCookie)).statusCode, 200, 'this session stays');
  });

  it('answers a wrong current password with 400 (not 401, which would sign the client out)', async () => {
    const session = await login(t.app, ADMIN.username, 'a completely new password');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: { authorization: `Bearer ${session.accessToken}` },
      payload: { old_password: 'wrong one', new_password: 'yet another password' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: { code: 'bad_request', message: 'Current password is incorrect' } });
  });
});
