// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the activity log's member entries.
// Issue 18: the member-side entries of the activity log (create, role change, password reset,
// delete), with who did it, to whom (username at the time) and from which address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ActivityEntry, ActivityKind } from '@tessera/contracts';
import { ADMIN, signupAdmin, type Session } from './support/auth-helpers.js';
import { call, insertMember, signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('activity log: member changes', () => {
  let t: TestApp;
  let admin: Session;
  const adminName = ADMIN.username;
  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
  });
  after(() => t.close());

  const entriesFor = async (itemId: string, kind?: ActivityKind): Promise<ActivityEntry[]> => {
    const res = await call(t.app, admin, 'GET', `/api/v1/activity?item_id=${itemId}${kind ? `&kind=${kind}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().entries;
  };

  it('records a member created by an admin, with the new role', async () => {
    const res = await call(t.app, admin, 'POST', '/api/v1/users', { username: 'newbie', password: 'newbie password', role: 'user' });
    assert.equal(res.statusCode, 201, res.body);
    const [entry, ...more] = await entriesFor(res.json().id);
    assert.equal(more.length, 0);
    assert.equal(entry.kind, 'member_created');
    assert.equal(entry.actor.id, admin.userId);
    assert.equal(entry.actor.username, adminName);
    assert.deepEqual(entry.item, { type: 'user', id: res.json().id, name: 'newbie' });
    assert.deepEqual(entry.detail, { role: 'user' });
    assert.equal(entry.address, '127.0.0.1');
  });

  it('records a role change with before and after, and not an edit that keeps the role', async () => {
    const m = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { role: 'admin' })).statusCode, 200);
    assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { role: 'admin', nickname: 'Boss' })).statusCode, 200);
    const entries = await entriesFor(m.id);
    assert.deepEqual(entries.map((e) => e.kind), ['role_changed']);
    assert.deepEqual(entries[0].item, { type: 'user', id: m.id, name: m.username });
    assert.deepEqual(entries[0].detail, { from: 'user', to: 'admin' });
    assert.equal(entries[0].actor.username, adminName);
    assert.equal(entries[0].address, '127.0.0.1');
  });

  it("records a password reset (never the password), and nothing for a nickname edit", async () => {
    const m = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { nickname: 'Nick' })).statusCode, 200);
    assert.equal((await call(t.app, admin, 'PUT', `/api/v1/users/${m.id}`, { password: 'a brand new secret' })).statusCode, 200);
    const entries = await entriesFor(m.id);
    assert.deepEqual(entries.map((e) => e.kind), ['password_reset']);
    assert.deepEqual(entries[0].item, { type: 'user', id: m.id, name: m.username });
    assert.equal(entries[0].actor.id, admin.userId);
    assert.equal(entries[0].address, '127.0.0.1');
    assert.ok(!JSON.stringify(entries).includes('a brand new secret'));
  });

  it('records a member deleted, keeping the name after the row is gone', async () => {
    const m = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, admin, 'DELETE', `/api/v1/users/${m.id}`)).statusCode, 204);
    const [entry] = await entriesFor(m.id, 'member_deleted');
    assert.equal(entry.kind, 'member_deleted');
    assert.deepEqual(entry.item, { type: 'user', id: m.id, name: m.username });
    assert.equal(entry.actor.username, adminName);
    assert.equal(entry.address, '127.0.0.1');
  });

  it('records nothing for a refused change', async () => {
    const bob = await signedInMember(t.app, 'user');
    const other = await insertMember(t.app, 'user');
    assert.equal((await call(t.app, bob, 'DELETE', `/api/v1/users/${other.id}`)).statusCode, 403);
    assert.equal((await call(t.app, bob, 'PUT', `/api/v1/users/${other.id}`, { password: 'sneaky password' })).statusCode, 403);
    assert.equal((await call(t.app, bob, 'POST', '/api/v1/users', { username: 'sneak', password: 'sneak password' })).statusCode, 403);
    assert.deepEqual(await entriesFor(other.id), []);
    const byBob = (await call(t.app, admin, 'GET', `/api/v1/activity?user_id=${bob.userId}`)).json();
    assert.deepEqual(byBob.entries, []);
  });
});
