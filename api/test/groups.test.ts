import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GROUP_CYCLE_MESSAGE, GroupListSchema, GroupSchema, GroupTreeSchema } from '@tessera/contracts';
import { signupAdmin } from './support/auth-helpers.js';
import { signedInMember } from './support/members.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('groups and items', () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  const group = async (body: object = {}) => {
    const res = await api.post('/api/v1/groups', body);
    assert.equal(res.statusCode, 201, res.body);
    return GroupSchema.parse(res.json());
  };
  const sheet = async (body: object) => (await api.post('/api/v1/sheets', body)).json();

  it("creates with default 'New Group', unique among siblings with ' (1)', ' (2)'", async () => {
    assert.equal((await group()).name, 'New Group');
    assert.equal((await group()).name, 'New Group (1)');
    const parent = await group({ name: 'Parent', description: 'p' });
    assert.equal(parent.description, 'p');
    assert.equal(parent.parent_id, null);
    // The same name under another parent is free.
    const child = await group({ name: 'New Group', parent_id: parent.id });
    assert.equal(child.name, 'New Group');
    assert.equal(child.parent_id, parent.id);
    assert.equal((await group({ name: 'New Group', parent_id: parent.id })).name, 'New Group (1)');
    assert.equal((await group({ name: 'New Group' })).name, 'New Group (2)');
  });

  it('validates group names and parents', async () => {
    let res = await api.post('/api/v1/groups', { name: '  ' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.message, 'Group name cannot be empty');
    res = await api.post('/api/v1/groups', { name: 'x'.repeat(101) });
    assert.equal(res.json().error.message, 'Group name cannot exceed 100 characters');
    res = await api.post('/api/v1/groups', { name: 'ok', parent_id: MISSING });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.message, 'Group not found');
  });

  it('gets, lists by parent_id with limit/offset, and updates', async () => {
    const parent = await group({ name: 'Listed' });
    const a = await group({ name: 'a', parent_id: parent.id });
    await group({ name: 'b', parent_id: parent.id });
    assert.deepEqual((await api.get(`/api/v1/groups/${a.id}`)).json(), a);
    const listed = GroupListSchema.parse((await api.get(`/api/v1/groups?parent_id=${parent.id}`)).json());
    assert.deepEqual(listed.groups.map((g) => g.name), ['a', 'b']);
    assert.equal(listed.count, 2);
    assert.equal((await api.get(`/api/v1/groups?parent_id=${parent.id}&limit=1&offset=1`)).json().groups[0].name, 'b');
    const roots = GroupListSchema.parse((await api.get('/api/v1/groups?parent_id=root')).json());
    assert.ok(roots.groups.every((g) => g.parent_id === null));
    assert.ok(GroupListSchema.parse((await api.get('/api/v1/groups')).json()).count > roots.count);
    const updated = await api.put(`/api/v1/groups/${a.id}`, { name: 'a2', description: 'new' });
    assert.equal(updated.json().name, 'a2');
    assert.equal(updated.json().description, 'new');
    assert.equal((await api.get(`/api/v1/groups/${MISSING}`)).json().error.message, 'Group not found');
    assert.equal((await api.put(`/api/v1/groups/${MISSING}`, { name: 'x' })).statusCode, 404);
  });

  it('refuses to move a group into itself or a descendant (400), by PUT and by items/move', async () => {
    const top = await group({ name: 'Top' });
    const mid = await group({ name: 'Mid', parent_id: top.id });
    const leaf = await group({ name: 'Leaf', parent_id: mid.id });
    for (const target of [top.id, mid.id, leaf.id]) {
      const res = await api.post('/api/v1/items/move', { item: { type: 'group', id: top.id }, target: { group_id: target } });
      assert.equal(res.statusCode, 400, target);
      assert.equal(res.json().error.message, GROUP_CYCLE_MESSAGE);
    }
    const put = await api.put(`/api/v1/groups/${mid.id}`, { parent_id: leaf.id });
    assert.equal(put.statusCode, 400);
    assert.equal(put.json().error.message, GROUP_CYCLE_MESSAGE);
    assert.equal((await api.get(`/api/v1/groups/${top.id}`)).json().parent_id, null);
    // A legal move: the leaf to root, then top under the leaf.
    let res = await api.post('/api/v1/items/move', { item: { type: 'group', id: leaf.id }, target: { group_id: null } });
    assert.deepEqual(res.json(), { type: 'group', id: leaf.id, name: 'Leaf', parent_id: null });
    res = await api.post('/api/v1/items/move', { item: { type: 'group', id: top.id }, target: { group_id: leaf.id } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().parent_id, leaf.id);
  });

  it('moves and renames sheets and groups through items', async () => {
    const folder = await group({ name: 'Target' });
    const s = await sheet({ name: 'Mover' });
    let res = await api.post('/api/v1/items/move', { item: { type: 'sheet', id: s.id }, target: { group_id: folder.id } });
    assert.deepEqual(res.json(), { type: 'sheet', id: s.id, name: 'Mover', parent_id: folder.id });
    const moved = (await api.get(`/api/v1/sheets/${s.id}`)).json();
    assert.equal(moved.group_id, folder.id);
    assert.equal(moved.metadata.groupId, folder.id);
    assert.equal(moved.version, 2);
    res = await api.post('/api/v1/items/move', { item: { type: 'sheet', id: s.id }, target: { group_id: null, position: 7 } });
    assert.equal(res.json().parent_id, null);
    assert.equal((await api.get(`/api/v1/sheets/${s.id}`)).json().position, 7);
    res = await api.post('/api/v1/items/move', { item: { type: 'sheet', id: s.id }, target: { group_id: MISSING } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.message, 'Group not found');
    res = await api.post('/api/v1/items/move', { item: { type: 'sheet', id: MISSING }, target: { group_id: null } });
    assert.equal(res.json().error.message, 'Sheet not found');
    res = await api.post('/api/v1/items/move', { item: { type: 'file', id: s.id }, target: { group_id: null } });
    assert.equal(res.statusCode, 400);

    await group({ name: 'Renamed' });
    res = await api.put(`/api/v1/items/group/${folder.id}/rename`, { name: '  Renamed  ' });
    assert.deepEqual(res.json(), { type: 'group', id: folder.id, name: 'Renamed (1)', parent_id: null });
    res = await api.put(`/api/v1/items/group/${folder.id}/rename`, { name: '' });
    assert.equal(res.json().error.message, 'Group name cannot be empty');
    res = await api.put(`/api/v1/items/sheet/${s.id}/rename`, { name: 'Moved and renamed' });
    assert.equal(res.json().name, 'Moved and renamed');
    assert.equal((await api.put(`/api/v1/items/other/${s.id}/rename`, { name: 'x' })).statusCode, 400);
    assert.equal((await api.put(`/api/v1/items/sheet/${MISSING}/rename`, { name: 'x' })).statusCode, 404);
  });

  it('builds the tree: nested groups with their sheets, sheets without a group at root', async () => {
    const fresh = await createTestApp();
    try {
      const c = apiClient(fresh.app, (await signupAdmin(fresh.app)).accessToken);
      const outer = (await c.post('/api/v1/groups', { name: 'Outer' })).json();
      const inner = (await c.post('/api/v1/groups', { name: 'Inner', parent_id: outer.id })).json();
      await c.post('/api/v1/sheets', { name: 'At root' });
      await c.post('/api/v1/sheets', { name: 'In outer', group_id: outer.id });
      await c.post('/api/v1/sheets', { name: 'In inner', group_id: inner.id });
      const tree = GroupTreeSchema.parse((await c.get('/api/v1/groups/tree')).json());
      assert.deepEqual(tree.sheets.map((s) => s.name), ['At root']);
      assert.equal(tree.groups.length, 1);
      assert.equal(tree.groups[0].group.name, 'Outer');
      assert.deepEqual(tree.groups[0].sheets.map((s) => s.name), ['In outer']);
      assert.equal(tree.groups[0].children[0].group.name, 'Inner');
      assert.deepEqual(tree.groups[0].children[0].sheets.map((s) => s.name), ['In inner']);
      assert.ok(!('data' in tree.sheets[0]));
    } finally {
      await fresh.close();
    }
  });

  it('the tree is current after every kind of change, request after request (the api keeps its rows between requests)', async () => {
    const fresh = await createTestApp();
    try {
      const admin = await signupAdmin(fresh.app);
      const c = apiClient(fresh.app, admin.accessToken);
      const tree = async (client = c) => GroupTreeSchema.parse((await client.get('/api/v1/groups/tree')).json());
      const flat = (t: Awaited<ReturnType<typeof tree>>) => {
        const out: { name: string; where: string | null; fav: boolean }[] = t.sheets.map((x) => ({ name: x.name, where: null, fav: x.is_favorite }));
        const walk = (n: (typeof t.groups)[number]) => {
          for (const x of n.sheets) out.push({ name: x.name, where: n.group.name, fav: x.is_favorite });
          n.children.forEach(walk);
        };
        t.groups.forEach(walk);
        return out.sort((a, b) => a.name.localeCompare(b.name));
      };
      const a = (await c.post('/api/v1/groups', { name: 'A' })).json();
      const b = (await c.post('/api/v1/groups', { name: 'B' })).json();
      const one = (await c.post('/api/v1/sheets', { name: 'One', group_id: a.id, data: [['x']] })).json();
      const two = (await c.post('/api/v1/sheets', { name: 'Two' })).json();
      assert.deepEqual(flat(await tree()), [
        { name: 'One', where: 'A', fav: false },
        { name: 'Two', where: null, fav: false },
      ]);

      assert.equal((await c.put(`/api/v1/items/sheet/${one.id}/rename`, { name: 'Uno' })).statusCode, 200);
      assert.equal((await c.post('/api/v1/items/move', { item: { type: 'sheet', id: two.id }, target: { group_id: b.id } })).statusCode, 200);
      assert.equal((await c.post(`/api/v1/sheets/${one.id}/favorite`)).statusCode, 200);
      assert.equal((await c.patch(`/api/v1/sheets/${one.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'y' }] })).statusCode, 200);
      assert.equal((await c.put(`/api/v1/items/group/${a.id}/rename`, { name: 'Alpha' })).statusCode, 200);
      assert.deepEqual(flat(await tree()), [
        { name: 'Two', where: 'B', fav: false },
        { name: 'Uno', where: 'Alpha', fav: true },
      ]);
      // Favourites are each member's own.
      const member = await signedInMember(fresh.app, 'user');
      assert.deepEqual(flat(await tree(apiClient(fresh.app, member.accessToken))).map((x) => x.fav), [false, false]);

      assert.equal((await c.delete(`/api/v1/sheets/${two.id}`)).statusCode, 200);
      assert.deepEqual(flat(await tree()).map((x) => x.name), ['Uno']);
      const entry = (await c.get('/api/v1/trash')).json().items.find((i: { item_id: string }) => i.item_id === two.id);
      assert.equal((await c.post(`/api/v1/trash/${entry.id}/restore`)).statusCode, 200);
      assert.deepEqual(flat(await tree()).map((x) => x.name), ['Two', 'Uno']);

      // A change another api process made (straight in the database) is seen too: rows are checked against the database's row versions, not told.
      await fresh.app.db.updateTable('sheets').set({ name: 'Written elsewhere' }).where('id', '=', two.id).execute();
      await fresh.app.db.updateTable('groups').set({ name: 'Beta' }).where('id', '=', b.id).execute();
      assert.deepEqual(flat(await tree()), [
        { name: 'Uno', where: 'Alpha', fav: true },
        { name: 'Written elsewhere', where: 'Beta', fav: false },
      ]);
      // Each summary is the one the sheet's own route gives (the cell edit's version included).
      const summary = (await tree()).groups.find((n) => n.group.name === 'Alpha')!.sheets[0];
      const own = (await c.get(`/api/v1/sheets/${one.id}`)).json();
      assert.deepEqual(own.data, [['y']]);
      assert.equal(summary.version, own.version);
      assert.equal(summary.updated_at, own.updated_at);
      assert.deepEqual(summary.metadata, own.metadata);
    } finally {
      await fresh.close();
    }
  });

  it('deleting a group takes its subgroups and all their sheets to the trash; deleted forever, their cells go', async () => {
    const top = await group({ name: 'Delete me' });
    const sub = await group({ name: 'Sub', parent_id: top.id });
    const s1 = await sheet({ name: 'Inside top', group_id: top.id });
    const s2 = await sheet({ name: 'Inside sub', group_id: sub.id });
    const outside = await sheet({ name: 'Outside' });
    const res = await api.delete(`/api/v1/groups/${top.id}`);
    assert.deepEqual(res.json(), { status: 'deleted', id: top.id });
    for (const id of [top.id, sub.id]) assert.equal((await api.get(`/api/v1/groups/${id}`)).statusCode, 404);
    for (const id of [s1.id, s2.id]) assert.equal((await api.get(`/api/v1/sheets/${id}`)).statusCode, 404);
    const chunks = () => t.app.db.selectFrom('sheet_chunks').select('sheet_id').where('sheet_id', 'in', [s1.id, s2.id]).execute();
    assert.ok((await chunks()).length > 0, 'kept in the trash');
    const entry = (await api.get('/api/v1/trash')).json().items.find((i: { item_id: string }) => i.item_id === top.id);
    assert.equal((await api.delete(`/api/v1/trash/${entry.id}`)).statusCode, 200);
    assert.equal((await chunks()).length, 0);
    assert.equal(await t.app.db.selectFrom('groups').select('id').where('id', '=', sub.id).executeTakeFirst(), undefined);
    assert.equal((await api.get(`/api/v1/sheets/${outside.id}`)).statusCode, 200);
    assert.equal((await api.delete(`/api/v1/groups/${top.id}`)).statusCode, 404);
  });
});
