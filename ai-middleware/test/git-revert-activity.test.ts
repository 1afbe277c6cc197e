// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is git reverts' activity entries.
// Issue 18: a git revert is in the api's activity log. The ai-middleware keeps the repository and
// records each revert through the real api (its build, PGlite or PostgreSQL) with the member's token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ActivityPageSchema, GitCommitResponseSchema } from '@tessera/contracts';
import { type RealApi, startRealApi } from './helpers/real-api.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

describe('git revert → the activity log (real api)', () => {
  let api: RealApi;
  let t: TestApp;
  let auth: Record<string, string>;

  before(async () => {
    api = await startRealApi();
    auth = await api.signup('alice');
    t = await startTestApp(api.base);
  });
  after(async () => {
    await t?.close();
    await api?.close();
  });

  const call = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: auth });
  const reverts = async () => {
    const res = await fetch(`${api.base}/api/v1/activity?kind=git_reverted`, { headers: auth });
    return ActivityPageSchema.parse(await res.json()).entries;
  };

  test('a revert made through the middleware is recorded with who, the commits and the subject; a refused one is not', async () => {
    const first = await call('/git/commits', { message: 'Add totals', base_commit: null, changes: [{ path: 'totals.py', action: 'upsert', content: 'x = 1\n' }] });
    assert.equal(first.statusCode, 200, first.body);
    const target = GitCommitResponseSchema.parse(first.json()).commit_hash!;
    const res = await call('/git/revert-commit', { commit: target });
    assert.equal(res.statusCode, 200, res.body);
    const revert = GitCommitResponseSchema.parse(res.json());
    assert.equal(Object.hasOwn(res.json(), 'reverted'), false, 'the reply is the contract’s');

    const [entry, ...rest] = await reverts();
    assert.deepEqual(rest, []);
    assert.equal(entry.actor.username, 'alice');
    assert.deepEqual(entry.detail, { commit: revert.commit_hash, reverted: target, subject: 'Add totals' });
    assert.ok(entry.address, 'the address is recorded');

    // Reverting it again conflicts (409): nothing reverted, nothing recorded.
    assert.equal((await call('/git/revert-commit', { commit: target })).statusCode, 409);
    assert.equal((await reverts()).length, 1);
  });
});
