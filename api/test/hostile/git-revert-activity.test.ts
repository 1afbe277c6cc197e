// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of bad git-revert activity bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signupAdmin, type Session } from '../support/auth-helpers.js';
import { call, signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * POST /api/v1/activity/git-revert as a member would forge it (issue 18): broken JSON, wrong
 * types, forged fields and a body over the api's limit are refused with their reason, nothing is
 * recorded, and /health still answers.
 */
describe('hostile: git-revert activity bodies', () => {
  let t: TestApp;
  let admin: Session;
  let bob: Session;
  const hex = 'c'.repeat(40);
  const recorded = async () => (await call(t.app, admin, 'GET', '/api/v1/activity?kind=git_reverted')).json().entries.length as number;

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    bob = await signedInMember(t.app, 'user');
  });
  after(() => t.close());

  it('each bad body is a 4xx with its reason, records nothing, and the api stays up', async () => {
    const raw = (payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/activity/git-revert', headers: { authorization: `Bearer ${bob.accessToken}`, 'content-type': 'application/json' }, payload });
    const cases: Array<[string, () => Promise<{ statusCode: number; body: string }>, number]> = [
      ['broken JSON', () => raw('{"commit": '), 400],
      ['an array', () => raw('[]'), 400],
      ['numbers for commits', () => call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit: 1, reverted: 2, subject: 'x' }), 400],
      ['a missing subject', () => call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit: hex, reverted: hex }), 400],
      ['uppercase hex', () => call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit: hex.toUpperCase(), reverted: hex, subject: 'x' }), 400],
      ['a forged actor', () => call(t.app, bob, 'POST', '/api/v1/activity/git-revert', { commit: hex, reverted: hex, subject: 'x', actor: { id: 'admin' } }), 400],
      ['over the body limit', () => raw(JSON.stringify({ commit: hex, reverted: hex, subject: 'x'.repeat(2 * 1024 * 1024) })), 413],
    ];
    for (const [what, send, status] of cases) {
      const res = await send();
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      assert.ok(JSON.parse(res.body).error.message, `${what}: a reason is given`);
    }
    assert.equal(await recorded(), 0);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200);
  });
});
