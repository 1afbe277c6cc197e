import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type GridData, heldCells, SheetSummarySchema } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrations.js';
import type { Database } from '../src/db/schema.js';
import { exactHeldCells } from '../src/sheets/sheet-store.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { apiClient } from './support/api-client.js';
import { signupAdmin } from './support/auth-helpers.js';
import { databaseMigratedTo } from './support/migrated-database.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Issue 23: a sheet's "may have formulas" fact (SheetSummary.may_have_formulas), which lets a
 * client open a very large sheet a window at a time only when no cell needs the formula engine.
 * Every write that can store a formula cell sets it; only a whole-grid write without one clears it.
 */
const plain = (rows: number): GridData => Array.from({ length: rows }, (_, r) => [`r${r}`, r, 'a=b']);

describe('the "may have formulas" fact of a sheet', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let sheets: SheetsService;
  let userId: string;
  before(async () => {
    t = await createTestApp();
    const admin = await signupAdmin(t.app);
    api = apiClient(t.app, admin.accessToken);
    userId = admin.userId;
    // The live socket's writers (cell groups, row and column ops) on the app's database.
    sheets = new SheetsService((t.app as unknown as { db: Kysely<Database> }).db);
  });
  after(() => t.close());

  const summary = async (id: string) => SheetSummarySchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const flag = async (id: string) => (await summary(id)).may_have_formulas;
  const create = async (data: GridData) => {
    const res = await api.post('/api/v1/sheets', { name: `F ${crypto.randomUUID().slice(0, 8)}`, data });
    assert.equal(res.statusCode, 201);
    return SheetSummarySchema.parse(res.json()).id;
  };

  it('a sheet without formulas says so, and stays so through cell edits, saves and row and column ops without any', async () => {
    const id = await create(plain(1_200));
    assert.equal(await flag(id), false);
    assert.equal((await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: 1, changes: [{ row: 3, col: 1, value: 'x=1' }] })).statusCode, 200);
    await sheets.patchCellsBatch(id, [{ changes: [{ row: 1_100, col: 0, value: 12 }], userId, opId: crypto.randomUUID() }]);
    for (const op of [
      { type: 'rows_insert', index: 700, count: 3 },
      { type: 'rows_remove', index: 10, count: 600 },
      { type: 'columns_insert', index: 1, count: 1 },
      { type: 'columns_remove', index: 0, count: 1 },
    ] as const)
      await sheets.applyStructure(id, op, userId);
    const { version } = await summary(id);
    assert.equal((await api.put(`/api/v1/sheets/${id}`, { data: plain(50), base_version: version })).statusCode, 200);
    assert.equal(await flag(id), false);
    // The list carries it too (a client knows it before opening the sheet).
    const listed = (await api.get('/api/v1/sheets?limit=100')).json() as { sheets: { id: string; may_have_formulas?: boolean }[] };
    assert.equal(listed.sheets.find((s) => s.id === id)?.may_have_formulas, false);
  });

  it('a new sheet with a formula, and a copy of it', async () => {
    const data = plain(1_200);
    data[1_150][2] = '=SUM(B1:B3)';
    const id = await create(data);
    assert.equal(await flag(id), true);
    const copy = await api.post(`/api/v1/sheets/${id}/duplicate`);
    assert.equal(copy.statusCode, 201);
    assert.equal(SheetSummarySchema.parse(copy.json()).may_have_formulas, true);
    // The copy's count of held cells (the chunks' counts copied with them) is the sheet's.
    assert.equal(await exactHeldCells((t.app as unknown as { db: Kysely<Database> }).db, copy.json().id), heldCells(data));
  });

  it('an import with a formula', async () => {
    const res = await api.upload('/api/v1/import', { filename: 'f.csv', content: 'a,b\n1,2\n3,=A2+B2\n' });
    assert.equal(res.statusCode, 201, res.body);
    const { sheets: made } = res.json() as { sheets: { id: string }[] };
    assert.equal(await flag(made[0].id), true);
    const none = (await api.upload('/api/v1/import', { filename: 'n.csv', content: 'a,b\n1,2\n' })).json() as { sheets: { id: string }[] };
    assert.equal(await flag(none.sheets[0].id), false);
  });

  it('a cell PATCH (api, AI) and a live cell op each set it', async () => {
    const patched = await create(plain(600));
    assert.equal((await api.patch(`/api/v1/sheets/${patched}/cells`, { base_version: 1, changes: [{ row: 599, col: 0, value: '=1+1' }] })).statusCode, 200);
    assert.equal(await flag(patched), true);
    const live = await create(plain(600));
    // A live write past the end (new rows) and an AI result's.
    await sheets.patchCellsBatch(live, [{ changes: [{ row: 2_000, col: 4, value: '=A1' }], userId, opId: crypto.randomUUID(), ai: true }]);
    assert.equal(await flag(live), true);
  });

  it('a whole-grid save sets it with a formula and clears it without; a version restore brings it back', async () => {
    const id = await create(plain(10));
    const v1 = (await summary(id)).version;
    const withFormula = plain(10);
    withFormula[4][0] = '=B5*2';
    assert.equal((await api.put(`/api/v1/sheets/${id}`, { data: withFormula, base_version: v1 })).statusCode, 200);
    assert.equal(await flag(id), true);
    const v2 = (await summary(id)).version;
    assert.equal((await api.put(`/api/v1/sheets/${id}`, { data: plain(10), base_version: v2 })).statusCode, 200);
    assert.equal(await flag(id), false);
    const restored = await api.post(`/api/v1/sheets/${id}/snapshots/${v2}/restore`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.equal(await flag(id), true);
    // And a restore of a version without one clears it (a restore writes only the chunks that differ, but knows the whole grid).
    assert.equal((await api.post(`/api/v1/sheets/${id}/snapshots/${v1}/restore`)).statusCode, 200);
    assert.equal(await flag(id), false);
  });

  it('a row op keeps it on a sheet with formulas (the rewritten chunk still holds one)', async () => {
    const data = plain(1_200);
    data[5][0] = '=1';
    const id = await create(data);
    await sheets.applyStructure(id, { type: 'rows_insert', index: 3, count: 2 }, userId);
    await sheets.applyStructure(id, { type: 'rows_remove', index: 800, count: 10 }, userId);
    assert.equal(await flag(id), true);
  });
});

