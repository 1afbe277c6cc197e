// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is member management's rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REFRESH_COOKIE_NAME, UserSchema } from '@tessera/contracts';
import { ADMIN, login, postJson, refresh, signupAdmin, type Session } from './support/auth-helpers.js';
import { call, insertMember, MEMBER_PASSWORD, signedInMember, userRow } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('members: create, edit, password reset, delete', () => {
  let t: TestApp;
  let admin: Session;
  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
  });
  after(() => t.close());

  it('creates a member (201, public fields only) who can then sign in', async () => {
    const res = await call(t.app, admin, 'POST', '/api/v1/users', {
      username: '  carol  ',
      password: 'carol password',
      email: 'carol@example.com',
      nickname: 'Caz',
      role: 'user',
    });
    assert.equal(res.statusCode, 201, res.body);
    const user = UserSchema.parse(res.json());
    assert.equal(user.username, 'carol', 'trimmed');
    assert.equal(user.role, 'user');
    assert.ok(!/password|hash/i.test(res.body));
    await login(t.app, 'carol', 'carol password');
  });

  it('defaults the role to user and accepts admin', async () => {
    const plain = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'dave', password: 'dave password' });
    assert.equal(plain.json().role, 'user');
    const boss = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'erin', password: 'erin password', role: 'Admin' });
    assert.equal(boss.statusCode, 201, boss.body);
    assert.equal(boss.json().role, 'admin');
  });

  it('refuses a username taken in any case with 409 and a clear message', async () => {
    const res = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'CAROL', password: 'other password' });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json(), { error: { code: 'conflict', message: 'Username "CAROL" is already taken' } });
  });

  const count = async () => (await t.app.db.selectFrom('users').select('id').execute()).length;
  const badCreates: [string, unknown][] = [
    ['a 2-character username', { username: 'ab', password: 'long enough' }],
    ['a 65-character username', { username: 'a'.repeat(65), password: 'long enough' }],
    ['a username with a space', { username: 'a b c', password: 'long enough' }],
    ['a username with a slash', { username: 'a/bc', password: 'long enough' }],
    ['no password', { username: 'frank' }],
    ['a short password', { username: 'frank', password: 'short' }],
    ['a bad email', { username: 'frank', password: 'long enough', email: 'not-an-email' }],
    ['an unknown role', { username: 'frank', password: 'long enough', role: 'root' }],
    ['an unknown field', { username: 'frank', password: 'long enough', admin: true }],
    ['no body', undefined],
  ];
  for (const [name, body] of badCreates) {
    it(`refuses to create with ${name} (400) and stores nothing`, async () => {
      const before = await count();
      const res = await call(t.app, admin, 'POST', '/api/v1/users', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(typeof res.json().error.message, 'string');
      assert.equal(await count(), before);
    });
  }

  it('explains the username rules in words', async () => {
    const short = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'ab', password: 'long enough' });
    assert.equal(short.json().error.message, 'Username must be at least 3 characters');
    const chars = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'a b', password: 'long enough' });
    assert.equal(chars.json().error.message, 'Username may contain letters, digits and . _ @ - only');
  });

  it('PUT changes only the fields sent', async () => {
    const m = await insertMember(t.app, 'user');
    await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { nickname: 'Nick', email: 'nick@example.com' });
    const res = await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { nickname: 'Nicky' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().nickname, 'Nicky');
    assert.equal(res.json().email, 'nick@example.com');
    const row = await userRow(t.app, m.id);
    assert.equal(row?.role, 'user');
    assert.equal(row?.email, 'nick@example.com');
  });

  it('a member edits their own nickname and email, and a blank value clears it', async () => {
    const me = await signedInMember(t.app, 'user');
    const res = await call(t.app, me, 'PUT', `/api/v1/users/${me.userId}`, { nickname: ' Me ', email: 'me@example.com' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().nickname, 'Me');
    const cleared = await call(t.app, me, 'PUT', `/api/v1/users/${me.userId}`, { email: '' });
    assert.equal(cleared.json().email, null);
    assert.equal(cleared.json().nickname, 'Me');
  });

  it("refuses one's own password through PUT (it needs the current one) and one's own promotion", async () => {
    const me = await signedInMember(t.app, 'user');
    const before = await userRow(t.app, me.userId);
    for (const body of [{ password: 'a new password' }, { role: 'admin' }]) {
      const res = await call(t.app, me, 'PUT', `/api/v1/users/${me.userId}`, body);
      assert.equal(res.statusCode, 403, res.body);
    }
    assert.deepEqual(await userRow(t.app, me.userId), before);
  });

  const badPuts: [string, unknown][] = [
    ['an empty body', {}],
    ['a bad email', { email: 'nope' }],
    ['a short password', { password: 'short' }],
    ['role user', { role: 'user' }],
    ['role host', { role: 'host' }],
    ['a username change', { username: 'renamed' }],
    ['a 101-character nickname', { nickname: 'n'.repeat(101) }],
  ];
  for (const [name, body] of badPuts) {
    it(`PUT refuses ${name} (400) and changes nothing`, async () => {
      const m = await insertMember(t.app, 'user');
      const before = await userRow(t.app, m.id);
      const res = await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(await userRow(t.app, m.id), before);
    });
  }

  it('PUT and DELETE of an unknown or malformed id answer 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${id}`, { nickname: 'x' })).statusCode, 404);
      assert.equal((await call(t.app, admin, 'DELETE', `/api/v1/users/${id}`)).statusCode, 404);
    }
  });

  it("an admin's password reset ends the member's sessions and tokens; the new password signs in", async () => {
    const m = await insertMember(t.app, 'user');
    const session = await login(t.app, m.username, MEMBER_PASSWORD);
    const res = await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { password: 'reset by admin' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await refresh(t.app, session.refreshCookie)).statusCode, 401, 'refresh revoked');
    assert.equal((await call(t.app, session, 'GET', '/api/v1/users')).statusCode, 401, 'access token stops at once');
    const old = await postJson(t.app, '/api/v1/auth/login', { username: m.username, password: MEMBER_PASSWORD });
    assert.equal(old.statusCode, 401);
    await login(t.app, m.username, 'reset by admin');
  });

  it('a deleted member is gone, with their sessions, and their access token is refused at once', async () => {
    const m = await insertMember(t.app, 'user');
    const session = await login(t.app, m.username, MEMBER_PASSWORD);
    assert.equal((await call(t.app, session, 'GET', '/api/v1/users')).statusCode, 200);
    const res = await call(t.app, admin, 'DELETE', `/api/v1/users/${m.id}`);
    assert.equal(res.statusCode, 204);
    assert.equal((await call(t.app, session, 'GET', '/api/v1/users')).statusCode, 401);
    assert.equal((await call(t.app, session, 'GET', '/api/v1/auth/session')).statusCode, 401);
    assert.equal((await refresh(t.app, session.refreshCookie)).statusCode, 401);
    const families = await t.app.db.selectFrom('refresh_families').select('id').where('user_id', '=', m.id).execute();
    assert.equal(families.length, 0);
  });

  it('the admin is still signed in and listed after all this', async () => {
    const res = await call(t.app, admin, 'GET', '/api/v1/users');
    assert.equal(res.statusCode, 200);
    assert.ok(res.json().some((u: { username: string }) => u.username === ADMIN.username));
  });
});

