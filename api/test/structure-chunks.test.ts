import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GridData, SheetSchema } from '@tessera/contracts';
import { MAX_CHUNK_ROWS } from '../src/sheets/cell-grid.js';
import { joinChunkTexts } from '../src/sheets/sheet-store.js';
import type { StoredStructureOp } from '../src/sheets/sheet-ops.tables.js';
import { restructure } from '../src/sheets/structure-op.js';
import { LiveClient } from './live-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

/**
 * Issue 23: rows inserted or removed in a sheet of several chunks rewrite only the chunk(s) they
 * fall in (chunks hold any number of rows). What a user sees must not change: the sheet read
 * back, its export, every older version (preview and restore), cell edits after the change and
 * live edits made on a version from before it.
 */
describe('rows inserted and removed in a multi-chunk sheet', () => {
  let { t, base, admin, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const COLS = 3;
  /** Rows that say where they started: "r12c1" ... */
  const labelled = (rows: number): GridData => Array.from({ length: rows }, (_, r) => Array.from({ length: COLS }, (_, c) => `r${r}c${c}`));
  const create = async (data: GridData) => {
    const res = await api.post('/api/v1/sheets', { name: `Chunks ${Math.random().toString(36).slice(2, 8)}`, data });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const server = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const stored = async (id: string) =>
    new Map(
      (await t.app.db.selectFrom('sheet_chunks').select(['chunk', 'n', 'rows']).where('sheet_id', '=', id).execute()).map((c) => [
        c.chunk,
        { n: c.n, rows: typeof c.rows === 'string' ? c.rows : JSON.stringify(c.rows) },
      ]),
    );
  const snapshotChunkCount = async (id: string) =>
    Number(
      (
        await t.app.db
          .withTables<{ sheet_snapshot_chunks: { sheet_id: string } }>()
          .selectFrom('sheet_snapshot_chunks')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('sheet_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const join = async (id: string, since: number) => {
    const c = await LiveClient.join(base, id, admin.accessToken, { since });
    open.push(c);
    return c;
  };
  let opIds = 0;
  /** A structural op over the socket, acked: returns its version. */
  const structure = async (c: LiveClient, id: string, op: StoredStructureOp, baseVersion?: number) => {
    const opId = `s-${++opIds}`;
    c.send({ type: 'operation', sheet_id: id, operation: { id: opId, ...op, ...(baseVersion === undefined ? {} : { base_version: baseVersion }) } });
    return (await c.next('ack', (f) => f.data.operation_id === opId)).data.version;
  };
  const apply = (grid: GridData, op: StoredStructureOp) => restructure(structuredClone(grid), [], COLS, op).grid;
  const csvOf = (grid: GridData) => ['A,B,C', ...grid.map((row) => Array.from({ length: COLS }, (_, c) => row[c] ?? '').join(','))].join('\n');
  const exported = async (id: string) => (await api.get(`/api/v1/sheets/${id}/export?format=csv`)).body.replace(/\r\n/g, '\n').trimEnd();
  const version = async (id: string, v: number) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().rows as GridData;
  };

  it('insert or remove at the top, middle and end: one chunk rewritten each, and the sheet, export and every version read back exactly', async () => {
    // 2,300 rows: chunks of 500, 500, 500, 500 and 300 rows.
    let model = labelled(2_300);
    const s = await create(model);
    const c = await join(s.id, s.version);
    const versions = new Map<number, GridData>([[s.version, model]]);

    const steps: StoredStructureOp[] = [
      { type: 'rows_insert', index: 0, count: 1 },
      { type: 'rows_insert', index: 1_234, count: 2 },
      { type: 'rows_insert', index: 2_303, count: 1 }, // at the end
      { type: 'rows_remove', index: 0, count: 1 },
      { type: 'rows_remove', index: 1_700, count: 3 },
      { type: 'rows_remove', index: 2_298, count: 2 }, // the last rows
    ];
    for (const op of steps) {
      const before = await stored(s.id);
      const snapshotsBefore = await snapshotChunkCount(s.id);
      const v = await structure(c, s.id, op);
      model = apply(model, op);
      versions.set(v, model);
      const after = await stored(s.id);
      const changed = [...after].filter(([id, chunk]) => before.get(id)?.rows !== chunk.rows);
      assert.equal(changed.length, 1, `${op.type} at ${op.index}: one chunk rewritten, not the ones below`);
      assert.equal([...before.keys()].filter((id) => !after.has(id)).length, 0, 'no chunk dropped');
      assert.equal((await snapshotChunkCount(s.id)) - snapshotsBefore, 1, 'its snapshot copies that chunk only');
      const now = await server(s.id);
      assert.equal(now.version, v);
      assert.deepEqual(now.data, model, `${op.type} at ${op.index}: the sheet as read back`);
      assert.equal(now.metadata.rows, model.length);
    }
    assert.equal(await exported(s.id), csvOf(model), 'the CSV export');

    // A range across chunk boundaries: the chunk wholly inside it goes, the two it cuts are joined.
    const wide: StoredStructureOp = { type: 'rows_remove', index: 480, count: 600 };
    const v = await structure(c, s.id, wide);
    model = apply(model, wide);
    versions.set(v, model);
    assert.deepEqual((await server(s.id)).data, model);
    assert.equal([...(await stored(s.id)).values()].reduce((n, chunk) => n + chunk.n, 0), model.length, 'the chunks hold every row once');

    // Every version rebuilds to exactly what the sheet was then.
    for (const [at, grid] of versions) assert.deepEqual(await version(s.id, at), grid, `version ${at}`);

    // Cell edits after the ops land in the right chunk (rows are found through the chunks' sizes).
    const edits = [0, 499, 500, 1_233, 1_234, model.length - 1].map((row, k) => ({ row, col: k % COLS, value: `edit ${k}` }));
    const patched = await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: v, changes: edits });
    assert.equal(patched.statusCode, 200, patched.body);
    model = structuredClone(model);
    for (const e of edits) model[e.row][e.col] = e.value;
    assert.deepEqual((await server(s.id)).data, model);
    assert.deepEqual(await version(s.id, v), versions.get(v), 'the version before the edits');

    // Restoring the first version brings back exactly the created grid.
    const restored = await api.post(`/api/v1/sheets/${s.id}/versions/${s.version}/checkout`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual((await server(s.id)).data, labelled(2_300));
    assert.equal(await exported(s.id), csvOf(labelled(2_300)));
    // ... and the version after the edits is still there to go back to.
    const back = await api.post(`/api/v1/sheets/${s.id}/versions/${patched.json().version}/checkout`);
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual((await server(s.id)).data, model);
  });

  it('many rows inserted into one chunk split it; writes past the end grow the last chunk; a live edit on the older version lands on its row', async () => {
    let model = labelled(1_200);
    const s = await create(model);
    const c = await join(s.id, s.version);
    const many: StoredStructureOp = { type: 'rows_insert', index: 10, count: 1_500 };
    const v = await structure(c, s.id, many);
    model = apply(model, many);
    const chunks = [...(await stored(s.id)).values()];
    assert.ok(chunks.every((chunk) => chunk.n > 0 && chunk.n <= MAX_CHUNK_ROWS), `split: ${chunks.map((chunk) => chunk.n).join(', ')}`);
    assert.equal(chunks.reduce((n, chunk) => n + chunk.n, 0), 2_700);
    assert.deepEqual((await server(s.id)).data, model);

    // A client that has not seen the insert types into row 700 ("r700...") as of the created version.
    const typed = 'typed on the old version';
    c.send({ type: 'operation', sheet_id: s.id, operation: { id: 'old-base', type: 'cell_update', position: { row: 700, column: 1 }, value: typed, base_version: s.version } });
    const ack = await c.next('ack', (f) => f.data.operation_id === 'old-base');
    model[700 + 1_500][1] = typed;
    const now = await server(s.id);
    assert.equal(now.data[2_200][0], 'r700c0');
    assert.deepEqual(now.data, model, 'the edit moved down with its row');

    // Past the end: rows up to 3,999 appear as empty rows.
    const far = await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: ack.data.version, changes: [{ row: 3_999, col: 0, value: 'far' }] });
    assert.equal(far.statusCode, 200, far.body);
    while (model.length < 3_999) model.push([]);
    model.push(['far']);
    const grown = await server(s.id);
    assert.equal(grown.data.length, 4_000);
    assert.deepEqual(grown.data.slice(0, 2_700), model.slice(0, 2_700));
    assert.deepEqual(grown.data[3_999].slice(0, 1), ['far']);
    assert.equal([...(await stored(s.id)).values()].reduce((n, chunk) => n + chunk.n, 0), 4_000);
    assert.deepEqual(await version(s.id, v), apply(labelled(1_200), many), 'the version of the insert');
    assert.deepEqual(await version(s.id, s.version), labelled(1_200), 'the created version');

    // A column inserted keeps every row in its chunk.
    const col: StoredStructureOp = { type: 'columns_insert', index: 1, count: 1 };
    await structure(c, s.id, col);
    const widened = await server(s.id);
    assert.deepEqual(widened.data[2_200].slice(0, 3), ['r700c0', '', typed]);
    assert.deepEqual(widened.data[0].slice(0, 4), ['r0c0', '', 'r0c1', 'r0c2']);
  });

  it('columns inserted and removed are caught up in the chunks in the background while cells are typed: the sheet, export, every version and the size read back exactly', async () => {
    const COLUMNS = 3;
    let model = labelled(2_300);
    let width = COLUMNS;
    const s = await create(model);
    const c = await join(s.id, s.version);
    const versions = new Map<number, GridData>([[s.version, model]]);
    const sizeOf = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json()).metadata.size;
    const steps: StoredStructureOp[] = [
      { type: 'columns_insert', index: 1, count: 2 },
      { type: 'columns_remove', index: 0, count: 1 },
      { type: 'columns_insert', index: 4, count: 1 }, // at the end
    ];
    let typed = 0;
    for (const op of steps) {
      const v = await structure(c, s.id, op);
      model = restructure(structuredClone(model), [], width, op).grid;
      width += op.type === 'columns_insert' ? op.count : -op.count;
      versions.set(v, model);
      assert.deepEqual((await server(s.id)).data, model, `${op.type} at ${op.index}: the sheet as read back`);
      // Cells typed in every chunk while the chunks are caught up (or not yet).
      for (const row of [0, 600, 1_200, 1_800, 2_299]) {
        const id = `typed-${++typed}`;
        c.send({ type: 'operation', sheet_id: s.id, operation: { id, type: 'cell_update', position: { row, column: typed % width }, value: id } });
        const ack = await c.next('ack', (f) => f.data.operation_id === id);
        model = structuredClone(model);
        model[row][typed % width] = id;
        versions.set(ack.data.version, model);
      }
    }
    await t.app.columnCompactor.settle();
    const chunks = await t.app.db.selectFrom('sheet_chunks').select(['rows']).where('sheet_id', '=', s.id).orderBy('ord').execute();
    const texts = chunks.map((chunk) => (typeof chunk.rows === 'string' ? chunk.rows : JSON.stringify(chunk.rows)));
    assert.deepEqual(JSON.parse(joinChunkTexts(texts)), model, 'the chunks hold the columns now');
    assert.equal(await sizeOf(s.id), texts.reduce((n, text) => n + Buffer.byteLength(text), 0), 'the size is exact');
    assert.deepEqual((await server(s.id)).data, model);
    assert.equal(await exported(s.id), ['A,B,C,D,E', ...model.map((row) => row.slice(0, width).join(','))].join('\n'), 'the CSV export (a row is written with the cells it has)');
    for (const [at, grid] of versions) {
      const rebuilt = await version(s.id, at);
      assert.deepEqual(
        rebuilt.map((row) => row.join('|').replace(/\|+$/, '')),
        grid.map((row) => row.join('|').replace(/\|+$/, '')),
        `version ${at}`,
      );
    }
  });

  it('removing every row, then inserting rows into the empty sheet', async () => {
    const s = await create(labelled(1_100));
    const c = await join(s.id, s.version);
    await structure(c, s.id, { type: 'rows_remove', index: 0, count: 1_100 });
    assert.deepEqual((await server(s.id)).data, []);
    assert.equal((await stored(s.id)).size, 0);
    await structure(c, s.id, { type: 'rows_insert', index: 0, count: 2 });
    assert.deepEqual((await server(s.id)).data, [
      ['', '', ''],
      ['', '', ''],
    ]);
    assert.deepEqual(await version(s.id, s.version), labelled(1_100));
  });
});
