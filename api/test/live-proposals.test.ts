import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SheetSchema, SheetVersionEntrySchema, VersionTransitionResultSchema } from '@tessera/contracts';
import { ADMIN } from './support/auth-helpers.js';
import { LiveClient } from './live-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

/** Proposed versions reach the open sheet sockets: new_proposal, then live_update_accepted and the sync on accept. */
describe('live proposal frames', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const sheet = async () => {
    const res = await api.post('/api/v1/sheets', { name: `Proposals ${Math.random().toString(36).slice(2, 8)}`, data: [['a', 'b'], ['c', 'd']] });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const join = async (sheetId: string, token: string, label: string) => {
    const c = await LiveClient.join(base, sheetId, token, { label });
    open.push(c);
    return c;
  };

  it('tells everyone on the sheet of a new proposal, then of its acceptance followed by the sync of the new version', async () => {
    const s = await sheet();
    const a = await join(s.id, admin.accessToken, 'admin');
    const b = await join(s.id, bob.accessToken, 'bob');

    const made = await api.post(`/api/v1/sheets/${s.id}/versions`, { changes: [{ row: 0, col: 0, value: 'proposed' }] });
    assert.equal(made.statusCode, 201, made.body);
    const proposal = SheetVersionEntrySchema.parse(made.json());
    for (const c of [a, b]) {
      const frame = await c.next('new_proposal');
      assert.deepEqual(frame.data, { sheet_id: s.id, version_id: proposal.version_id, author: ADMIN.username });
    }
    // Nothing in the sheet changed yet: no operation, no sync.
    assert.equal((await api.get(`/api/v1/sheets/${s.id}`)).json().version, s.version);

    const accepted = VersionTransitionResultSchema.parse((await api.post(`/api/v1/sheets/${s.id}/versions/${proposal.version_id}/accept`)).json());
    for (const c of [a, b]) {
      const frame = await c.next('live_update_accepted');
      assert.deepEqual(frame.data, { sheet_id: s.id, version_id: proposal.version_id, version: accepted.version });
      const sync = await c.next('sync');
      assert.ok(c.frames.indexOf(frame) < c.frames.indexOf(sync), 'the acceptance comes before the sync');
      assert.equal(sync.data.version, accepted.version);
      assert.deepEqual(sync.data.data, [['proposed', 'b'], ['c', 'd']]);
    }
  });

  it('tells only the sockets of that sheet; a checkout brings a sync without live_update_accepted; a refused accept tells nothing', async () => {
    const s = await sheet();
    const other = await sheet();
    const on = await join(s.id, bob.accessToken, 'on the sheet');
    const elsewhere = await join(other.id, bob.accessToken, 'on another sheet');

    const proposal = SheetVersionEntrySchema.parse((await api.post(`/api/v1/sheets/${s.id}/versions`, { data: [['whole', 'grid']] })).json());
    assert.equal((await on.next('new_proposal')).data.version_id, proposal.version_id);

    await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: s.version, changes: [{ row: 1, col: 1, value: 'edited' }] });
    await on.next('operation');
    const checkout = await api.post(`/api/v1/sheets/${s.id}/versions/${s.version}/checkout`);
    assert.equal(checkout.statusCode, 200, checkout.body);
    const sync = await on.next('sync');
    assert.deepEqual(sync.data.data, [['a', 'b'], ['c', 'd']]);

    // Accepting a committed version is refused (409): no frame.
    const refused = await api.post(`/api/v1/sheets/${s.id}/versions/${s.version}/accept`);
    assert.equal(refused.statusCode, 409);
    const mark = on.frames.length;
    on.send({ type: 'reload_request', sheet_id: s.id });
    await on.next('sync');
    assert.deepEqual(on.since(mark).map((f) => f.type), ['sync']);
    assert.equal(on.frames.some((f) => f.type === 'live_update_accepted'), false);

    // The socket on the other sheet heard nothing of all this.
    elsewhere.send({ type: 'reload_request', sheet_id: other.id });
    await elsewhere.next('sync');
    assert.deepEqual(elsewhere.frames.map((f) => f.type), ['presence', 'access', 'sync']);
  });
});
