// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the activity log's git revert entries.
// Issue 18: git reverts in the activity log. The repository lives in the ai-middleware, which
// records each revert here with the reverting member's token (ai-middleware/test/git-revert-activity.test.ts
// drives the whole path); the entry names that member, whatever the body says.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACTIVITY_LABELS } from '@tessera/contracts';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { call, signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('activity log: git reverts', () => {
  let t: TestApp;
  let admin: Session;
  let bob: Session & { username: string };
  const commit = 'a'.repeat(40);
  const reverted = 'b'.repeat(40);

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    bob = await signedInMember(t.app, 'user');
  });
  after(() => t.close());

  it('a revert is recorded under the member whose token sent it, with the commits and subject; admins see it', async () => {
    const res = await call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit, reverted, subject: 'Add totals' });
    assert.equal(res.statusCode, 201, res.body);
    const page = (await call(t.app, admin, 'GET', '/api/v1/activity?kind=git_reverted')).json();
    assert.equal(page.entries.length, 1);
    const [entry] = page.entries;
    assert.deepEqual(entry.actor, { id: bob.userId, username: bob.username });
    assert.deepEqual(entry.detail, { commit, reverted, subject: 'Add totals' });
    assert.equal(entry.item, null);
    assert.equal(ACTIVITY_LABELS[entry.kind as 'git_reverted'], 'Reverted git commit');
  });

  it('a body that is not a revert is 400 and records nothing; without a token 401', async () => {
    const count = async () => (await call(t.app, admin, 'GET', '/api/v1/activity?kind=git_reverted')).json().entries.length;
    const before = await count();
    const bad = await call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit: 'HEAD', reverted, subject: 'x' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.message, 'A commit is 40 lowercase hex digits');
    const extra = await call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit, reverted, subject: 'x', actor: 'admin' });
    assert.equal(extra.statusCode, 400);
    const long = await call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit, reverted, subject: 'x'.repeat(201) });
    assert.equal(long.json().error.message, 'subject is at most 200 characters');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/activity/git-revert', payload: { commit, reverted, subject: 'x' } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(await count(), before);
  });
});
