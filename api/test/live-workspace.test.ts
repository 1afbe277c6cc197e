// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the workspace socket.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LIVE_TOKEN_PROTOCOL, SheetSchema, type WorkspaceServerFrame } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { ADMIN } from './support/auth-helpers.js';
import { forgeBadTokens } from './support/forged-tokens.js';
import { signedInMember } from './support/members.js';
import { type ApiProcess, createDatabase, httpApi, startApiProcess, usersOn } from './live-api-process.js';
import { LiveClient, WorkspaceClient } from './live-client.js';
import { testRedis, type TestRedis } from './live-redis-server.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

/** The workspace socket `/live`: who is online anywhere, and navigation changes, with real `ws` clients on loopback. */
describe('workspace socket /live', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: { close(): Promise<unknown> }[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const join = async (token: string, opts: { label?: string; autoPong?: boolean } = {}) => {
    const c = await WorkspaceClient.join(base, token, opts);
    open.push(c);
    return c;
  };
  const users = (frame: WorkspaceServerFrame) => (frame.type === 'online' ? frame.data.users.map((u) => u.user_id).sort() : []);

  describe('authentication', () => {
    it('closes with 1008 before any data without a token or with a bad one; a user_id in the URL is no credential', async () => {
      const forged = await forgeBadTokens(t.config, admin.accessToken, { id: admin.userId, username: ADMIN.username });
      const cases: [string, string, string][] = [
        ['no token', '/live', 'Authentication required'],
        ['user_id only', `/live?user_id=${admin.userId}`, 'Authentication required'],
        ['garbage', `/live?token=${forged.garbage}`, 'Invalid or expired access token'],
        ['expired', `/live?token=${forged.expired}`, 'Invalid or expired access token'],
        ['alg none', `/live?token=${forged.algNone}`, 'Invalid or expired access token'],
      ];
      for (const [name, path, reason] of cases) {
        const c = WorkspaceClient.connect(base, path, { label: name });
        const closed = await c.closed;
        assert.equal(closed.code, 1008, name);
        assert.equal(closed.reason, reason, name);
        assert.deepEqual(c.frames, [], `${name}: no data before the close`);
      }
    });

    it('takes the token from Sec-WebSocket-Protocol; a plain GET is a 426', async () => {
      const c = WorkspaceClient.connect(base, `/live?user_id=${admin.userId}`, { protocols: [LIVE_TOKEN_PROTOCOL, bob.accessToken] });
      open.push(c);
      const online = await c.next('online');
      assert.equal(c.socket.protocol, LIVE_TOKEN_PROTOCOL);
      assert.ok(users(online).includes(bob.userId));
      await c.close();
      const res = await t.app.inject({ method: 'GET', url: '/live' });
      assert.equal(res.statusCode, 426);
      assert.equal(res.json().error.code, 'bad_request');
    });
  });

  describe('who is online', () => {
    it('lists everyone online on connect; user_online / user_offline once per user however many tabs', async () => {
      const carol = await signedInMember(t.app, 'user');
      const a = await join(admin.accessToken, { label: 'admin' });
      assert.deepEqual(users(a.frames[0]), [admin.userId]);
      assert.deepEqual(a.frames[0].type === 'online' && a.frames[0].data.users, [{ user_id: admin.userId, display_name: ADMIN.nickname }]);

      const c1 = await join(carol.accessToken, { label: 'carol tab 1' });
      assert.deepEqual(users(c1.frames[0]), [admin.userId, carol.userId].sort());
      const online = await a.next('user_online');
      assert.deepEqual(online.data, { user_id: carol.userId, display_name: carol.username });
      assert.equal(c1.frames.some((f) => f.type === 'user_online'), false, 'not told of itself');

      // A second tab: no second user_online; closing it: no user_offline. A navigation event marks "all before has arrived".
      const mark = a.frames.length;
      const c2 = await join(carol.accessToken, { label: 'carol tab 2' });
      assert.deepEqual(users(c2.frames[0]), [admin.userId, carol.userId].sort());
      await c2.close();
      await api.post('/api/v1/groups', { name: `Marker ${Date.now()}` });
      await a.next('group_created');
      assert.deepEqual(a.since(mark).map((f) => f.type), ['group_created']);
      assert.deepEqual(t.app.workspace.localUsers().sort(), [admin.userId, carol.userId].sort());

      await c1.close();
      const offline = await a.next('user_offline');
      assert.deepEqual(offline.data, { user_id: carol.userId });
      assert.deepEqual(t.app.workspace.localUsers(), [admin.userId]);
      await a.close();
    });

    it('drops a socket that stops answering pings at the next heartbeat: its user goes offline', async () => {
      const dave = await signedInMember(t.app, 'user');
      const a = await join(admin.accessToken, { label: 'alive' });
      const dead = await join(dave.accessToken, { label: 'dead', autoPong: false });
      await a.next('user_online', (f) => f.data.user_id === dave.userId);
      const pinged = new Promise((resolve) => a.socket.once('ping', resolve));
      t.app.workspace.heartbeat();
      await pinged;
      // The pong travels before the next frame the server sends on that connection: a navigation event.
      await api.post('/api/v1/groups', { name: `Heartbeat marker ${Date.now()}` });
      await a.next('group_created');
      t.app.workspace.heartbeat();
      const offline = await a.next('user_offline');
      assert.equal(offline.data.user_id, dave.userId);
      assert.notEqual((await dead.closed).code, 1000);
      assert.deepEqual(t.app.workspace.localUsers(), [admin.userId]);
      await a.close();
    });
  });

  describe('navigation changes', () => {
    it('tells every socket when sheets and groups are created, renamed, moved, favourited and deleted, by REST or import', async () => {
      const watcher = await join(bob.accessToken, { label: 'bob watches' });
      const author = await join(admin.accessToken, { label: "the author's own tab" });
      const nav = (c: WorkspaceClient) => c.frames.filter((f) => f.type !== 'online' && f.type !== 'user_online' && f.type !== 'user_offline');

      const group = (await api.post('/api/v1/groups', { name: 'Finance' })).json() as { id: string };
      const created = await api.post('/api/v1/sheets', { name: 'Budget', group_id: group.id });
      const sheet = SheetSchema.parse(created.json());
      await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'not navigation' }] });
      await api.put(`/api/v1/sheets/${sheet.id}`, { name: 'Budget 2027' });
      await api.post('/api/v1/items/move', { item: { type: 'sheet', id: sheet.id }, target: { group_id: null } });
      await api.post(`/api/v1/sheets/${sheet.id}/favorite`);
      const copy = (await api.post(`/api/v1/sheets/${sheet.id}/duplicate`)).json() as { id: string; name: string };
      await api.put(`/api/v1/groups/${group.id}`, { name: 'Finance 2027' });
      const imported = (await api.upload('/api/v1/import', { filename: 'Costs.csv', content: 'Item,Cost\nPen,2\n', type: 'text/csv' })).json() as {
        sheets: { id: string; name: string }[];
      };
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['a'], [1]]), 'One');
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['b'], [2]]), 'Two');
      const book = (await api.upload('/api/v1/import', { filename: 'Book.xlsx', content: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer })).json() as {
        group_id: string;
        sheets: { id: string; name: string }[];
      };
      await api.delete(`/api/v1/sheets/${copy.id}`);
      await api.delete(`/api/v1/groups/${group.id}`);

      const expected = [
        { type: 'group_created', data: { id: group.id, user_id: admin.userId, name: 'Finance', parent_id: null } },
        { type: 'sheet_created', data: { id: sheet.id, user_id: admin.userId, name: 'Budget', parent_id: group.id } },
        { type: 'sheet_updated', data: { id: sheet.id, user_id: admin.userId, name: 'Budget 2027', parent_id: group.id } },
        { type: 'sheet_updated', data: { id: sheet.id, user_id: admin.userId, name: 'Budget 2027', parent_id: null } },
        { type: 'sheet_updated', data: { id: sheet.id, user_id: admin.userId, name: 'Budget 2027', parent_id: null } },
        { type: 'sheet_created', data: { id: copy.id, user_id: admin.userId, name: copy.name, parent_id: null } },
        { type: 'group_updated', data: { id: group.id, user_id: admin.userId, name: 'Finance 2027', parent_id: null } },
        { type: 'sheet_created', data: { id: imported.sheets[0].id, user_id: admin.userId, name: imported.sheets[0].name, parent_id: null } },
        { type: 'group_created', data: { id: book.group_id, user_id: admin.userId, name: 'Book', parent_id: null } },
        ...book.sheets.map((s) => ({ type: 'sheet_created', data: { id: s.id, user_id: admin.userId, name: s.name, parent_id: book.group_id } })),
        { type: 'sheet_deleted', data: { id: copy.id, user_id: admin.userId } },
        { type: 'group_deleted', data: { id: group.id, user_id: admin.userId } },
      ];
      for (const c of [watcher, author]) {
        await c.waitFor((frames) => (frames.some((f) => f.type === 'group_deleted' && f.data.id === group.id) ? true : undefined), 'the group_deleted');
        assert.deepEqual(nav(c), expected, c.label);
      }
    });

    it('closes the sheet sockets of the sheets deleted with their group (4410)', async () => {
      const outer = (await api.post('/api/v1/groups', { name: 'Outer' })).json() as { id: string };
      const inner = (await api.post('/api/v1/groups', { name: 'Inner', parent_id: outer.id })).json() as { id: string };
      const deep = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Deep', group_id: inner.id })).json());
      const elsewhere = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Elsewhere' })).json());
      const onDeep = await LiveClient.join(base, deep.id, bob.accessToken, { label: 'on the deep sheet' });
      const onOther = await LiveClient.join(base, elsewhere.id, bob.accessToken, { label: 'on another sheet' });
      open.push(onOther);
      assert.equal((await api.delete(`/api/v1/groups/${outer.id}`)).statusCode, 200);
      const closed = await onDeep.closed;
      assert.deepEqual(closed, { code: 4410, reason: 'Sheet deleted' });
      assert.equal((await api.get(`/api/v1/sheets/${deep.id}`)).statusCode, 404);
      // The other sheet's socket still works.
      onOther.send({ type: 'reload_request', sheet_id: elsewhere.id });
      assert.equal((await onOther.next('sync')).data.version, elsewhere.version);
    });
  });
});

