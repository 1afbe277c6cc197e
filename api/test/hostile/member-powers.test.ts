// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is member powers over higher ranks.
// Issue 17 §6: an admin cannot take over a host's or a superadmin's account (reset its password,
// edit its info) nor delete a superadmin; a host cannot do so to a superadmin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Role } from '@tessera/contracts';
import { login, postJson, signupAdmin, type Session } from '../support/auth-helpers.js';
import { call, insertMember, signedInMember, userRow } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('hostile: member powers over higher ranks', () => {
  let t: TestApp;
  let admin: Session;
  let host: Session;
  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    host = await signedInMember(t.app, 'host');
  });
  after(() => t.close());

  const cases: { actor: () => Session; actorRole: Role; targetRole: Role }[] = [
    { actor: () => admin, actorRole: 'admin', targetRole: 'host' },
    { actor: () => admin, actorRole: 'admin', targetRole: 'superadmin' },
    { actor: () => host, actorRole: 'host', targetRole: 'superadmin' },
  ];

  for (const { actor, actorRole, targetRole } of cases) {
    it(`${actorRole} → ${targetRole}: password reset, info edit and delete are 403 with a clear text; the ${targetRole} is untouched`, async () => {
      const target = await insertMember(t.app, targetRole);
      const before = await userRow(t.app, target.id);
      const an = (role: string) => `${/^[aeiou]/.test(role) ? 'An' : 'A'} ${role}`;
      const a = (role: string) => an(role).toLowerCase();

      const reset = await call(t.app, actor(), 'PUT', `/api/v1/users/${target.id}`, { password: 'taken over 123' });
      assert.equal(reset.statusCode, 403, reset.body);
      assert.deepEqual(reset.json().error, { code: 'forbidden', message: `${an(actorRole)} cannot change the password of ${a(targetRole)}` });

      const edit = await call(t.app, actor(), 'PUT', `/api/v1/users/${target.id}`, { email: 'attacker@example.com', nickname: 'Owned' });
      assert.equal(edit.statusCode, 403, edit.body);
      assert.deepEqual(edit.json().error, { code: 'forbidden', message: `${an(actorRole)} cannot edit the info of ${a(targetRole)}` });

      const del = await call(t.app, actor(), 'DELETE', `/api/v1/users/${target.id}`);
      assert.equal(del.statusCode, 403, del.body);
      assert.match(del.json().error.message, targetRole === 'host' ? /^Host users cannot be deleted$/ : new RegExp(`^${an(actorRole)} cannot delete a superadmin$`));

      assert.deepEqual(await userRow(t.app, target.id), before, 'nothing about the target changed');
      // Their own password still signs them in; the attacker's does not.
      await login(t.app, target.username, target.password);
      assert.equal((await postJson(t.app, '/api/v1/auth/login', { username: target.username, password: 'taken over 123' })).statusCode, 401);
      assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    });
  }

  it('a superadmin still manages hosts and other superadmins; an admin still resets a user', async () => {
    const superadmin = await signedInMember(t.app, 'superadmin');
    const otherHost = await insertMember(t.app, 'host');
    const otherSuper = await insertMember(t.app, 'superadmin');
    const user = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, superadmin, 'PUT', `/api/v1/users/${otherHost.id}`, { password: 'reset by super 1' })).statusCode, 200);
    assert.equal((await call(t.app, superadmin, 'PUT', `/api/v1/users/${otherSuper.id}`, { nickname: 'Peer' })).statusCode, 200);
    assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${user.id}`, { password: 'reset by admin 1' })).statusCode, 200);
    await login(t.app, otherHost.username, 'reset by super 1');
    await login(t.app, user.username, 'reset by admin 1');
  });
});
