import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MESSAGES } from '@tessera/contracts';
import { UsersRepository } from '../src/users/users.repository.js';
import { ADMIN, postJson, signupAdmin, userCount } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('signup', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('is open while no account exists', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/status' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { signup_open: true });
  });

  it('makes the first account an admin and returns a token, the user and the refresh cookie', async () => {
    const res = await postJson(t.app, '/api/v1/auth/signup', ADMIN);
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(typeof body.access_token, 'string');
    assert.equal(body.user.username, ADMIN.username);
    assert.equal(body.user.role, 'admin');
    assert.equal(body.user.email, ADMIN.email);
    assert.equal(body.user.nickname, ADMIN.nickname);
    assert.ok(res.cookies.some((c) => c.name === 'tessera_refresh' && c.value));
  });

  it('then closes: status reports it and a second signup gets 403 with the exact text', async () => {
    const status = await t.app.inject({ method: 'GET', url: '/api/v1/auth/status' });
    assert.deepEqual(status.json(), { signup_open: false });

    const res = await postJson(t.app, '/api/v1/auth/signup', { username: 'second', password: 'another password' });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: { code: 'forbidden', message: MESSAGES.signupClosed } });
    assert.equal(MESSAGES.signupClosed, 'Signup disabled. Contact an admin for a new account.');
    assert.equal(res.cookies.length, 0);
    assert.equal(await userCount(t.app), 1);
  });

  it('stays closed even for the same username in another case', async () => {
    const res = await postJson(t.app, '/api/v1/auth/signup', { ...ADMIN, username: ADMIN.username.toLowerCase() });
    assert.equal(res.statusCode, 403);
    assert.equal(await userCount(t.app), 1);
  });
});

describe('ten concurrent first signups', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('leave exactly one account, an admin; the others get the signup-closed 403', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postJson(t.app, '/api/v1/auth/signup', { username: `racer${i}`, password: `password-${i}-long` }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [201, 403, 403, 403, 403, 403, 403, 403, 403, 403]);
    for (const r of results.filter((r) => r.statusCode === 403)) {
      assert.equal(r.json().error.message, MESSAGES.signupClosed);
    }
    assert.equal(await userCount(t.app), 1);
    const users = await t.app.db.selectFrom('users').select(['username', 'role']).execute();
    assert.equal(users[0].role, 'admin');
    const winner = results.find((r) => r.statusCode === 201)!;
    assert.equal(winner.json().user.username, users[0].username);
  });
});

describe('the database guard on the first account', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  // Straight at the repository, with no password hashing to stagger the calls: the
  // check-then-insert must hold by itself (it does not without the lock on PostgreSQL).
  it('creates exactly one account out of ten simultaneous attempts', async () => {
    const repo = new UsersRepository(t.app.db);
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => repo.createFirstAdmin({ username: `direct${i}`, passwordHash: 'not-a-real-hash' })),
    );
    assert.equal(created.filter(Boolean).length, 1);
    assert.equal(await userCount(t.app), 1);
  });
});

describe('signup once an account exists', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('a signup with an invalid body still gets the signup-closed answer', async () => {
    const res = await postJson(t.app, '/api/v1/auth/signup', { username: 1 });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.message, MESSAGES.signupClosed);
  });
});
