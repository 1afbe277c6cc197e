import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIVE_CLOSE, LIVE_REPLAY_MAX_VERSIONS, LIVE_TEXTS, LIVE_TOKEN_PROTOCOL, SheetSchema, type GridData, type LiveGrid } from '@tessera/contracts';
import { ADMIN } from './support/auth-helpers.js';
import { forgeBadTokens } from './support/forged-tokens.js';
import { call, signedInMember } from './support/members.js';
import { LiveClient, Replica } from './live-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('live sheet socket /sheets/{id}', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const sheet = async (body: object = {}) => {
    const res = await api.post('/api/v1/sheets', { name: `Live ${Math.random().toString(36).slice(2, 8)}`, ...body });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const server = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const join = async (sheetId: string, token: string, opts: { since?: number; label?: string; autoPong?: boolean; grid?: LiveGrid } = {}) => {
    const c = await LiveClient.join(base, sheetId, token, opts);
    open.push(c);
    return c;
  };
  const cellOp = (id: string, sheetId: string, row: number, column: number, value: string | number | null) => ({
    type: 'operation',
    sheet_id: sheetId,
    operation: { id, type: 'cell_update', position: { row, column }, value, user_id: 'forged-user', timestamp: Date.now() },
  });

  describe('authentication', () => {
    it('closes with 1008 before any data without a token or with a bad or expired one; 4401 with a revoked one', async () => {
      const { id } = await sheet();
      const forged = await forgeBadTokens(t.config, admin.accessToken, { id: admin.userId, username: ADMIN.username });
      const gone = await signedInMember(t.app, 'user');
      assert.equal((await call(t.app, admin.accessToken, 'DELETE', `/api/v1/users/${gone.userId}`)).statusCode < 300, true);
      const cases: [string, string, number, string][] = [
        ['no token', `/sheets/${id}`, 1008, 'Authentication required'],
        ['garbage', `/sheets/${id}?token=${forged.garbage}`, 1008, 'Invalid or expired access token'],
        ['expired', `/sheets/${id}?token=${forged.expired}`, 1008, 'Invalid or expired access token'],
        ['wrong key', `/sheets/${id}?token=${forged.wrongKey}`, 1008, 'Invalid or expired access token'],
        ['alg none', `/sheets/${id}?token=${forged.algNone}`, 1008, 'Invalid or expired access token'],
        ['deleted user', `/sheets/${id}?token=${gone.accessToken}`, LIVE_CLOSE.sessionEnded, LIVE_TEXTS.sessionEnded],
        ['a user_id in the URL is no credential', `/sheets/${id}?user_id=${admin.userId}`, 1008, 'Authentication required'],
      ];
      for (const [name, path, code, reason] of cases) {
        const c = LiveClient.connect(base, path, { label: name });
        const closed = await c.closed;
        assert.equal(closed.code, code, name);
        assert.equal(closed.reason, reason, name);
        assert.deepEqual(c.frames, [], `${name}: no data before the close`);
      }
    });

    it('takes the token from Sec-WebSocket-Protocol, and never trusts a user_id in the URL', async () => {
      const { id } = await sheet();
      const c = LiveClient.connect(base, `/sheets/${id}?user_id=${encodeURIComponent(admin.userId)}`, {
        protocols: [LIVE_TOKEN_PROTOCOL, bob.accessToken],
      });
      open.push(c);
      const presence = await c.next('presence');
      assert.equal(c.socket.protocol, LIVE_TOKEN_PROTOCOL, 'the marker is selected, the token is not echoed');
      assert.deepEqual(
        presence.data.users.map((u) => u.userId),
        [bob.userId],
      );
    });

    it('closes an unknown or malformed sheet id with a clear reason', async () => {
      for (const sheetId of [MISSING, 'not-a-uuid']) {
        const c = LiveClient.connect(base, `/sheets/${sheetId}?token=${admin.accessToken}`);
        const closed = await c.closed;
        assert.equal(closed.code, 4404);
        assert.equal(closed.reason, 'Sheet not found');
      }
    });
  });

  describe('presence', () => {
    it('lists who is there on join, tells joins and leaves once per user (two tabs count once)', async () => {
      const { id } = await sheet();
      const a = await join(id, admin.accessToken, { label: 'admin' });
      assert.deepEqual(a.frames[0], {
        type: 'presence',
        data: { sheet_id: id, users: [{ userId: admin.userId, joinedAt: (a.frames[0] as never as { data: { users: { joinedAt: string }[] } }).data.users[0].joinedAt, display_name: ADMIN.nickname }] },
      });
      const b1 = await join(id, bob.accessToken, { label: 'bob tab 1' });
      const joined = await a.next('user_joined');
      assert.deepEqual(joined.data, { user_id: bob.userId, sheet_id: id, display_name: bob.username });
      const list = b1.frames[0];
      assert.equal(list.type, 'presence');
      assert.deepEqual(list.type === 'presence' && list.data.users.map((u) => u.userId).sort(), [admin.userId, bob.userId].sort());

      // A second tab of bob: no second user_joined. A REST edit after it marks "everything before has arrived".
      const mark = a.frames.length;
      const b2 = await join(id, bob.accessToken, { label: 'bob tab 2' });
      assert.equal(b2.frames[0].type === 'presence' && b2.frames[0].data.users.length, 2);
      await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'marker' }] });
      await a.next('operation');
      assert.deepEqual(a.since(mark).map((f) => f.type), ['operation']);

      // Closing one of the two tabs: bob is still there.
      await b2.close();
      const mark2 = a.frames.length;
      await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: 2, changes: [{ row: 0, col: 0, value: 'marker 2' }] });
      await a.next('operation');
      assert.deepEqual(a.since(mark2).map((f) => f.type), ['operation']);
      assert.deepEqual((await t.app.live.presentUsers(id)).sort(), [admin.userId, bob.userId].sort());

      await b1.close();
      const left = await a.next('user_left');
      assert.deepEqual(left.data, { user_id: bob.userId, sheet_id: id, display_name: bob.username });
      assert.deepEqual((await t.app.live.presentUsers(id)), [admin.userId]);
    });

    it('drops a connection that stops answering pings at the next heartbeat', async () => {
      const { id } = await sheet();
      const a = await join(id, admin.accessToken, { label: 'alive' });
      const dead = await join(id, bob.accessToken, { label: 'dead', autoPong: false });
      await a.next('user_joined');
      const pinged = new Promise((resolve) => a.socket.once('ping', resolve));
      t.app.live.heartbeat();
      await pinged;
      // The pong went out before this frame on the same connection, so the server has it once the sync is back.
      a.send({ type: 'reload_request', sheet_id: id });
      await a.next('sync');
      t.app.live.heartbeat();
      const left = await a.next('user_left');
      assert.equal(left.data.user_id, bob.userId);
      assert.notEqual((await dead.closed).code, 1000);
      assert.deepEqual((await t.app.live.presentUsers(id)), [admin.userId]);
    });
  });

  describe('operations', () => {
    it("reaches the others with the version, stamped with the token's user, and is in the database before the ack", async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken, { label: 'admin' });
      const b = await join(s.id, bob.accessToken, { label: 'bob' });
      b.send(cellOp('op-1', s.id, 2, 3, 'from bob'));
      const ack = await b.next('ack');
      // The ack is sent after the commit: the database already has the cell at that version.
      const stored = await t.app.db.selectFrom('sheets').select('version').where('id', '=', s.id).executeTakeFirstOrThrow();
      assert.equal(stored.version, ack.data.version);
      assert.equal(ack.data.version, s.version + 1);
      assert.equal(ack.data.operation_id, 'op-1');
      assert.equal((await server(s.id)).data[2][3], 'from bob');
      const logged = await t.app.db.selectFrom('sheet_ops').select(['user_id', 'kind']).where('sheet_id', '=', s.id).where('version', '=', ack.data.version).executeTakeFirstOrThrow();
      assert.deepEqual(logged, { user_id: bob.userId, kind: 'cells' });

      const op = await a.next('operation');
      assert.equal(op.data.version, ack.data.version);
      assert.equal(op.data.operation.user_id, bob.userId, 'the frame said forged-user; the token decides');
      assert.equal(op.data.operation.id, 'op-1');
      assert.deepEqual(op.data.operation.type === 'cell_update' && op.data.operation.position, { row: 2, column: 3 });
      assert.equal(b.frames.filter((f) => f.type === 'operation').length, 0, 'the sender gets the ack, not its own op');

      // Counted on /metrics once acknowledged (operations per second = their rate).
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.ok(Number(/^live_operations_total\{[^}]*\} (\d+)$/m.exec(metrics)?.[1]) >= 1, metrics);
      // And its group commit (operations per group = the two rates' ratio).
      assert.ok(Number(/^live_groups_total\{[^}]*\} (\d+)$/m.exec(metrics)?.[1]) >= 1, metrics);
    });

    it('keeps frames sent right after open (before the token check ends) and applies them after the join', async () => {
      const s = await sheet();
      const c = LiveClient.connect(base, `/sheets/${s.id}?token=${admin.accessToken}&since=${s.version}`);
      open.push(c);
      assert.equal(await c.opened, true);
      c.send(cellOp('early', s.id, 0, 0, 'queued offline'));
      const presence = await c.next('presence');
      const ack = await c.next('ack');
      assert.ok(c.frames.indexOf(presence) < c.frames.indexOf(ack));
      assert.equal(ack.data.operation_id, 'early');
      assert.equal((await server(s.id)).data[0][0], 'queued offline');
    });

    it('answers a plain GET (no upgrade) with 426 in the error shape', async () => {
      const s = await sheet();
      const res = await t.app.inject({ method: 'GET', url: `/sheets/${s.id}` });
      assert.equal(res.statusCode, 426);
      assert.equal(res.json().error.code, 'bad_request');
    });

    it('applies a pasted range as one operation and one version, growing the sheet', async () => {
      const s = await sheet({ metadata: { rows: 2, columns: 2 } });
      const a = await join(s.id, admin.accessToken);
      const b = await join(s.id, bob.accessToken);
      const changes = Array.from({ length: 10_000 }, (_, i) => ({ row: Math.floor(i / 20), col: i % 20, value: i }));
      a.send({ type: 'operation', sheet_id: s.id, operation: { id: 'paste', type: 'cells_update', changes } });
      const ack = await a.next('ack');
      assert.equal(ack.data.version, s.version + 1);
      const op = await b.next('operation');
      assert.equal(op.data.operation.type === 'cells_update' && op.data.operation.changes.length, 10_000);
      const after = await server(s.id);
      assert.equal(after.data.length, 500);
      assert.equal(after.data[499][19], 9_999);
      assert.equal(after.version, ack.data.version);
    });

    it("an AI result's cells (source 'ai') set the sheet's lastAIUpdate; a person's edit does not", async () => {
      const s = await sheet({ data: [['a', 'b']] });
      const a = await join(s.id, admin.accessToken);
      a.send({ type: 'operation', sheet_id: s.id, operation: { id: 'typed', type: 'cells_update', changes: [{ row: 0, col: 0, value: 'A' }] } });
      await a.next('ack');
      assert.equal((await server(s.id)).metadata.lastAIUpdate, undefined);
      const sentAt = new Date().toISOString();
      a.send({ type: 'operation', sheet_id: s.id, operation: { id: 'result', type: 'cells_update', source: 'ai', changes: [{ row: 0, col: 1, value: 'B' }] } });
      await a.next('ack');
      const after = await server(s.id);
      assert.deepEqual(after.data, [['A', 'B']]);
      const lastAIUpdate = String(after.metadata.lastAIUpdate);
      assert.match(lastAIUpdate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(lastAIUpdate.slice(0, 19) >= sentAt.slice(0, 19), `${lastAIUpdate} is the commit's time (sent at ${sentAt})`);
    });

    // Convergence under concurrent writers is a property test: live-property.test.ts (fast-check).
  });

  describe('reconnect', () => {
    it('replays the ops missed since the version the client holds', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      const b = await join(s.id, bob.accessToken, { since: s.version });
      b.send(cellOp('b-1', s.id, 0, 0, 'seen'));
      const held = (await b.next('ack')).data.version;
      await b.close();
      for (let i = 0; i < 3; i++) a.send(cellOp(`a-${i}`, s.id, 1, i, `missed ${i}`));
      for (let i = 0; i < 3; i++) await a.next('ack');
      const b2 = await join(s.id, bob.accessToken, { since: held, label: 'bob again' });
      const replayed = [await b2.next('operation'), await b2.next('operation'), await b2.next('operation')];
      assert.deepEqual(
        replayed.map((f) => f.data.version),
        [held + 1, held + 2, held + 3],
      );
      assert.ok(replayed.every((f) => f.data.operation.user_id === admin.userId));
      // The replay carries the sender's operation ids (a client whose ack was lost knows its own op).
      assert.deepEqual(
        replayed.map((f) => f.data.operation.id),
        ['a-0', 'a-1', 'a-2'],
      );
      // Bob's view: what he held (the sheet plus his own op), then the replay.
      const heldGrid = structuredClone(s.data);
      heldGrid[0][0] = 'seen';
      const replica = new Replica(heldGrid, held);
      replica.absorb(b2.frames);
      assert.deepEqual(replica.grid, (await server(s.id)).data);
      assert.equal(b2.frames.some((f) => f.type === 'sync'), false);
    });

    it(`sends a sync when more than ${LIVE_REPLAY_MAX_VERSIONS} versions behind, ahead, or past a whole-sheet change`, async () => {
      const s = await sheet({ metadata: { rows: 3, columns: 3 } });
      const a = await join(s.id, admin.accessToken);
      for (let i = 0; i <= LIVE_REPLAY_MAX_VERSIONS; i++) a.send(cellOp(`many-${i}`, s.id, i % 3, 0, i));
      await a.waitFor((frames) => (frames.filter((f) => f.type === 'ack').length === LIVE_REPLAY_MAX_VERSIONS + 1 ? true : undefined), 'every ack');
      const current = (await server(s.id)).version;
      assert.equal(current, s.version + LIVE_REPLAY_MAX_VERSIONS + 1);

      const far = await join(s.id, bob.accessToken, { since: s.version, label: 'far behind' });
      const sync = await far.next('sync');
      assert.equal(sync.data.version, current);
      assert.equal(sync.data.name, s.name);
      assert.deepEqual(sync.data.data, (await server(s.id)).data);
      assert.equal(typeof sync.data.timestamp, 'string');
      assert.deepEqual(sync.data.metadata.headers, ['A', 'B', 'C']);
      assert.equal(far.frames.filter((f) => f.type === 'operation').length, 0);

      const near = await join(s.id, bob.accessToken, { since: current - LIVE_REPLAY_MAX_VERSIONS, label: 'just within' });
      await near.waitFor((f) => (f.filter((x) => x.type === 'operation').length === LIVE_REPLAY_MAX_VERSIONS ? true : undefined), 'the replay');

      const ahead = await join(s.id, bob.accessToken, { since: current + 5, label: 'ahead' });
      assert.equal((await ahead.next('sync')).data.version, current);

      const res = await api.put(`/api/v1/sheets/${s.id}`, { data: [['whole', 'new'], ['grid']] });
      assert.equal(res.statusCode, 200, res.body);
      const behindSave = await join(s.id, bob.accessToken, { since: current, label: 'behind a save' });
      assert.deepEqual((await behindSave.next('sync')).data.data, [['whole', 'new'], ['grid']]);
    });

    it('reload_request sends everyone on the sheet a sync', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      const b = await join(s.id, bob.accessToken);
      b.send({ type: 'reload_request', sheet_id: s.id });
      for (const c of [a, b]) {
        const sync = await c.next('sync');
        assert.equal(sync.data.version, s.version);
        assert.deepEqual(sync.data.data, s.data);
      }
    });
  });

  describe('a page that holds its sheet windowed (issue 23)', () => {
    /** Sheets read for a sync so far: with the whole grid, or the summary only (/metrics). */
    const syncReads = async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const count = (cells: string) => Number(new RegExp(`^live_sync_reads_total\\{[^}]*cells="${cells}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      return { whole: count('whole'), none: count('none') };
    };

    it('gets its syncs without the cells (a PUT, a restore, a catch-up) while a whole page gets them; alone, the grid is never read', async () => {
      const s = await sheet({ data: [['a1', 'b1'], ['a2']] });
      const windowed = await join(s.id, bob.accessToken, { grid: 'windowed', label: 'windowed' });
      const whole = await join(s.id, admin.accessToken, { label: 'whole' });
      const saved = await api.put(`/api/v1/sheets/${s.id}`, { data: [['saved', 'x'], ['y']] });
      assert.equal(saved.statusCode, 200, saved.body);
      const light = await windowed.next('sync');
      assert.equal(light.data.version, saved.json().version);
      assert.equal('data' in light.data, false, 'no cells for the windowed page');
      assert.deepEqual([light.data.name, light.data.metadata.rows, light.data.metadata.columns], [s.name, 2, 2]);
      assert.deepEqual((await whole.next('sync')).data.data, [['saved', 'x'], ['y']]);

      // Only windowed pages left on the sheet: a sync reads the sheet's summary, never its grid.
      await whole.close();
      await windowed.next('user_left');
      const before = await syncReads();
      const restored = await api.post(`/api/v1/sheets/${s.id}/snapshots/${s.version}/restore`, {});
      assert.equal(restored.statusCode, 200, restored.body);
      const afterRestore = await windowed.next('sync');
      assert.equal('data' in afterRestore.data, false);
      assert.equal(afterRestore.data.version, (await server(s.id)).version);
      const ahead = await join(s.id, bob.accessToken, { grid: 'windowed', since: afterRestore.data.version + 5, label: 'windowed, ahead' });
      const caughtUp = await ahead.next('sync');
      assert.deepEqual(['data' in caughtUp.data, caughtUp.data.version], [false, afterRestore.data.version]);
      const during = await syncReads();
      assert.equal(during.whole, before.whole, 'the grid was not read');
      assert.equal(during.none, before.none + 2);

      // The page switched to whole (a formula came): its next sync has the cells again.
      windowed.send({ type: 'grid', sheet_id: s.id, grid: 'whole' });
      windowed.send({ type: 'reload_request', sheet_id: s.id });
      assert.deepEqual((await windowed.next('sync', (f) => 'data' in f.data)).data.data, (await server(s.id)).data);
      assert.equal('data' in (await ahead.next('sync')).data, false, 'the other windowed page still gets none');
      assert.equal((await syncReads()).whole, during.whole + 1);
    });
  });

  describe('changes made outside the socket', () => {
    it('a REST PATCH reaches the sockets as an operation, a PUT (save or rename) as a sync', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      const patched = await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: s.version, changes: [{ row: 1, col: 1, value: 'rest' }] });
      assert.equal(patched.statusCode, 200, patched.body);
      const op = await a.next('operation');
      assert.equal(op.data.version, patched.json().version);
      assert.deepEqual(op.data.operation.type === 'cells_update' && op.data.operation.changes, [{ row: 1, col: 1, value: 'rest' }]);
      assert.equal(op.data.operation.user_id, admin.userId);

      const renamed = await call(t.app, bob.accessToken, 'PUT', `/api/v1/sheets/${s.id}`, { name: `${s.name} renamed` });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const sync = await a.next('sync');
      assert.equal(sync.data.name, `${s.name} renamed`);
      assert.equal(sync.data.version, renamed.json().version);
      assert.equal(sync.data.data?.[1][1], 'rest');
    });
  });

  it('closes the sockets of a deleted sheet with 4410', async () => {
    const s = await sheet();
    const a = await join(s.id, admin.accessToken);
    const b = await join(s.id, bob.accessToken);
    assert.equal((await api.delete(`/api/v1/sheets/${s.id}`)).statusCode, 200);
    for (const c of [a, b]) assert.deepEqual(await c.closed, { code: 4410, reason: 'Sheet deleted' });
    assert.deepEqual((await t.app.live.presentUsers(s.id)), []);
  });

  describe('malformed frames', () => {
    it('get an error frame; a 10 MB frame closes that socket; the server keeps serving the others', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken, { label: 'sender of bad frames' });
      const b = await join(s.id, bob.accessToken, { label: 'bystander' });
      const bad: [unknown, RegExp][] = [
        ['{not json', /not valid JSON/],
        [{ type: 'operation', sheet_id: s.id, operation: { id: 'x1', type: 'cell_update', position: { row: 'one', column: 0 }, value: 1 } }, /position\.row/],
        [{ type: 'operation', sheet_id: s.id, operation: { id: 'x2', type: 'cell_update', position: { row: 2_000_000, column: 0 }, value: 1 } }, /position\.row/],
        [{ type: 'operation', sheet_id: s.id, operation: { id: 'x3', type: 'cell_update', position: { row: 0, column: 0 }, value: { nested: true } } }, /value/],
        [{ type: 'operation', sheet_id: s.id, operation: { id: 'x4', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x'.repeat(40_000) } }, /value/],
        [{ type: 'operation', sheet_id: s.id, operation: { id: 'x5', type: 'cells_update', changes: [] } }, /changes/],
        [{ type: 'operation', sheet_id: MISSING, operation: { id: 'x6', type: 'cell_update', position: { row: 0, column: 0 }, value: 1 } }, /sheet_id/],
        [{ type: 'launch_missiles', sheet_id: s.id }, /type/],
        ['[1,2,3]', /Invalid frame/],
        ['null', /Invalid frame/],
      ];
      for (const [frame, message] of bad) {
        a.send(frame);
        const error = await a.next('error');
        assert.match(error.data.message, message, JSON.stringify(frame).slice(0, 80));
      }
      assert.deepEqual(
        a.frames.filter((f) => f.type === 'error').map((f) => f.type === 'error' && f.data.operation_id).filter(Boolean),
        ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'],
      );
      // Nothing was written, and the same socket still works.
      assert.equal((await server(s.id)).version, s.version);
      a.send(cellOp('good', s.id, 0, 0, 'still works'));
      assert.equal((await a.next('ack')).data.version, s.version + 1);
      assert.equal((await b.next('operation')).data.operation.id, 'good');

      a.send('x'.repeat(10 * 1024 * 1024));
      assert.equal((await a.closed).code, 1009);
      await b.next('user_left');
      b.send(cellOp('after', s.id, 0, 1, 'served'));
      assert.equal((await b.next('ack')).data.version, s.version + 2);
      assert.equal((await server(s.id)).data[0][1], 'served');
    });
  });
});
