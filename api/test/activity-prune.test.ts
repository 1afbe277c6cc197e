// Issue 18: pruning history is for owners only and recorded in the activity log, in the prune's
// own transaction (the mfe-git dialog says a pruned range cannot be undone: SheetVersions.test.tsx).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS } from '@tessera/contracts';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { apiClient } from './support/api-client.js';
import { signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('activity log: history prunes', () => {
  let t: TestApp;
  let admin: Session;
  let alice: Session & { username: string };
  let bob: Session;
  let sheet: string;
  const prunes = async () => (await apiClient(t.app, admin.accessToken).get('/api/v1/activity?kind=history_pruned')).json().entries;

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    [alice, bob] = await Promise.all([signedInMember(t.app, 'user'), signedInMember(t.app, 'user')]);
    const api = apiClient(t.app, alice.accessToken);
    sheet = (await api.post('/api/v1/sheets', { name: 'Ledger', data: [['a']] })).json().id;
    for (let v = 1; v <= 3; v++) await api.patch(`/api/v1/sheets/${sheet}/cells`, { base_version: v, changes: [{ row: 0, col: 0, value: `v${v}` }] });
  });
  after(() => t.close());

  it('an editor is refused (403, nothing pruned, nothing recorded); the owner prunes and the entry names them, the sheet, the policy and the result', async () => {
    const refused = await apiClient(t.app, bob.accessToken).post(`/api/v1/sheets/${sheet}/history/prune`, { recent: 1 });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error.message, ACCESS_TEXTS.ownersOnly);
    assert.deepEqual(await prunes(), []);

    const done = await apiClient(t.app, alice.accessToken).post(`/api/v1/sheets/${sheet}/history/prune`, { recent: 1 });
    assert.equal(done.statusCode, 200, done.body);
    const [entry, ...rest] = await prunes();
    assert.deepEqual(rest, []);
    assert.deepEqual(entry.actor, { id: alice.userId, username: alice.username });
    assert.deepEqual(entry.item, { type: 'sheet', id: sheet, name: 'Ledger' });
    assert.deepEqual(entry.detail, { policy: { recent: 1, hourly: 0, daily: 0, weekly: 0, monthly: 0 }, result: done.json() });
  });

  it('a bad policy is 400 and records nothing', async () => {
    const before = (await prunes()).length;
    const bad = await apiClient(t.app, alice.accessToken).post(`/api/v1/sheets/${sheet}/history/prune`, { recent: 0 });
    assert.equal(bad.statusCode, 400);
    assert.equal((await prunes()).length, before);
  });
});
