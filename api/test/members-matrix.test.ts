// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is who may manage whom.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Role } from '@tessera/contracts';
import { login, signupAdmin, type Session } from './support/auth-helpers.js';
import { call, insertMember, MEMBER_PASSWORD, signedInMember, userRow } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type ActionName =
  | 'create'
  | 'edit info'
  | "change another's password"
  | 'promote'
  | 'delete'
  | 'delete self'
  | 'delete host'
  | 'promote host'
  | 'promote superadmin'
  | 'create with role host'
  | 'create with role superadmin'
  | 'edit info of host'
  | 'edit info of superadmin'
  | "change a host's password"
  | "change a superadmin's password"
  | 'delete superadmin';

const ACTORS: Role[] = ['user', 'admin', 'host', 'superadmin'];
const ADMIN_LIKE_ONLY = { user: 403, admin: 'ok', host: 'ok', superadmin: 'ok' } as const;
const NEVER = { user: 403, admin: 403, host: 403, superadmin: 403 } as const;
const HOST_AND_UP = { user: 403, admin: 403, host: 'ok', superadmin: 'ok' } as const;
const SUPERADMIN_ONLY = { user: 403, admin: 403, host: 403, superadmin: 'ok' } as const;

/** Spec 01 §6 and issue 5, as the server must enforce them: 'ok' is a 2xx. */
const EXPECTED: Record<ActionName, Record<Role, 403 | 'ok'>> = {
  create: ADMIN_LIKE_ONLY,
  'edit info': ADMIN_LIKE_ONLY,
  "change another's password": ADMIN_LIKE_ONLY,
  promote: ADMIN_LIKE_ONLY,
  delete: ADMIN_LIKE_ONLY,
  'delete self': NEVER,
  'delete host': NEVER,
  'promote host': NEVER,
  'promote superadmin': NEVER,
  'create with role host': NEVER,
  'create with role superadmin': NEVER,
  // Issue 17 §6: nobody manages a member of a higher rank (user < admin < host < superadmin).
  'edit info of host': HOST_AND_UP,
  'edit info of superadmin': SUPERADMIN_ONLY,
  "change a host's password": HOST_AND_UP,
  "change a superadmin's password": SUPERADMIN_ONLY,
  'delete superadmin': SUPERADMIN_ONLY,
};

const TARGET_ROLE: Partial<Record<ActionName, Role>> = {
  'delete host': 'host',
  'promote host': 'host',
  'promote superadmin': 'superadmin',
  'edit info of host': 'host',
  'edit info of superadmin': 'superadmin',
  "change a host's password": 'host',
  "change a superadmin's password": 'superadmin',
  'delete superadmin': 'superadmin',
};

