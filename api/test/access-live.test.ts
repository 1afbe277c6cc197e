// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is access on the live sockets.
// Issue 18 on the live sockets: a viewer's operations are refused with an error frame naming
// them, no access is no sheet, and a sharing change reaches sockets already open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS, LIVE_CLOSE } from '@tessera/contracts';
import { LiveClient, WorkspaceClient } from './live-client.js';
import { apiClient } from './support/api-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';
import { signedInMember } from './support/members.js';

const cellOp = (id: string, sheetId: string, value: string) => ({
  type: 'operation',
  sheet_id: sheetId,
  operation: { id, type: 'cell_update', position: { row: 0, column: 0 }, value },
});

describe('access on the live sockets', () => {
  let s: LiveStack;
  const open: { close(): Promise<unknown> }[] = [];
  before(async () => {
    s = await startLiveStack();
  });
  after(() => closeLiveStack(s.t, open));

  it("a viewer's operation gets an error frame naming it and changes nothing", async () => {
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Read me', data: [['before'], ['a row after']] })).json();
    await s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
      entries: [
        { user_id: s.admin.userId, level: 'owner' },
        { user_id: s.bob.userId, level: 'viewer' },
      ],
    });
    const bob = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    open.push(bob);
    bob.send(cellOp('bob-1', sheet.id, 'typed by a viewer'));
    const error = await bob.next('error', (f) => f.data.operation_id === 'bob-1');
    assert.equal(error.data.message, ACCESS_TEXTS.viewOnly);
    assert.equal(error.data.code, 'forbidden');
    // A sort too (it reorders every row): refused by the server, whatever the client shows.
    bob.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'bob-sort', type: 'rows_sort', column: 0, direction: 'asc' } });
    const sortError = await bob.next('error', (f) => f.data.operation_id === 'bob-sort');
    assert.deepEqual(sortError.data, { code: 'forbidden', message: ACCESS_TEXTS.viewOnly, operation_id: 'bob-sort' });
    // A clear too (one small op that empties a whole column): refused the same way.
    bob.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'bob-clear', type: 'cells_clear', rows: { start: 0, count: 2 }, columns: { start: 0, count: 1 } } });
    const clearError = await bob.next('error', (f) => f.data.operation_id === 'bob-clear');
    assert.deepEqual(clearError.data, { code: 'forbidden', message: ACCESS_TEXTS.viewOnly, operation_id: 'bob-clear' });
    const stored = (await s.api.get(`/api/v1/sheets/${sheet.id}`)).json();
    assert.deepEqual(stored.data, [['before'], ['a row after']]);
    assert.equal(stored.version, 1);
  });

  it("a viewer's undo of a clear is refused and puts nothing back; the editor's own undo does", async () => {
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Cleared', data: [['a', 'b'], ['c', 'd']] })).json();
    await s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
      entries: [
        { user_id: s.admin.userId, level: 'owner' },
        { user_id: s.bob.userId, level: 'viewer' },
      ],
    });
    const admin = await LiveClient.join(s.base, sheet.id, s.admin.accessToken);
    const bob = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    open.push(admin, bob);
    admin.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } } });
    const cleared = (await admin.next('ack', (f) => f.data.operation_id === 'clear')).data.version;
    bob.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'bob-undo', type: 'cells_clear_undo', undo: cleared } });
    const error = await bob.next('error', (f) => f.data.operation_id === 'bob-undo');
    assert.deepEqual(error.data, { code: 'forbidden', message: ACCESS_TEXTS.viewOnly, operation_id: 'bob-undo' });
    const stored = (await s.api.get(`/api/v1/sheets/${sheet.id}`)).json();
    assert.deepEqual([stored.data, stored.version], [[['a', null], ['c', null]], cleared]);
    admin.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'undo', type: 'cells_clear_undo', undo: cleared } });
    await admin.next('ack', (f) => f.data.operation_id === 'undo');
    assert.deepEqual((await s.api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['a', 'b'], ['c', 'd']]);
  });

  it("a viewer's undo of a column remove is refused and puts nothing back; the editor's own undo does", async () => {
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Removed', data: [['a', 'b'], ['c', 'd']] })).json();
    await s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
      entries: [
        { user_id: s.admin.userId, level: 'owner' },
        { user_id: s.bob.userId, level: 'viewer' },
      ],
    });
    const admin = await LiveClient.join(s.base, sheet.id, s.admin.accessToken);
    const bob = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    open.push(admin, bob);
    admin.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'remove', type: 'columns_remove', index: 1, count: 1 } });
    const removed = (await admin.next('ack', (f) => f.data.operation_id === 'remove')).data.version;
    bob.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'bob-undo', type: 'columns_insert', index: 1, count: 1, undo: removed } });
    const error = await bob.next('error', (f) => f.data.operation_id === 'bob-undo');
    assert.deepEqual(error.data, { code: 'forbidden', message: ACCESS_TEXTS.viewOnly, operation_id: 'bob-undo' });
    const stored = (await s.api.get(`/api/v1/sheets/${sheet.id}`)).json();
    assert.deepEqual([stored.data, stored.version], [[['a'], ['c']], removed]);
    admin.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'undo', type: 'columns_insert', index: 1, count: 1, undo: removed } });
    await admin.next('ack', (f) => f.data.operation_id === 'undo');
    assert.deepEqual((await s.api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['a', 'b'], ['c', 'd']]);
  });

  it('a member with no access cannot join: the same close as a sheet that does not exist', async () => {
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Secret' })).json();
    await s.api.put(`/api/v1/sheets/${sheet.id}/access`, { entries: [{ user_id: s.admin.userId, level: 'owner' }, { user_id: null, level: 'none' }] });
    const bob = LiveClient.connect(s.base, `/sheets/${sheet.id}?token=${encodeURIComponent(s.bob.accessToken)}`);
    const closed = await bob.closed;
    assert.deepEqual(closed, { code: LIVE_CLOSE.sheetNotFound, reason: 'Sheet not found' });
    assert.equal(bob.frames.length, 0, 'nothing of the sheet was sent');
  });

  it('a sharing change reaches open sockets: a member made viewer is refused from then on; one who lost access is closed', async () => {
    const carol = await signedInMember(s.t.app, 'user');
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Shared', data: [['x']] })).json();
    const bob = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    const carolSocket = await LiveClient.join(s.base, sheet.id, carol.accessToken);
    open.push(bob, carolSocket);
    bob.send(cellOp('bob-ok', sheet.id, 'editor by default'));
    await bob.next('ack', (f) => f.data.operation_id === 'bob-ok');

    const changed = await s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
      entries: [
        { user_id: s.admin.userId, level: 'owner' },
        { user_id: s.bob.userId, level: 'viewer' },
        { user_id: null, level: 'none' },
      ],
    });
    assert.equal(changed.statusCode, 200);
    assert.deepEqual(await carolSocket.closed, { code: LIVE_CLOSE.sheetNotFound, reason: ACCESS_TEXTS.accessRemoved });
    // Bob is told his new level; what he sends after that is judged at it.
    const told = await bob.next('access');
    assert.deepEqual(told.data, { sheet_id: sheet.id, access: 'viewer' });
    bob.send(cellOp('bob-after', sheet.id, 'now a viewer'));
    const error = await bob.next('error', (f) => f.data.operation_id === 'bob-after');
    assert.equal(error.data.message, ACCESS_TEXTS.viewOnly);
    assert.equal(error.data.code, 'forbidden');
    const stored = (await s.api.get(`/api/v1/sheets/${sheet.id}`)).json();
    assert.deepEqual(stored.data, [['editor by default']]);
  });

  it('a viewer made editor again is told so and may write; a sharing change that leaves a level as it was tells nothing', async () => {
    const erin = await signedInMember(s.t.app, 'user');
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Back and forth', data: [['x']] })).json();
    const share = (bobLevel: string) =>
      s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
        entries: [
          { user_id: s.admin.userId, level: 'owner' },
          { user_id: s.bob.userId, level: bobLevel },
        ],
      });
    assert.equal((await share('viewer')).statusCode, 200);
    const bob = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    // Erin is an editor through the workspace default before and after every change below.
    const erinSocket = await LiveClient.join(s.base, sheet.id, erin.accessToken);
    open.push(bob, erinSocket);

    assert.equal((await share('editor')).statusCode, 200);
    const told = await bob.next('access');
    assert.deepEqual(told.data, { sheet_id: sheet.id, access: 'editor' });
    bob.send(cellOp('bob-edit', sheet.id, 'an editor again'));
    await bob.next('ack', (f) => f.data.operation_id === 'bob-edit');
    assert.deepEqual((await s.api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['an editor again']]);

    // Bob back to viewer. Erin's socket was reviewed at each of the three changes and never moved.
    assert.equal((await share('viewer')).statusCode, 200);
    assert.deepEqual((await bob.next('access', (f) => f.data.access === 'viewer')).data, { sheet_id: sheet.id, access: 'viewer' });
    erinSocket.send(cellOp('erin-1', sheet.id, 'still an editor'));
    await erinSocket.next('ack', (f) => f.data.operation_id === 'erin-1');
    assert.deepEqual(
      erinSocket.frames.filter((f) => f.type === 'access').map((f) => f.data),
      [{ sheet_id: sheet.id, access: 'editor' }],
      'only the join told her level: no access frame for a level that did not move',
    );
  });

  it('a socket that was down during a sharing change is told the new level when it joins again', async () => {
    const sheet = (await s.api.post('/api/v1/sheets', { name: 'Missed change', data: [['x']] })).json();
    const first = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    assert.deepEqual(first.frames.find((f) => f.type === 'access')?.data, { sheet_id: sheet.id, access: 'editor' });
    await first.close();
    const changed = await s.api.put(`/api/v1/sheets/${sheet.id}/access`, {
      entries: [
        { user_id: s.admin.userId, level: 'owner' },
        { user_id: s.bob.userId, level: 'viewer' },
      ],
    });
    assert.equal(changed.statusCode, 200);
    const again = await LiveClient.join(s.base, sheet.id, s.bob.accessToken);
    open.push(again);
    assert.deepEqual(again.frames.find((f) => f.type === 'access')?.data, { sheet_id: sheet.id, access: 'viewer' });
  });

  it('a navigator never hears the name of what its member cannot see; an item taken away is told as gone', async () => {
    const dana = await signedInMember(s.t.app, 'user');
    const nav = await WorkspaceClient.join(s.base, dana.accessToken);
    open.push(nav);
    const admin = apiClient(s.t.app, s.admin.accessToken);
    const group = (await admin.post('/api/v1/groups', { name: 'Board' })).json();
    await nav.next('group_created', (f) => f.data.id === group.id);
    await admin.put(`/api/v1/groups/${group.id}/access`, { entries: [{ user_id: s.admin.userId, level: 'owner' }, { user_id: null, level: 'none' }] });
    const gone = await nav.next('group_deleted', (f) => f.data.id === group.id);
    assert.equal(JSON.stringify(gone).includes('Board'), false);
    const hidden = (await admin.post('/api/v1/sheets', { name: 'Board minutes', group_id: group.id })).json();
    await nav.next('sheet_deleted', (f) => f.data.id === hidden.id);
    assert.equal(JSON.stringify(nav.frames).includes('Board minutes'), false);
  });
});
