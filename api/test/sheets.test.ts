import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MESSAGES, SheetListSchema, SheetSchema, SheetSummarySchema } from '@tessera/contracts';
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('sheets', () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  const create = async (body: object = {}) => {
    const res = await api.post('/api/v1/sheets', body);
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const chunkRows = async (id: string) =>
    (await t.app.db.selectFrom('sheet_chunks').select('chunk').where('sheet_id', '=', id).execute()).length;

  it('creates a 10×10 sheet by default and 20×10 in a group, with every §3 field', async () => {
    const plain = await create({ name: 'Plain' });
    // What the user sees: 10 rows of 10 empty cells (an empty row is sent as [], the width is metadata.columns).
    assert.equal(plain.data.length, 10);
    assert.equal(plain.metadata.rows, 10);
    assert.equal(plain.metadata.columns, 10);
    assert.ok(plain.data.every((row) => row.every((cell) => cell === '' || cell === null)));
    assert.equal(plain.version, 1);
    assert.deepEqual(plain.metadata.headers, ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
    assert.deepEqual(
      Object.keys(plain.metadata).sort(),
      ['category', 'columns', 'description', 'groupId', 'headers', 'position', 'rows', 'size', 'tags'].sort(),
    );
    const group = (await api.post('/api/v1/groups', { name: 'Folder' })).json();
    const inGroup = await create({ name: 'In group', group_id: group.id, description: 'd', tags: ['Analytics'] });
    assert.equal(inGroup.data.length, 20);
    assert.equal(inGroup.metadata.columns, 10);
    assert.equal(inGroup.group_id, group.id);
    assert.equal(inGroup.metadata.groupId, group.id);
    assert.equal(inGroup.metadata.description, 'd');
    assert.equal(inGroup.metadata.category, 'Analytics');
    const sized = await create({ name: 'Sized', metadata: { rows: 3, columns: 2, origin: 'test' } });
    assert.equal(sized.data.length, 3);
    assert.equal(sized.metadata.columns, 2);
    assert.equal(sized.metadata.origin, 'test');
  });

  it('an empty sheet sized by metadata costs what it holds: 1,000 × 10,000 and 100,000 × 10 are stored as empty rows', async () => {
    const storedBytes = async (id: string) =>
      (
        await t.app.db
          .selectFrom('sheet_chunks')
          .select((eb) => eb.fn.sum<string>(eb.fn('length', [eb.cast('rows', 'text')])).as('bytes'))
          .where('sheet_id', '=', id)
          .executeTakeFirstOrThrow()
      ).bytes;
    for (const [rows, columns] of [
      [1_000, 10_000],
      [100_000, 10],
    ]) {
      const created = await create({ name: `Empty ${rows}x${columns}`, metadata: { rows, columns } });
      assert.equal(created.data.length, rows);
      // Padded, these were 10,000,000 and 1,000,000 cells of '' (30 MB and 3 MB of JSON).
      assert.ok(Number(await storedBytes(created.id)) <= rows * 4, `stored ${await storedBytes(created.id)} bytes`);
      const res = await api.get(`/api/v1/sheets/${created.id}`);
      assert.ok(res.rawPayload.length < rows * 3 + columns * 8 + 2000, `GET of ${res.rawPayload.length} bytes`);
      const got = SheetSchema.parse(res.json());
      assert.equal(got.data.length, rows);
      assert.equal(got.metadata.rows, rows);
      assert.equal(got.metadata.columns, columns);
      assert.equal(got.metadata.headers.length, columns);
      assert.ok(got.data.every((row) => row.length === 0));
      // A cell typed in the last column of the last row lands there; the width stays the sheet's.
      const patched = await api.patch(`/api/v1/sheets/${created.id}/cells`, { base_version: got.version, changes: [{ row: rows - 1, col: columns - 1, value: 'end' }] });
      assert.equal(patched.statusCode, 200, patched.body);
      const after = SheetSchema.parse((await api.get(`/api/v1/sheets/${created.id}`)).json());
      assert.equal(after.data[rows - 1][columns - 1], 'end');
      assert.equal(after.data[rows - 1].length, columns);
      assert.equal(after.metadata.rows, rows);
      assert.equal(after.metadata.columns, columns);
    }
  });

  it('refuses a group that does not exist', async () => {
    const res = await api.post('/api/v1/sheets', { name: 'x', group_id: MISSING });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.message, 'Group not found');
  });

  it('validates names with the exact §5 messages and changes nothing', async () => {
    const before = (await api.get('/api/v1/sheets')).json().count;
    const cases: [unknown, string][] = [
      ['', MESSAGES.sheetNameEmpty],
      ['   ', MESSAGES.sheetNameEmpty],
      ['x'.repeat(101), MESSAGES.sheetNameTooLong],
      ...['<', '>', ':', '"', '/', '\\', '|', '?', '*', '\u0001', '\n'].map((ch): [string, string] => [`a${ch}b`, MESSAGES.sheetNameInvalid]),
    ];
    for (const [name, message] of cases) {
      const res = await api.post('/api/v1/sheets', { name });
      assert.equal(res.statusCode, 400, JSON.stringify(name));
      assert.equal(res.json().error.message, message, JSON.stringify(name));
    }
    assert.equal((await create({ name: 'x'.repeat(100) })).name.length, 100);
    const id = (await create({ name: 'Valid' })).id;
    const put = await api.put(`/api/v1/sheets/${id}`, { name: 'bad/name' });
    assert.equal(put.json().error.message, MESSAGES.sheetNameInvalid);
    const rename = await api.put(`/api/v1/items/sheet/${id}/rename`, { name: '  ' });
    assert.equal(rename.json().error.message, MESSAGES.sheetNameEmpty);
    assert.equal((await api.get('/api/v1/sheets?limit=500')).json().count, before + 2);
  });

  it("makes names unique with ' 1', ' 2' and defaults to 'New Sheet'", async () => {
    assert.equal((await create()).name, 'New Sheet');
    assert.equal((await create()).name, 'New Sheet 1');
    assert.equal((await create({ name: 'New Sheet' })).name, 'New Sheet 2');
    assert.equal((await create({ name: '  Report  ' })).name, 'Report');
    assert.equal((await create({ name: 'Report' })).name, 'Report 1');
    const id = (await create({ name: 'Other' })).id;
    const renamed = await api.put(`/api/v1/items/sheet/${id}/rename`, { name: 'Report' });
    assert.equal(renamed.json().name, 'Report 2');
    // Renaming to its own name keeps it.
    assert.equal((await api.put(`/api/v1/items/sheet/${id}/rename`, { name: 'Report 2' })).json().name, 'Report 2');
  });

  it('derives the category from the first tag, else from name keywords, else General', async () => {
    assert.equal((await create({ name: 'Q3 budget' })).metadata.category, 'Financial');
    assert.equal((await create({ name: 'Sprint tasks' })).metadata.category, 'Project Management');
    assert.equal((await create({ name: 'Inventory levels' })).metadata.category, 'Operations');
    assert.equal((await create({ name: 'KPI dashboard' })).metadata.category, 'Analytics');
    assert.equal((await create({ name: 'Misc' })).metadata.category, 'General');
    assert.equal((await create({ name: 'Q4 budget', tags: ['operations', 'finance'] })).metadata.category, 'Operations');
  });

  it('gets a sheet, and answers 404 Sheet not found / 400 for a bad id', async () => {
    const sheet = await create({ name: 'Fetch me', data: [['a', 1, true, null]], headers: ['h1'] });
    const res = await api.get(`/api/v1/sheets/${sheet.id}`);
    assert.equal(res.statusCode, 200);
    const got = SheetSchema.parse(res.json());
    assert.deepEqual(got.data, [['a', 1, true, null]]);
    assert.deepEqual(got.metadata.headers, ['h1', 'B', 'C', 'D']);
    const missing = await api.get(`/api/v1/sheets/${MISSING}`);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.message, 'Sheet not found');
    assert.equal((await api.get('/api/v1/sheets/not-a-uuid')).statusCode, 400);
  });

  it('lists with limit/offset (default 50) → {sheets, count}, search and the recent order', async () => {
    for (let i = 0; i < 55; i++) await create({ name: `Bulk ${String(i).padStart(2, '0')}` });
    const all = SheetListSchema.parse((await api.get('/api/v1/sheets')).json());
    assert.equal(all.sheets.length, 50);
    assert.ok(all.count >= 55);
    assert.ok(!('data' in all.sheets[0]));
    const page = (await api.get('/api/v1/sheets?limit=5&offset=50')).json();
    assert.equal(page.sheets.length, 5);
    const search = SheetListSchema.parse((await api.get('/api/v1/sheets?search=bulk%205')).json());
    assert.deepEqual(search.sheets.map((s) => s.name).sort(), ['Bulk 50', 'Bulk 51', 'Bulk 52', 'Bulk 53', 'Bulk 54']);
    assert.equal(search.count, 5);
    // A literal % is not a wildcard.
    assert.equal((await api.get('/api/v1/sheets?search=%25')).json().count, 0);
    const touched = await create({ name: 'Touched last' });
    await api.patch(`/api/v1/sheets/${touched.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'x' }] });
    const recent = SheetListSchema.parse((await api.get('/api/v1/sheets?limit=10&sort=updated_at&order=desc')).json());
    assert.equal(recent.sheets.length, 10);
    assert.equal(recent.sheets[0].id, touched.id);
    const stamps = recent.sheets.map((s) => Date.parse(s.updated_at));
    assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a));
    assert.equal((await api.get('/api/v1/sheets?limit=0')).statusCode, 400);
    assert.equal((await api.get('/api/v1/sheets?sort=password')).statusCode, 400);
  });

  it('PUT saves data, headers and metadata, and the version rises on each save', async () => {
    const sheet = await create({ name: 'Saved', metadata: { rows: 2, columns: 2 } });
    let res = await api.put(`/api/v1/sheets/${sheet.id}`, { data: [['1', '2', '3'], ['4']], headers: ['x'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, 2);
    assert.equal(res.json().id, sheet.id);
    res = await api.put(`/api/v1/sheets/${sheet.id}`, { description: 'about', tags: ['Financial'], metadata: { template: 'none' } });
    assert.equal(res.json().version, 3);
    const got = SheetSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}`)).json());
    assert.deepEqual(got.data, [['1', '2', '3'], ['4']]);
    assert.deepEqual(got.metadata.headers, ['x', 'B', 'C']);
    assert.equal(got.metadata.description, 'about');
    assert.equal(got.metadata.category, 'Financial');
    assert.equal(got.metadata.template, 'none');
    assert.equal(got.metadata.rows, 2);
    assert.equal(got.metadata.columns, 3);
    // Shrinking with a current base removes rows.
    await api.put(`/api/v1/sheets/${sheet.id}`, { data: [['only']], base_version: 3 });
    assert.deepEqual((await api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['only']]);
    const missing = await api.put(`/api/v1/sheets/${MISSING}`, { data: [] });
    assert.equal(missing.statusCode, 404);
    assert.equal((await api.put(`/api/v1/sheets/${sheet.id}`, { nope: 1 })).statusCode, 400);
  });

  it('a stale PUT merges cell by cell; the same cell changed on both sides is a 409 with the current version', async () => {
    const sheet = await create({ name: 'Merge', data: [['a', 'b'], ['c', 'd']] });
    // Someone else changes B1 (version 2).
    await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 1, value: 'B!' }] });
    // A save based on version 1 that changed A2 only: merged, B1 kept.
    let res = await api.put(`/api/v1/sheets/${sheet.id}`, { base_version: 1, data: [['a', 'b'], ['C!', 'd']] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, 3);
    assert.deepEqual((await api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['a', 'B!'], ['C!', 'd']]);
    // A save based on version 1 that changed B1 to something else: conflict, nothing written.
    res = await api.put(`/api/v1/sheets/${sheet.id}`, { base_version: 1, data: [['a', 'mine'], ['c', 'D!']] });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.code, 'conflict');
    assert.equal(res.json().error.details.current_version, 3);
    assert.deepEqual(res.json().error.details.conflicts, [{ row: 0, col: 1, value: 'B!' }]);
    const after = (await api.get(`/api/v1/sheets/${sheet.id}`)).json();
    assert.equal(after.version, 3);
    assert.deepEqual(after.data, [['a', 'B!'], ['C!', 'd']]);
    // Same value on both sides is no conflict.
    res = await api.put(`/api/v1/sheets/${sheet.id}`, { base_version: 1, data: [['a', 'B!'], ['c', 'd'], ['new row']] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['a', 'B!'], ['C!', 'd'], ['new row']]);
    // A base from the future is refused.
    assert.equal((await api.put(`/api/v1/sheets/${sheet.id}`, { base_version: 99, data: [] })).statusCode, 409);
  });

  it('PATCH cells writes only the changed cells, grows the grid, and conflicts only on the same cell', async () => {
    const data = Array.from({ length: 1200 }, (_, r) => [`r${r}`, 'x']);
    const sheet = await create({ name: 'Patched', data });
    assert.equal(await chunkRows(sheet.id), 3);
    const before = await t.app.db.selectFrom('sheet_chunks').select(['chunk', 'rows']).where('sheet_id', '=', sheet.id).orderBy('chunk').execute();
    let res = await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 700, col: 1, value: 'y' }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, 2);
    const afterRows = await t.app.db.selectFrom('sheet_chunks').select(['chunk', 'rows']).where('sheet_id', '=', sheet.id).orderBy('chunk').execute();
    // Only the chunk holding row 700 was rewritten.
    assert.deepEqual(afterRows[0], before[0]);
    assert.deepEqual(afterRows[2], before[2]);
    assert.notDeepEqual(afterRows[1], before[1]);
    const ops = await t.app.db.selectFrom('sheet_ops').select(['version', 'kind']).where('sheet_id', '=', sheet.id).orderBy('version').execute();
    assert.deepEqual(ops, [{ version: 1, kind: 'create' }, { version: 2, kind: 'cells' }]);

    // Stale base, another cell: applied.
    res = await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 5, col: 0, value: 'z' }] });
    assert.equal(res.json().version, 3);
    // Stale base, the same cell to another value: 409 and nothing applied.
    res = await api.patch(`/api/v1/sheets/${sheet.id}/cells`, {
      base_version: 1,
      changes: [{ row: 0, col: 0, value: 'ok' }, { row: 700, col: 1, value: 'mine' }],
    });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.details.current_version, 3);
    assert.deepEqual(res.json().error.details.conflicts, [{ row: 700, col: 1, value: 'y' }]);
    // Writing past the end adds rows and columns.
    res = await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 3, changes: [{ row: 2100, col: 3, value: 7 }] });
    assert.equal(res.statusCode, 200, res.body);
    const got = SheetSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}`)).json());
    assert.equal(got.version, 4);
    assert.equal(got.data.length, 2101);
    assert.equal(got.data[0][0], 'r0');
    assert.equal(got.data[5][0], 'z');
    assert.equal(got.data[700][1], 'y');
    assert.equal(got.data[1199][0], 'r1199');
    assert.deepEqual(got.data[1500], []);
    assert.deepEqual(got.data[2100], ['', '', '', 7]);
    assert.equal(got.metadata.rows, 2101);
    assert.equal(got.metadata.columns, 4);
    assert.equal(got.metadata.headers.length, 4);
  });

  it('a read between writes never returns an older grid (the read cache follows every write)', async () => {
    const sheet = await create({ name: 'Cached', data: Array.from({ length: 1100 }, (_, r) => [`r${r}`]) });
    const get = async () => SheetSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}`)).json());
    assert.equal((await get()).data[0][0], 'r0');
    await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 1050, col: 0, value: 'p' }, { row: 1700, col: 1, value: 'q' }] });
    let got = await get();
    assert.equal(got.version, 2);
    assert.equal(got.data[1050][0], 'p');
    assert.deepEqual(got.data[1700], ['', 'q']);
    assert.equal(got.data.length, 1701);
    await api.put(`/api/v1/sheets/${sheet.id}`, { description: 'meta only' });
    got = await get();
    assert.equal(got.version, 3);
    assert.equal(got.data[1050][0], 'p');
    await api.put(`/api/v1/sheets/${sheet.id}`, { data: [['whole']] });
    got = await get();
    assert.deepEqual(got.data, [['whole']]);
    // A write the cache did not see (another api instance) raises the version: the next read goes to the database.
    await t.app.db.updateTable('sheet_chunks').set({ rows: '[["elsewhere"]]' }).where('sheet_id', '=', sheet.id).execute();
    await t.app.db.updateTable('sheets').set({ version: 5 }).where('id', '=', sheet.id).execute();
    assert.deepEqual((await get()).data, [['elsewhere']]);
  });

  it('PATCH validates its body and its bounds', async () => {
    const { id } = await create({ name: 'Bounds' });
    const bad: [unknown, number][] = [
      [{ changes: [{ row: 0, col: 0, value: 'x' }] }, 400],
      [{ base_version: 1, changes: [] }, 400],
      [{ base_version: 1, changes: [{ row: -1, col: 0, value: 'x' }] }, 400],
      [{ base_version: 1, changes: [{ row: 0, col: 16384, value: 'x' }] }, 400],
      [{ base_version: 1, changes: [{ row: 1048576, col: 0, value: 'x' }] }, 400],
      [{ base_version: 1, changes: [{ row: 0, col: 0, value: { a: 1 } }] }, 400],
      [{ base_version: 1, changes: [{ row: 0, col: 0, value: 'x'.repeat(32768) }] }, 400],
      [{ base_version: 1, changes: Array.from({ length: 10001 }, () => ({ row: 0, col: 0, value: 1 })) }, 400],
    ];
    for (const [body, status] of bad) {
      const res = await api.patch(`/api/v1/sheets/${id}/cells`, body);
      assert.equal(res.statusCode, status, JSON.stringify(body).slice(0, 100));
    }
    assert.equal((await api.get(`/api/v1/sheets/${id}`)).json().version, 1);
    const missing = await api.patch(`/api/v1/sheets/${MISSING}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 1 }] });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.message, 'Sheet not found');
  });

  it('a sheet says its size (the bytes of its cells), kept up to date by every write, in lists and in the tree', async () => {
    // What the chunks hold, byte for byte (UTF-8: 'Zürich' is 7 bytes).
    const stored = async (id: string) =>
      (await t.app.db.selectFrom('sheet_chunks').select('rows').where('sheet_id', '=', id).execute()).reduce((n, c) => n + Buffer.byteLength(String(typeof c.rows === 'string' ? c.rows : JSON.stringify(c.rows))), 0);
    const sizeOf = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json()).metadata.size;
    const data = Array.from({ length: 1200 }, (_, r) => [`Zürich ${r}`, r]);
    const sheet = await create({ name: 'Sized by bytes', data });
    assert.ok(sheet.metadata.size! > 1200 * 12);
    assert.equal(sheet.metadata.size, await stored(sheet.id));
    // A cell edit in one chunk, a save that shrinks the sheet, a client's own 'size' ignored.
    await api.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: 1, changes: [{ row: 700, col: 0, value: 'x'.repeat(5000) }] });
    assert.equal(await sizeOf(sheet.id), await stored(sheet.id));
    assert.ok((await sizeOf(sheet.id))! > sheet.metadata.size! + 4900);
    const saved = await api.put(`/api/v1/sheets/${sheet.id}`, { data: [['small']], base_version: 2, metadata: { size: 1 } });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(await sizeOf(sheet.id), await stored(sheet.id));
    assert.equal(await sizeOf(sheet.id), Buffer.byteLength(JSON.stringify([['small']])));
    // A copy weighs what its source does; the list and the tree say the same.
    const copy = SheetSummarySchema.parse((await api.post(`/api/v1/sheets/${sheet.id}/duplicate`)).json());
    assert.equal(await sizeOf(copy.id), await sizeOf(sheet.id));
    const listed = SheetListSchema.parse((await api.get('/api/v1/sheets?search=Sized%20by%20bytes')).json()).sheets;
    assert.deepEqual(listed.map((s) => s.metadata.size), [await sizeOf(sheet.id), await sizeOf(copy.id)].slice(0, listed.length));
    const tree = (await api.get('/api/v1/groups/tree')).json() as { sheets?: { id: string; metadata: { size?: number } }[] };
    const inTree = JSON.stringify(tree).includes(`"size":${await sizeOf(sheet.id)}`);
    assert.ok(inTree, 'the tree carries the size');
  });

  it("duplicates with ' (Copy)', unique, cells included; 'Sheet not found' for a missing one", async () => {
    const source = await create({ name: 'Original', data: [['1', '2'], ['3', '4']], tags: ['t'] });
    let res = await api.post(`/api/v1/sheets/${source.id}/duplicate`);
    assert.equal(res.statusCode, 201, res.body);
    const copy = SheetSummarySchema.parse(res.json());
    assert.equal(copy.name, 'Original (Copy)');
    assert.equal(copy.version, 1);
    assert.deepEqual((await api.get(`/api/v1/sheets/${copy.id}`)).json().data, [['1', '2'], ['3', '4']]);
    res = await api.post(`/api/v1/sheets/${source.id}/duplicate`);
    assert.equal(res.json().name, 'Original (Copy) 1');
    // Editing the copy leaves the source alone.
    await api.patch(`/api/v1/sheets/${copy.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'changed' }] });
    assert.equal((await api.get(`/api/v1/sheets/${source.id}`)).json().data[0][0], '1');
    res = await api.post(`/api/v1/sheets/${MISSING}/duplicate`);
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.message, 'Sheet not found');
  });

  it('favorites are per user and toggle', async () => {
    const sheet = await create({ name: 'Fav' });
    let res = await api.post(`/api/v1/sheets/${sheet.id}/favorite`);
    assert.deepEqual(res.json(), { sheet_id: sheet.id, is_favorite: true });
    assert.equal((await api.get(`/api/v1/sheets/${sheet.id}`)).json().is_favorite, true);
    const favs = (await api.get('/api/v1/sheets?favorites=true')).json();
    assert.deepEqual(favs.sheets.map((s: { id: string }) => s.id), [sheet.id]);
    const other = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
    assert.equal((await other.get(`/api/v1/sheets/${sheet.id}`)).json().is_favorite, false);
    assert.equal((await other.get('/api/v1/sheets?favorites=true')).json().count, 0);
    res = await api.post(`/api/v1/sheets/${sheet.id}/favorite`);
    assert.equal(res.json().is_favorite, false);
    assert.equal((await api.get('/api/v1/sheets?favorites=true')).json().count, 0);
    assert.equal((await api.post(`/api/v1/sheets/${MISSING}/favorite`)).statusCode, 404);
  });

  it('deletes a sheet to the trash; deleted forever, its cells, ops and favorites go', async () => {
    const sheet = await create({ name: 'Doomed' });
    await api.post(`/api/v1/sheets/${sheet.id}/favorite`);
    const res = await api.delete(`/api/v1/sheets/${sheet.id}`);
    assert.deepEqual(res.json(), { status: 'deleted', id: sheet.id });
    assert.equal((await api.get(`/api/v1/sheets/${sheet.id}`)).statusCode, 404);
    assert.ok((await chunkRows(sheet.id)) > 0, 'kept in the trash');
    const entry = (await api.get('/api/v1/trash')).json().items.find((i: { item_id: string }) => i.item_id === sheet.id);
    assert.equal((await api.delete(`/api/v1/trash/${entry.id}`)).statusCode, 200);
    assert.equal(await chunkRows(sheet.id), 0);
    const favorites = await t.app.db.selectFrom('sheet_favorites').select('user_id').where('sheet_id', '=', sheet.id).execute();
    assert.equal(favorites.length, 0);
    const ops = await t.app.db.selectFrom('sheet_ops').select('version').where('sheet_id', '=', sheet.id).execute();
    assert.equal(ops.length, 0);
    const missing = await api.delete(`/api/v1/sheets/${sheet.id}`);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.message, 'Sheet not found');
  });
});
