// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the user routes' rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UserListSchema } from '@tessera/contracts';
import { ADMIN, signupAdmin, type Session } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('GET /api/v1/users', () => {
  let t: TestApp;
  let session: Session;
  before(async () => {
    t = await createTestApp();
    session = await signupAdmin(t.app);
  });
  after(() => t.close());

  it('lists the members with id, username, role, email, nickname and created_at', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users', headers: { authorization: `Bearer ${session.accessToken}` } });
    assert.equal(res.statusCode, 200);
    const users = UserListSchema.parse(res.json());
    assert.equal(users.length, 1);
    assert.deepEqual(Object.keys(res.json()[0]).sort(), ['created_at', 'email', 'id', 'nickname', 'role', 'username']);
    assert.equal(users[0].id, session.userId);
    assert.equal(users[0].username, ADMIN.username);
    assert.equal(users[0].role, 'admin');
    assert.equal(users[0].email, ADMIN.email);
    assert.equal(users[0].nickname, ADMIN.nickname);
    assert.ok(!Number.isNaN(Date.parse(users[0].created_at!)));
  });

  it('never contains a password or its hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users', headers: { authorization: `Bearer ${session.accessToken}` } });
    const { password_hash } = await t.app.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    assert.match(password_hash, /^\$argon2id\$/);
    assert.ok(!res.body.includes(password_hash));
    assert.ok(!res.body.includes('$argon2'));
    assert.ok(!res.body.includes(ADMIN.password));
    assert.ok(!/password|hash/i.test(res.body));
  });

  it('the sign-in reply does not contain them either', async () => {
    const { password_hash } = await t.app.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    const loginRes = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    for (const body of [loginRes.body]) {
      assert.ok(!body.includes(password_hash));
      assert.ok(!/password|hash/i.test(body));
    }
  });
});