describe('the role matrix of member management', () => {
  let t: TestApp;
  const actors = {} as Record<Role, Session & { username: string }>;
  before(async () => {
    t = await createTestApp();
    const first = await signupAdmin(t.app);
    actors.admin = { ...first, username: 'Admin' };
    for (const role of ['user', 'host', 'superadmin'] as const) actors[role] = await signedInMember(t.app, role);
  });
  after(() => t.close());

  const count = async () => (await t.app.db.selectFrom('users').select('id').execute()).length;

  /** Runs one action; returns the status and checks that a refusal changed nothing. */
  async function attempt(actorRole: Role, action: ActionName): Promise<number> {
    const actor = actors[actorRole];
    const app = t.app;
    const targetRole: Role = TARGET_ROLE[action] ?? 'user';
    const target = action.startsWith('create') || action === 'delete self' ? undefined : await insertMember(app, targetRole);
    const before = target ? await userRow(app, target.id) : undefined;
    const usersBefore = await count();
    let res;
    switch (action) {
      case 'create':
      case 'create with role host':
      case 'create with role superadmin': {
        const role = action === 'create' ? 'user' : action.endsWith('host') ? 'host' : 'superadmin';
        res = await call(app, actor, 'POST', '/api/v1/users', {
          username: `new-${role}-${actorRole}-${Math.random().toString(36).slice(2, 8)}`,
          password: 'a new password',
          role,
        });
        break;
      }
      case 'edit info':
      case 'edit info of host':
      case 'edit info of superadmin':
        res = await call(app, actor, 'PUT', `/api/v1/users/${target!.id}`, { nickname: 'Changed', email: 'changed@example.com' });
        break;
      case "change another's password":
      case "change a host's password":
      case "change a superadmin's password":
        res = await call(app, actor, 'PUT', `/api/v1/users/${target!.id}`, { password: 'set by someone else' });
        break;
      case 'promote':
      case 'promote host':
      case 'promote superadmin':
        res = await call(app, actor, 'PUT', `/api/v1/users/${target!.id}`, { role: 'admin' });
        break;
      case 'delete':
      case 'delete host':
      case 'delete superadmin':
        res = await call(app, actor, 'DELETE', `/api/v1/users/${target!.id}`);
        break;
      case 'delete self':
        res = await call(app, actor, 'DELETE', `/api/v1/users/${actor.userId}`);
        break;
    }
    if (res.statusCode === 403) {
      assert.equal(res.json().error.code, 'forbidden');
      assert.equal(typeof res.json().error.message, 'string');
      assert.equal(await count(), usersBefore, 'a refused action adds or removes nobody');
      if (target) assert.deepEqual(await userRow(app, target.id), before, 'a refused action changes nothing');
      if (action === 'delete self') assert.ok(await userRow(app, actor.userId));
    } else if (res.statusCode < 300) {
      // The effect really happened.
      if (action === 'create') assert.equal(await count(), usersBefore + 1);
      if (action.startsWith('edit info')) {
        const row = await userRow(app, target!.id);
        assert.equal(row?.nickname, 'Changed');
        assert.equal(row?.email, 'changed@example.com');
      }
      if (action.startsWith('change')) assert.notEqual((await userRow(app, target!.id))?.password_hash, before?.password_hash);
      if (action === 'promote') assert.equal((await userRow(app, target!.id))?.role, 'admin');
      if (action === 'delete' || action === 'delete superadmin') assert.equal(await userRow(app, target!.id), undefined);
    }
    return res.statusCode;
  }

  for (const action of Object.keys(EXPECTED) as ActionName[]) {
    for (const actorRole of ACTORS) {
      const expected = EXPECTED[action][actorRole];
      it(`${actorRole} × ${action} → ${expected === 'ok' ? '2xx' : expected}`, async () => {
        const status = await attempt(actorRole, action);
        if (expected === 'ok') assert.ok(status >= 200 && status < 300, `expected 2xx, got ${status}`);
        else assert.equal(status, expected);
      });
    }
  }

  it('compares roles case-insensitively (a role stored as "Admin" is admin-like)', async () => {
    const m = await insertMember(t.app, 'user');
    await t.app.db.updateTable('users').set({ role: 'Admin' }).where('id', '=', m.id).execute();
    const { login } = await import('./support/auth-helpers.js');
    const session = await login(t.app, m.username, m.password);
    const target = await insertMember(t.app, 'user');
    const res = await call(t.app, session, 'PUT', `/api/v1/users/${target.id}`, { role: 'ADMIN' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().role, 'admin');
  });

  it('a role change ends the sessions of the old role: the old token is refused, a new sign-in has the new role', async () => {
    const member = await signedInMember(t.app, 'user');
    const target = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, member, 'PUT', `/api/v1/users/${target.id}`, { nickname: 'x' })).statusCode, 403);
    await call(t.app, actors.admin, 'PUT', `/api/v1/users/${member.userId}`, { role: 'admin' });
    // The token that says 'user' is revoked (issue 17 §3); signed in again, the member is an admin.
    assert.equal((await call(t.app, member, 'PUT', `/api/v1/users/${target.id}`, { nickname: 'x' })).statusCode, 401);
    const again = await login(t.app, member.username, MEMBER_PASSWORD);
    assert.equal((await call(t.app, again, 'PUT', `/api/v1/users/${target.id}`, { nickname: 'x' })).statusCode, 200);
  });
});