describe('migration 0015_sheet_formula_flag on existing sheets', () => {
  let db: Kysely<Database>;
  let cleanup: () => Promise<void>;
  const withFormula = crypto.randomUUID();
  const without = crypto.randomUUID();
  before(async () => {
    ({ db, cleanup } = await databaseMigratedTo('0014_sheet_chunk_storage'));
    for (const [id, second] of [
      [withFormula, [['=A1*2', 1]]],
      [without, [['x', ' =1', 'a=b', 2]]],
    ] as const) {
      await sql`INSERT INTO sheets (id, name, version, row_count, col_count, headers, tags, extra) VALUES
        (${id}::uuid, ${id}, 1, 2, 2, '[]', '[]', '{}')`.execute(db);
      await sql`INSERT INTO sheet_chunks (sheet_id, chunk, ord, n, rows, version) VALUES
        (${id}::uuid, 0, 0, 1, '[["a",1]]'::json, 1), (${id}::uuid, 1, 1, 1, ${JSON.stringify(second)}::json, 1)`.execute(db);
    }
    await migrateToLatest(db);
  });
  after(() => cleanup());

  it('computes it from the stored chunks', async () => {
    const flags = await db.selectFrom('sheets').select(['id', 'may_have_formulas']).execute();
    assert.deepEqual(Object.fromEntries(flags.map((f) => [f.id, f.may_have_formulas])), { [withFormula]: true, [without]: false });
  });

  it("and migration 0016 counts the cells the formula engine would hold (contracts heldCells) of each stored chunk and sheet", async () => {
    const sheets = await db.selectFrom('sheets').select(['id', 'held_cells']).execute();
    assert.deepEqual(Object.fromEntries(sheets.map((s) => [s.id, Number(s.held_cells)])), { [withFormula]: 4, [without]: 6 });
    assert.deepEqual((await db.selectFrom('sheet_chunks').select('held').where('sheet_id', '=', without).orderBy('chunk').execute()).map((c) => c.held), [2, 4]);
    // A chunk written since moves the total by its own count (a cell emptied at a row's end is not held).
    await sql`UPDATE sheet_chunks SET rows = '[["a", null, null]]'::json WHERE sheet_id = ${without}::uuid AND chunk = 0`.execute(db);
    assert.equal(await exactHeldCells(db, without), 5);
  });
});
