// Issue 18: what each member sees and may do — the tree and lists, creating and moving, the
// workspace default, the trash, and the activity log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS, type GroupTree, type GroupTreeNode, TRASH_TEXTS } from '@tessera/contracts';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Session & { username: string };

/** Every group name and sheet name of a tree, with its path. */
function names(tree: GroupTree): string[] {
  const out = tree.sheets.map((s) => s.name);
  const walk = (node: GroupTreeNode, path: string) => {
    out.push(`${path}${node.group.name}/`);
    for (const s of node.sheets) out.push(`${path}${node.group.name}/${s.name}`);
    for (const c of node.children) walk(c, `${path}${node.group.name}/`);
  };
  for (const g of tree.groups) walk(g, '');
  return out.sort();
}

describe('access: what each member sees and may do', () => {
  let t: TestApp;
  let admin: Session;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let as: (m: Session) => ApiClient;
  let finance: string;
  let budget: string;
  let open: string;

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    [alice, bob, carol] = await Promise.all([signedInMember(t.app, 'user'), signedInMember(t.app, 'user'), signedInMember(t.app, 'user')]);
    as = (m) => apiClient(t.app, m.accessToken);
    // Alice keeps a Finance group only she and Bob (viewer) see, with a sheet in it; an open sheet at root.
    finance = (await as(alice).post('/api/v1/groups', { name: 'Finance' })).json().id;
    budget = (await as(alice).post('/api/v1/sheets', { name: 'Budget', group_id: finance, data: [['Q1', 100]] })).json().id;
    open = (await as(alice).post('/api/v1/sheets', { name: 'Lunch', data: [['Mon']] })).json().id;
    const shared = await as(alice).put(`/api/v1/groups/${finance}/access`, {
      entries: [
        { user_id: alice.userId, level: 'owner' },
        { user_id: bob.userId, level: 'viewer' },
        { user_id: null, level: 'none' },
      ],
    });
    assert.equal(shared.statusCode, 200, shared.body);
  });
  after(() => t.close());

  it('the tree, the lists and search show each member only what they may see, with their level', async () => {
    assert.deepEqual(names((await as(carol).get('/api/v1/groups/tree')).json()), ['Lunch']);
    const bobTree: GroupTree = (await as(bob).get('/api/v1/groups/tree')).json();
    assert.deepEqual(names(bobTree), ['Finance/', 'Finance/Budget', 'Lunch']);
    assert.equal(bobTree.groups[0].group.access, 'viewer');
    assert.equal(bobTree.groups[0].sheets[0].access, 'viewer');
    assert.equal(bobTree.sheets[0].access, 'editor', 'the workspace default at root');
    assert.equal(bobTree.root_access, 'editor', 'the navigator offers Add and Import at root by this');
    const adminTree: GroupTree = (await as(admin).get('/api/v1/groups/tree')).json();
    assert.deepEqual(names(adminTree), ['Finance/', 'Finance/Budget', 'Lunch']);
    assert.equal(adminTree.root_access, 'owner');

    const search = (m: Session) => as(m).get('/api/v1/sheets?search=Bud').then((r) => r.json());
    assert.deepEqual(await search(carol), { sheets: [], count: 0 });
    assert.equal((await search(bob)).count, 1);
    const groups = (await as(carol).get('/api/v1/groups')).json();
    assert.deepEqual(groups.groups.map((g: { name: string }) => g.name), []);
    // Favorites and exports of what one cannot see do not exist either.
    assert.equal((await as(carol).post(`/api/v1/sheets/${budget}/favorite`)).statusCode, 404);
    assert.equal((await as(carol).get(`/api/v1/sheets/${budget}/export?format=csv`)).statusCode, 404);
  });

  it('a viewer reads, exports and copies but never writes; the copy is theirs, at root', async () => {
    const read = await as(bob).get(`/api/v1/sheets/${budget}`);
    assert.equal(read.json().access, 'viewer');
    assert.deepEqual(read.json().data, [['Q1', 100]]);
    assert.equal((await as(bob).get(`/api/v1/sheets/${budget}/export?format=csv`)).statusCode, 200);
    const patch = await as(bob).patch(`/api/v1/sheets/${budget}/cells`, { base_version: 1, changes: [{ row: 0, col: 1, value: 999 }] });
    assert.equal(patch.statusCode, 403);
    assert.equal(patch.json().error.message, ACCESS_TEXTS.viewOnly);
    const rename = await as(bob).put(`/api/v1/items/sheet/${budget}/rename`, { name: 'Mine' });
    assert.equal(rename.statusCode, 403);
    const copy = await as(bob).post(`/api/v1/sheets/${budget}/duplicate`);
    assert.equal(copy.statusCode, 201, copy.body);
    assert.equal(copy.json().group_id, null, 'Bob may not add to Finance: the copy goes to root');
    assert.equal(copy.json().access, 'owner');
    assert.deepEqual((await as(alice).get(`/api/v1/sheets/${budget}`)).json().data, [['Q1', 100]], 'unchanged');
  });

  it('editors reject proposals; only owners discard committed versions', async () => {
    const api = as(alice);
    const sheet = (await api.post('/api/v1/sheets', { name: 'Versions', data: [['a']] })).json().id;
    await api.patch(`/api/v1/sheets/${sheet}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'b' }] });
    // Carol edits at root by the workspace default.
    const proposal = await as(carol).post(`/api/v1/sheets/${sheet}/versions`, { data: [['proposed']], base_version: 2 });
    assert.equal(proposal.statusCode, 201, proposal.body);
    const rejected = await as(carol).post(`/api/v1/sheets/${sheet}/versions/${proposal.json().version_id}/discard`);
    assert.equal(rejected.statusCode, 200, rejected.body);
    const refused = await as(carol).post(`/api/v1/sheets/${sheet}/versions/1/discard`);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error.message, ACCESS_TEXTS.ownersOnly);
    assert.equal((await api.post(`/api/v1/sheets/${sheet}/versions/1/discard`)).statusCode, 200);
  });

  it('creating and moving need editing where the item lands; a group one cannot see is not found', async () => {
    const intoFinance = await as(bob).post('/api/v1/sheets', { name: 'Sneaky', group_id: finance });
    assert.equal(intoFinance.statusCode, 403);
    assert.equal(intoFinance.json().error.message, ACCESS_TEXTS.cannotEditTarget);
    assert.equal((await as(carol).post('/api/v1/groups', { name: 'Inside', parent_id: finance })).statusCode, 404);
    const move = await as(carol).post('/api/v1/items/move', { item: { type: 'sheet', id: open }, target: { group_id: finance } });
    assert.equal(move.statusCode, 404);
    const out = await as(bob).post('/api/v1/items/move', { item: { type: 'sheet', id: budget }, target: { group_id: null } });
    assert.equal(out.statusCode, 403, 'a viewer cannot move the sheet out');
    assert.equal((await as(alice).get(`/api/v1/sheets/${budget}`)).json().group_id, finance);
  });

  it('a member granted by name keeps it under a group shared to everyone otherwise; an owner above keeps the subtree', async () => {
    const sub = (await as(alice).post('/api/v1/groups', { name: 'Payroll', parent_id: finance })).json().id;
    await as(alice).put(`/api/v1/groups/${sub}/access`, { entries: [{ user_id: null, level: 'viewer' }] });
    // Alice still owns it (owner above); Bob is viewer by name above; Carol gets the sub-group's Everyone row.
    assert.equal((await as(alice).get(`/api/v1/groups/${sub}`)).json().access, 'owner');
    assert.equal((await as(bob).get(`/api/v1/groups/${sub}`)).json().access, 'viewer');
    assert.equal((await as(carol).get(`/api/v1/groups/${sub}`)).json().access, 'viewer');
    const sharing = (await as(carol).get(`/api/v1/groups/${sub}/access`)).json();
    const rows = sharing.rows.map((r: { user_id: string | null; level: string; inherited_from: { name: string } | null }) => [r.user_id, r.level, r.inherited_from?.name ?? null]);
    // Nearest first, Everyone first on each level.
    assert.deepEqual(rows.slice(0, 2), [
      [null, 'viewer', null],
      [null, 'none', 'Finance'],
    ]);
    assert.deepEqual(
      new Set(rows.slice(2).map((r: unknown[]) => JSON.stringify(r))),
      new Set([JSON.stringify([alice.userId, 'owner', 'Finance']), JSON.stringify([bob.userId, 'viewer', 'Finance'])]),
    );
    assert.equal(sharing.rows.length, 4);
  });

  it('a sharing change refuses unknown members, an owner for everyone, and an owner who would lock themselves out; nothing changes', async () => {
    const base = `/api/v1/sheets/${open}/access`;
    const before = (await as(alice).get(base)).json().rows;
    const bad = [
      [{ entries: [{ user_id: '00000000-0000-4000-8000-000000000000', level: 'viewer' }, { user_id: alice.userId, level: 'owner' }] }, 'Unknown member in entries'],
      [{ entries: [{ user_id: null, level: 'owner' }, { user_id: alice.userId, level: 'owner' }] }, 'Everyone in the workspace cannot be owner'],
      [{ entries: [{ user_id: alice.userId, level: 'owner' }, { user_id: alice.userId, level: 'viewer' }] }, 'Each member may appear only once'],
      [{ entries: [{ user_id: null, level: 'viewer' }] }, ACCESS_TEXTS.keepOwnOwnership],
      [{ entries: [{ user_id: alice.userId, level: 'admin' }] }, undefined],
      [{ entries: 'all' }, undefined],
    ] as const;
    for (const [body, text] of bad) {
      const res = await as(alice).put(base, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
      if (text) assert.ok(res.body.includes(text), res.body);
    }
    assert.deepEqual((await as(alice).get(base)).json().rows, before);
  });

  it('with WORKSPACE_DEFAULT_ACCESS=viewer, members read root items but add nothing there; admins still do', async () => {
    const strict = await createTestApp({ workspaceDefaultAccess: 'viewer' });
    try {
      const boss = await signupAdmin(strict.app);
      const member = await signedInMember(strict.app, 'user');
      const made = await apiClient(strict.app, boss.accessToken).post('/api/v1/sheets', { name: 'Rules' });
      assert.equal(made.statusCode, 201);
      const api = apiClient(strict.app, member.accessToken);
      assert.equal((await api.get(`/api/v1/sheets/${made.json().id}`)).json().access, 'viewer');
      const refused = await api.post('/api/v1/sheets', { name: 'Mine' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.message, ACCESS_TEXTS.cannotEditTarget);
      const imported = await api.upload('/api/v1/import', { filename: 'a.csv', content: 'x,y\n1,2\n' });
      assert.equal(imported.statusCode, 403);
      // The tree says so, for the navigator to offer neither Import nor a drop to root.
      assert.equal((await api.get('/api/v1/groups/tree')).json().root_access, 'viewer');
      assert.equal((await apiClient(strict.app, boss.accessToken).get('/api/v1/groups/tree')).json().root_access, 'owner');
    } finally {
      await strict.close();
    }
  });

  describe('the trash', () => {
    it('delete moves a sheet to the trash with its history; the owner restores it to its place; others never saw it', async () => {
      const sheet = (await as(alice).post('/api/v1/sheets', { name: 'Plan', group_id: finance, data: [['v1']] })).json();
      await as(alice).patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'v2' }] });
      assert.equal((await as(alice).delete(`/api/v1/sheets/${sheet.id}`)).statusCode, 200);
      assert.equal((await as(alice).get(`/api/v1/sheets/${sheet.id}`)).statusCode, 404);
      assert.ok(!names((await as(alice).get('/api/v1/groups/tree')).json()).includes('Finance/Plan'));
      // The name is free while it waits.
      const other = (await as(alice).post('/api/v1/sheets', { name: 'Plan' })).json();
      assert.equal(other.name, 'Plan');

      const trash = (await as(alice).get('/api/v1/trash')).json().items;
      const entry = trash.find((i: { item_id: string }) => i.item_id === sheet.id);
      assert.equal(entry.name, 'Plan');
      assert.equal(entry.deleted_by.username, alice.username);
      assert.equal(entry.access, 'owner');
      assert.equal(new Date(entry.purge_at).getTime() - new Date(entry.deleted_at).getTime(), 30 * 24 * 3600 * 1000);
      assert.equal((await as(bob).get('/api/v1/trash')).json().items.length, 0, 'a viewer may not restore');
      assert.equal((await as(carol).post(`/api/v1/trash/${entry.id}/restore`)).statusCode, 404);

      const restored = await as(alice).post(`/api/v1/trash/${entry.id}/restore`);
      assert.equal(restored.statusCode, 200, restored.body);
      assert.deepEqual(restored.json(), { type: 'sheet', id: sheet.id, name: 'Plan 1', parent_id: finance });
      const back = (await as(alice).get(`/api/v1/sheets/${sheet.id}`)).json();
      assert.deepEqual(back.data, [['v2']]);
      const cell = (await as(alice).get(`/api/v1/sheets/${sheet.id}/cells/0/0/history`)).json();
      assert.ok(JSON.stringify(cell).includes('"v1"'), `the history came back too: ${JSON.stringify(cell)}`);
      assert.equal((await as(alice).post(`/api/v1/trash/${entry.id}/restore`)).statusCode, 404, 'restored once');
    });

    it('a group goes with everything under it and comes back whole; to root when its group is gone', async () => {
      const g = (await as(alice).post('/api/v1/groups', { name: 'Archive' })).json().id;
      const inner = (await as(alice).post('/api/v1/groups', { name: 'Old', parent_id: g })).json().id;
      const s1 = (await as(alice).post('/api/v1/sheets', { name: 'S1', group_id: inner })).json().id;
      const s2 = (await as(alice).post('/api/v1/sheets', { name: 'S2', group_id: g })).json().id;
      await as(alice).delete(`/api/v1/sheets/${s2}`);
      assert.equal((await as(alice).delete(`/api/v1/groups/${g}`)).statusCode, 200);
      for (const id of [s1]) assert.equal((await as(alice).get(`/api/v1/sheets/${id}`)).statusCode, 404);
      assert.equal((await as(alice).get(`/api/v1/groups/${inner}`)).statusCode, 404);
      const items = (await as(alice).get('/api/v1/trash')).json().items;
      const groupEntry = items.find((i: { item_id: string }) => i.item_id === g);
      const sheetEntry = items.find((i: { item_id: string }) => i.item_id === s2);
      assert.ok(sheetEntry, 'S2, deleted on its own before its group, is listed too');
      assert.equal(sheetEntry.parent_id, g);

      // Deleting the group forever keeps S2 (deleted on its own before): it can still come back, at root.
      // Bob edits what is at root by default: he may restore it, not delete it forever.
      const refused = await as(bob).delete(`/api/v1/trash/${groupEntry.id}`);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.message, 'Only owners can delete forever');
      assert.equal((await as(carol).get('/api/v1/trash')).json().items.some((i: { item_id: string }) => i.item_id === g), true);
      assert.equal((await as(alice).delete(`/api/v1/trash/${groupEntry.id}`)).statusCode, 200);
      assert.equal((await as(admin).get(`/api/v1/groups/${inner}`)).statusCode, 404);
      const left = (await as(alice).get('/api/v1/trash')).json().items;
      const s2Entry = left.find((i: { item_id: string }) => i.item_id === s2);
      const restored = (await as(alice).post(`/api/v1/trash/${s2Entry.id}/restore`)).json();
      assert.equal(restored.parent_id, null);
    });

    it('nested entries: the group comes back without the sheet deleted before it, which then comes back into it; restored first, that sheet goes to root', async () => {
      const g = (await as(alice).post('/api/v1/groups', { name: 'Nested' })).json().id;
      const s = (await as(alice).post('/api/v1/sheets', { name: 'Inner', group_id: g, data: [['v1']] })).json().id;
      await as(alice).patch(`/api/v1/sheets/${s}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'v2' }] });
      const kept = (await as(alice).post('/api/v1/sheets', { name: 'Kept', group_id: g })).json().id;
      assert.equal((await as(alice).delete(`/api/v1/sheets/${s}`)).statusCode, 200);
      assert.equal((await as(alice).delete(`/api/v1/groups/${g}`)).statusCode, 200);
      const entryOf = async (id: string) => (await as(alice).get('/api/v1/trash')).json().items.find((i: { item_id: string }) => i.item_id === id);
      const [groupEntry, sheetEntry] = [await entryOf(g), await entryOf(s)];
      assert.ok(groupEntry && sheetEntry, 'both listed');
      assert.equal(await entryOf(kept), undefined, 'what went with the group is inside its entry');
      // Bob edits root items by the workspace default: he may restore both too.
      assert.equal((await as(bob).get('/api/v1/trash')).json().items.some((i: { item_id: string }) => i.item_id === s), true);

      // The group first: it comes back with Kept, not with Inner (deleted on its own).
      assert.equal((await as(alice).post(`/api/v1/trash/${groupEntry.id}/restore`)).statusCode, 200);
      const tree = names((await as(alice).get('/api/v1/groups/tree')).json());
      assert.ok(tree.includes('Nested/Kept'));
      assert.ok(!tree.some((n) => n.endsWith('/Inner')));
      // Then the sheet: back into its group, with its history.
      const back = (await as(alice).post(`/api/v1/trash/${sheetEntry.id}/restore`)).json();
      assert.equal(back.parent_id, g);
      assert.deepEqual((await as(alice).get(`/api/v1/sheets/${s}`)).json().data, [['v2']]);
      assert.equal((await as(alice).get(`/api/v1/sheets/${s}/history`)).json().count, 2);

      // The other order: the sheet restored while its group is still in the trash goes to root.
      await as(alice).delete(`/api/v1/sheets/${s}`);
      await as(alice).delete(`/api/v1/groups/${g}`);
      const early = (await as(alice).post(`/api/v1/trash/${(await entryOf(s)).id}/restore`)).json();
      assert.equal(early.parent_id, null);
      assert.ok(names((await as(alice).get('/api/v1/groups/tree')).json()).includes('Inner'));
      assert.equal((await as(alice).post(`/api/v1/trash/${(await entryOf(g)).id}/restore`)).statusCode, 200);
      assert.ok(names((await as(alice).get('/api/v1/groups/tree')).json()).includes('Nested/Kept'));
    });

    it('a group restored comes back with its sub-groups and sheets', async () => {
      const g = (await as(alice).post('/api/v1/groups', { name: 'Projects' })).json().id;
      const s = (await as(alice).post('/api/v1/sheets', { name: 'Roadmap', group_id: g, data: [['x']] })).json().id;
      await as(alice).delete(`/api/v1/groups/${g}`);
      const entry = (await as(alice).get('/api/v1/trash')).json().items.find((i: { item_id: string }) => i.item_id === g);
      assert.equal((await as(alice).post(`/api/v1/trash/${entry.id}/restore`)).statusCode, 200);
      assert.deepEqual((await as(alice).get(`/api/v1/sheets/${s}`)).json().data, [['x']]);
      assert.ok(names((await as(alice).get('/api/v1/groups/tree')).json()).includes('Projects/Roadmap'));
    });

    it('bad trash ids get 400, unknown ones 404 with the text', async () => {
      assert.equal((await as(alice).post('/api/v1/trash/nope/restore')).statusCode, 400);
      const missing = await as(alice).delete('/api/v1/trash/00000000-0000-4000-8000-000000000000');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().error.message, TRASH_TEXTS.notFound);
    });

    it('what waited longer than the retention is purged by the api', async () => {
      const s = (await as(alice).post('/api/v1/sheets', { name: 'Stale' })).json().id;
      await as(alice).delete(`/api/v1/sheets/${s}`);
      const purged = await t.app.trash.purgeExpired(Date.now() + 31 * 24 * 3600 * 1000);
      assert.ok(purged >= 1);
      assert.equal(await t.app.db.selectFrom('sheets').select('id').where('id', '=', s).executeTakeFirst(), undefined);
      assert.equal((await as(alice).get('/api/v1/trash')).json().items.length, 0);
    });
  });

  describe('the activity log', () => {
    it('records deletes, restores, purges and sharing changes with who, what and from where; admins only', async () => {
      const page = await as(admin).get('/api/v1/activity?limit=200');
      assert.equal(page.statusCode, 200);
      const kinds = page.json().entries.map((e: { kind: string }) => e.kind);
      for (const kind of ['access_changed', 'sheet_deleted', 'group_deleted', 'item_restored', 'item_purged']) assert.ok(kinds.includes(kind), kind);
      const share = page.json().entries.find((e: { kind: string; item: { id: string } }) => e.kind === 'access_changed' && e.item.id === finance);
      assert.equal(share.actor.username, alice.username);
      assert.equal(share.item.name, 'Finance');
      assert.equal(share.address, '127.0.0.1');
      assert.deepEqual(share.detail.after.find((e: { user_id: string }) => e.user_id === bob.userId), { user_id: bob.userId, level: 'viewer' });

      const refused = await as(alice).get('/api/v1/activity');
      assert.equal(refused.statusCode, 403);
      assert.equal((await as(admin).get('/api/v1/activity?kind=burn')).statusCode, 400);
    });

    it('filters by member, item and kind, newest first, paged', async () => {
      const byAlice = (await as(admin).get(`/api/v1/activity?user_id=${alice.userId}&kind=sheet_deleted`)).json();
      assert.ok(byAlice.entries.length >= 2);
      assert.ok(byAlice.entries.every((e: { kind: string; actor: { id: string } }) => e.kind === 'sheet_deleted' && e.actor.id === alice.userId));
      const first = (await as(admin).get('/api/v1/activity?limit=2')).json();
      assert.equal(first.entries.length, 2);
      assert.ok(Number(first.entries[0].id) > Number(first.entries[1].id));
      const second = (await as(admin).get(`/api/v1/activity?limit=2&before=${first.next_before}`)).json();
      assert.ok(Number(second.entries[0].id) < Number(first.entries[1].id));
      const forItem = (await as(admin).get(`/api/v1/activity?item_id=${finance}`)).json();
      assert.ok(forItem.entries.every((e: { item: { id: string } }) => e.item.id === finance));
    });
  });
});
