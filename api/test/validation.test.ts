// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of bad bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BODY_LIMIT_BYTES } from '../src/app.js';
import { ADMIN, login, postJson, signupAdmin, userCount, type Session } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const MB = 1_000_000;
const tableSizes = async (t: TestApp) => ({
  users: await userCount(t.app),
  families: (await t.app.db.selectFrom('refresh_families').select('id').execute()).length,
  tokens: (await t.app.db.selectFrom('refresh_tokens').select('id').execute()).length,
});

function assertErrorShape(res: { statusCode: number; json(): any }, what: string) {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: expected 4xx, got ${res.statusCode}`);
  const body = res.json();
  assert.equal(typeof body.error?.code, 'string', `${what}: ${JSON.stringify(body)}`);
  assert.equal(typeof body.error?.message, 'string', `${what}: ${JSON.stringify(body)}`);
}

describe('bad signup bodies (signup open) get 4xx and store nothing', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const cases: [string, unknown][] = [
    ['no body', undefined],
    ['an array', [ADMIN.username, ADMIN.password]],
    ['a string', 'hello'],
    ['username of the wrong type', { username: 42, password: ADMIN.password }],
    ['password of the wrong type', { username: 'x', password: { $ne: '' } }],
    ['email of the wrong type', { ...ADMIN, email: 7 }],
    ['missing username', { password: ADMIN.password }],
    ['missing password', { username: ADMIN.username }],
    ['blank username', { username: '   ', password: ADMIN.password }],
    ['short password', { username: ADMIN.username, password: 'short' }],
    ['invalid email', { ...ADMIN, email: 'not-an-email' }],
    ['unknown field', { ...ADMIN, role: 'superadmin' }],
    ['prototype key', JSON.parse('{"username":"a","password":"password1","__proto__":{"role":"x"}}')],
    ['1 MB username', { username: 'a'.repeat(MB), password: ADMIN.password }],
    ['1 MB password', { username: ADMIN.username, password: 'p'.repeat(MB) }],
    ['1 MB nickname', { ...ADMIN, nickname: 'n'.repeat(MB) }],
    ['1 MB email', { ...ADMIN, email: `${'e'.repeat(MB)}@example.com` }],
  ];

  for (const [name, body] of cases) {
    it(`refuses ${name}`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      assertErrorShape(res, name);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.deepEqual(await tableSizes(t), { users: 0, families: 0, tokens: 0 });
    });
  }

  it('reports the first problem in words', async () => {
    const res = await postJson(t.app, '/api/v1/auth/signup', { username: ADMIN.username, password: 'short' });
    assert.equal(res.json().error.message, 'Password must be at least 8 characters');
    const unknown = await postJson(t.app, '/api/v1/auth/signup', { ...ADMIN, admin: true });
    assert.match(unknown.json().error.message, /admin/);
  });

  it('refuses a body over the limit with 413 and a clear message', async () => {
    const res = await postJson(t.app, '/api/v1/auth/signup', { username: 'a'.repeat(BODY_LIMIT_BYTES + 10), password: ADMIN.password });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error.code, 'payload_too_large');
    assert.match(res.json().error.message, /too large/);
    assert.deepEqual(await tableSizes(t), { users: 0, families: 0, tokens: 0 });
  });

  it('refuses malformed JSON and other content types', async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "a",',
    });
    assertErrorShape(broken, 'malformed JSON');
    assert.equal(broken.statusCode, 400);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=a&password=password123',
    });
    assertErrorShape(form, 'form body');
    assert.equal(form.statusCode, 415);
    assert.deepEqual(await tableSizes(t), { users: 0, families: 0, tokens: 0 });
  });

  it('still accepts a valid signup afterwards (the refusals were about the input)', async () => {
    await signupAdmin(t.app);
    assert.equal(await userCount(t.app), 1);
  });
});

describe('bad login and change-password bodies get 4xx and change nothing', () => {
  let t: TestApp;
  let session: Session;
  let hashBefore: string;
  before(async () => {
    t = await createTestApp();
    session = await signupAdmin(t.app);
    hashBefore = (await t.app.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
  });
  after(() => t.close());

  const loginCases: [string, unknown][] = [
    ['no body', undefined],
    ['wrong types', { username: ['Admin'], password: 1 }],
    ['missing password', { username: ADMIN.username }],
    ['unknown field', { username: ADMIN.username, password: ADMIN.password, remember: true }],
    ['1 MB password', { username: ADMIN.username, password: 'p'.repeat(MB) }],
  ];
  for (const [name, body] of loginCases) {
    it(`login refuses ${name} without starting a session`, async () => {
      const before = await tableSizes(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      assertErrorShape(res, name);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.deepEqual(await tableSizes(t), before);
    });
  }

  const changeCases: [string, unknown][] = [
    ['no body', undefined],
    ['wrong types', { old_password: 1, new_password: true }],
    ['missing new password', { old_password: ADMIN.password }],
    ['missing old password (own account)', { new_password: 'a brand new password' }],
    ['a short new password', { old_password: ADMIN.password, new_password: 'short' }],
    ['unknown field', { old_password: ADMIN.password, new_password: 'a brand new password', user_id: 'x' }],
    ['1 MB new password', { old_password: ADMIN.password, new_password: 'n'.repeat(MB) }],
    ['a wrong old password', { old_password: 'not it at all', new_password: 'a brand new password' }],
  ];
  for (const [name, body] of changeCases) {
    it(`change-password refuses ${name} and keeps the hash`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/change-password',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}` },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      assertErrorShape(res, name);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      const after = await t.app.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      assert.equal(after.password_hash, hashBefore);
    });
  }

  it('the account still signs in with its password', async () => {
    await login(t.app);
  });
});