const skipReason = process.env.TEST_PG_URL ? undefined : 'PGlite serves one process only: two api processes need TEST_PG_URL (PostgreSQL)';

/** The workspace socket across two api processes on one PostgreSQL and Redis (REDIS_URL). */
describe('workspace socket /live across two api processes', { skip: skipReason }, () => {
  const HEARTBEAT_MS = 400;
  let redis: TestRedis;
  let db: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let one: ApiProcess;
  let two: ApiProcess;
  let admin: string;
  let users: Map<string, { token: string; id: string }>;
  const open: WorkspaceClient[] = [];

  before(async () => {
    redis = await testRedis();
    if ('skip' in redis) return;
    db = await createDatabase(process.env.TEST_PG_URL!);
    // One DATA_DIR: both processes sign and verify with the same key pair.
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-live-workspace-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_URL: redis.url, LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS) };
    one = await startApiProcess(env);
    two = await startApiProcess(env);
    ({ admin, tokens: users } = await usersOn(one.http, ['bob', 'carol']));
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await Promise.all([one?.kill('SIGTERM'), two?.kill('SIGTERM')]);
    await db?.drop();
    if (redis && 'url' in redis) redis.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('counts a user once over both processes, carries navigation changes across, and takes a killed process\'s users offline', async (t) => {
    if ('skip' in redis) return t.skip(redis.skip);
    const bob = users.get('bob')!;
    const carol = users.get('carol')!;
    const watcher = await WorkspaceClient.join(one.ws, admin, { label: 'admin on process one' });
    open.push(watcher);
    const bobOne = await WorkspaceClient.join(one.ws, bob.token, { label: 'bob on one' });
    open.push(bobOne);
    await watcher.next('user_online', (f) => f.data.user_id === bob.id);
    // Bob's second tab is on the other process: no second user_online; he is listed once.
    const bobTwo = await WorkspaceClient.join(two.ws, bob.token, { label: 'bob on two' });
    open.push(bobTwo);
    const listed = bobTwo.frames[0].type === 'online' ? bobTwo.frames[0].data.users.map((u) => u.user_id) : [];
    assert.equal(listed.filter((id) => id === bob.id).length, 1);
    assert.ok(listed.includes(bob.id) && listed.length === 2, JSON.stringify(listed));

    // A sheet made through process two reaches the watcher on process one.
    const made = await httpApi(two.http, carol.token).request('POST', '/api/v1/sheets', { name: 'Across processes' });
    assert.equal(made.status, 201, made.text);
    const created = await watcher.next('sheet_created');
    assert.deepEqual(created.data, { id: SheetSchema.parse(made.json()).id, user_id: carol.id, name: 'Across processes', parent_id: null });
    assert.equal(watcher.frames.filter((f) => f.type === 'user_online' && f.data.user_id === bob.id).length, 1);

    // Closing bob's tab on one: he is still online (on two).
    await bobOne.close();
    const carolTwo = await WorkspaceClient.join(two.ws, carol.token, { label: 'carol on two' });
    open.push(carolTwo);
    await watcher.next('user_online', (f) => f.data.user_id === carol.id);
    assert.equal(watcher.frames.some((f) => f.type === 'user_offline'), false);

    // Process two dies (no shutdown code): bob and carol go offline at process one's next renewals.
    await two.kill('SIGKILL');
    const gone = new Set<string>();
    await watcher.waitFor((frames) => {
      for (const f of frames) if (f.type === 'user_offline') gone.add(f.data.user_id);
      return gone.has(bob.id) && gone.has(carol.id) ? true : undefined;
    }, 'user_offline for the users of the killed process');
  });
});