describe('own password change and token epochs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it('revokes the other refresh sessions and every older access token; this session refreshes into a working token', async () => {
    const m = await insertMember(t.app, 'user');
    const here = await login(t.app, m.username, MEMBER_PASSWORD);
    const elsewhere = await login(t.app, m.username, MEMBER_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: { authorization: `Bearer ${here.accessToken}` },
      cookies: { [REFRESH_COOKIE_NAME]: here.refreshCookie },
      payload: { old_password: MEMBER_PASSWORD, new_password: 'changed by me' },
    });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal((await refresh(t.app, elsewhere.refreshCookie)).statusCode, 401);
    assert.equal((await call(t.app, elsewhere, 'GET', '/api/v1/users')).statusCode, 401);
    assert.equal((await call(t.app, here, 'GET', '/api/v1/users')).statusCode, 401);
    const renewed = await refresh(t.app, here.refreshCookie);
    assert.equal(renewed.statusCode, 200);
    assert.equal((await call(t.app, renewed.json().access_token, 'GET', '/api/v1/users')).statusCode, 200);
    await login(t.app, m.username, 'changed by me');
  });

  it('GET /api/v1/auth/session answers with the user as the database has them', async () => {
    const m = await signedInMember(t.app, 'user');
    const res = await call(t.app, m, 'GET', '/api/v1/auth/session');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id: m.userId, username: m.username, role: 'user' });
  });

  it('access tokens carry the epoch claim', async () => {
    const m = await signedInMember(t.app, 'user');
    const payload = JSON.parse(Buffer.from(m.accessToken.split('.')[1], 'base64url').toString());
    assert.equal(payload.tep, 0);
  });
});
