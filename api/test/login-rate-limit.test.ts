import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_MAX_FAILURES } from '@tessera/contracts';
import { ADMIN, signupAdmin } from './support/auth-helpers.js';
import { insertMember, MEMBER_PASSWORD } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

function attempt(t: TestApp, username: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
}

describe('login rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it(`after ${LOGIN_MAX_FAILURES} failures for a username: 429 with Retry-After, even with the right password`, async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      // Spread over addresses: the username's own count is what blocks here.
      assert.equal((await attempt(t, ADMIN.username, 'wrong password', `10.0.0.${i + 1}`)).statusCode, 401);
    }
    const blocked = await attempt(t, ADMIN.username.toUpperCase(), ADMIN.password, '10.0.1.1');
    assert.equal(blocked.statusCode, 429);
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60, String(blocked.headers['retry-after']));
    assert.equal(blocked.json().error.code, 'too_many_requests');
    assert.match(blocked.json().error.message, /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    // Another account is not affected.
    const other = await insertMember(t.app, 'user');
    assert.equal((await attempt(t, other.username, MEMBER_PASSWORD, '10.0.1.1')).statusCode, 200);
  });

  it(`after ${LOGIN_MAX_FAILURES} failures from an address: 429 for any username from it, others unaffected`, async () => {
    const m = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      assert.equal((await attempt(t, `nobody-${i}`, 'wrong password', '192.0.2.7')).statusCode, 401);
    }
    const blocked = await attempt(t, m.username, MEMBER_PASSWORD, '192.0.2.7');
    assert.equal(blocked.statusCode, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.equal((await attempt(t, m.username, MEMBER_PASSWORD, '192.0.2.8')).statusCode, 200);
  });

  it('a successful sign-in clears its username count', async () => {
    const m = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) await attempt(t, m.username, 'wrong password', `198.51.100.${i + 1}`);
    assert.equal((await attempt(t, m.username, MEMBER_PASSWORD, '198.51.100.50')).statusCode, 200);
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
      assert.equal((await attempt(t, m.username, 'wrong password', `198.51.100.${i + 100}`)).statusCode, 401);
    }
    assert.equal((await attempt(t, m.username, MEMBER_PASSWORD, '198.51.100.51')).statusCode, 200);
  });
});
