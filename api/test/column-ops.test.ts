import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CellValue, GridData } from '@tessera/contracts';
import fc from 'fast-check';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import type { StoredStructureOp } from '../src/sheets/sheet-ops.tables.js';
import { catchUpChunks, chunksBehind, joinChunkTexts, readChunkTexts } from '../src/sheets/sheet-store.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { restructure } from '../src/sheets/structure-op.js';
import { rebuildChunks, rebuildInBatches } from '../src/versions/version-rebuild.js';
import { rowsOfChunks } from '../src/versions/version-rows.js';
import { VersionsService } from '../src/versions/versions.service.js';
import { pgliteTemplate } from './support/pglite-template.js';
import { createPgDatabase } from './support/test-app.js';

/**
 * Issue 23: a column inserted or removed writes no chunk (the op log holds it; every read applies it
 * until the chunks are caught up in the background). Whatever the order of cell edits, row and
 * column ops, whole-grid saves and catch-ups, the sheet, every version, a duplicate and the size
 * must read exactly what a model applying the same steps to a plain grid says.
 */
describe('columns inserted and removed without rewriting the chunks', () => {
  let db: Kysely<Database>;
  let sheets: SheetsService;
  let cleanup: () => Promise<void>;
  const userId = crypto.randomUUID();
  const snapshotEvery = process.env.VERSION_SNAPSHOT_EVERY;

  before(async () => {
    // Delta snapshots every 3 versions, so rebuilds go through full snapshots, delta ones and the op log.
    process.env.VERSION_SNAPSHOT_EVERY = '3';
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-api-column-ops-'));
    const pgDb = process.env.TEST_PG_URL ? await createPgDatabase(process.env.TEST_PG_URL) : undefined;
    if (!pgDb) await fs.cp(await pgliteTemplate(), path.join(dataDir, 'api'), { recursive: true });
    db = await openDatabase({ databaseUrl: pgDb?.url, pgliteDir: path.join(dataDir, 'api') });
    sheets = new SheetsService(db);
    await sql`INSERT INTO users (id, username, password_hash, role) VALUES (${userId}::uuid, 'columns', 'x', 'admin')`.execute(db);
    cleanup = async () => {
      await db.destroy();
      await pgDb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
      if (snapshotEvery === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = snapshotEvery;
    };
  });
  after(() => cleanup());

  const COLS = 3;
  /** 1,200 rows: chunks of 500, 500 and 200 rows. */
  const labelled = (rows: number): GridData => Array.from({ length: rows }, (_, r) => Array.from({ length: COLS }, (_, c) => `r${r}c${c}`));
  const create = async (data: GridData) => (await sheets.create({ name: `Columns ${crypto.randomUUID().slice(0, 8)}`, data }, userId)).id;
  const stored = async (id: string) =>
    (await sql<{ chunk: number; version: number; rows: string }>`SELECT chunk, version, rows::text AS rows FROM sheet_chunks WHERE sheet_id = ${id}::uuid ORDER BY chunk`.execute(db))
      .rows;
  const sheetRow = async (id: string) => db.selectFrom('sheets').select(['version', 'col_count', 'byte_size']).where('id', '=', id).executeTakeFirstOrThrow();
  const rebuilt = async (id: string, version: number, live: number) => JSON.parse(joinChunkTexts((await rebuildChunks(db, id, version, live)).chunks)) as GridData;
  /** The size a sheet holding `grid` in chunks of these row counts has: its chunks' JSON text in UTF-8 bytes. */
  const bytesOf = async (id: string, grid: GridData) => {
    const sizes = (await db.selectFrom('sheet_chunks').select('n').where('sheet_id', '=', id).orderBy('ord').execute()).map((c) => c.n);
    let at = 0;
    let bytes = 0;
    for (const n of sizes) {
      bytes += Buffer.byteLength(JSON.stringify(grid.slice(at, at + n)));
      at += n;
    }
    return bytes;
  };
  const catchUpAll = async (id: string) => catchUpChunks(db, id, (await chunksBehind(db, id)).map((c) => c.chunk));
  /** Rows and columns as the store applies them (structure-op.ts). */
  const apply = (grid: GridData, cols: number, op: StoredStructureOp) => restructure(structuredClone(grid), [], cols, op).grid;
  /** A cell written as patchCells writes it: the row padded with '' up to it. */
  const setCell = (grid: GridData, row: number, col: number, value: CellValue) => {
    const next = structuredClone(grid);
    const cells = next[row];
    while (cells.length < col) cells.push('');
    cells[col] = value;
    return next;
  };
  /**
   * A rebuilt version's rows are padded with '' to the version's width where the rebuild parsed them
   * (version-rebuild.ts), and a cell written past a row's end comes back as null when undone: empty either way.
   */
  const unpadded = (grid: GridData) =>
    grid.map((row) => {
      let end = row.length;
      while (end > 0 && (row[end - 1] === '' || row[end - 1] === null)) end--;
      return row.slice(0, end);
    });
  /** Every version as the model says, read back: the live sheet and the chunks' text exactly, each version rebuilt. */
  const checkAll = async (id: string, versions: Map<number, GridData>, live: number, label: string) => {
    const model = versions.get(live)!;
    assert.deepEqual((await sheets.readGrid(id)).data, model, `${label}: the sheet`);
    assert.deepEqual(JSON.parse(joinChunkTexts(await readChunkTexts(db, id))), model, `${label}: the chunks' text (GET, export)`);
    for (const [v, grid] of versions) {
      assert.deepEqual(unpadded(await rebuilt(id, v, live)), unpadded(grid), `${label}: version ${v}`);
      // A span of rows (a cell's history reads one): those rows exact, only the chunks holding them read.
      for (const row of new Set([0, 499, 500, Math.floor(grid.length / 2), grid.length - 1].filter((r) => r >= 0 && r < grid.length))) {
        const { chunks, sizes } = await rebuildChunks(db, id, v, live, { start: row, end: row + 1 });
        const p = sizes.findIndex((_, i) => sizes.slice(0, i + 1).reduce((a, b) => a + b, 0) > row);
        const first = sizes.slice(0, p).reduce((a, b) => a + b, 0);
        assert.deepEqual(unpadded([(JSON.parse(chunks[p]) as GridData)[row - first]]), unpadded([grid[row]]), `${label}: version ${v}, row ${row}`);
        assert.deepEqual(chunks.map((c, i) => (i === p ? 'read' : c)), chunks.map((_, i) => (i === p ? 'read' : '')), `${label}: version ${v}, row ${row}: other chunks not read`);
      }
      // The first window of a preview (a version not kept: answered from the chunks holding it) is the whole version's rows, its summary too.
      const whole = await rebuildChunks(db, id, v, live);
      // Rebuilt whole behind it a chunk at a time (each in a transaction of its own): the same version.
      assert.deepEqual(await rebuildInBatches((span) => rebuildChunks(db, id, v, live, span), 2), whole, `${label}: version ${v} rebuilt by batches`);
      // (versionRows answers it with rowsOfChunks of this span's rebuild, its size and headers with the summary: the service is checked below and in versions-property.)
      const start = Math.max(0, Math.min(490, grid.length - 3));
      const first = await rebuildChunks(db, id, v, live, { start, end: start + 20 });
      const count = Math.min(20, Math.max(0, whole.rowCount - start));
      assert.deepEqual(rowsOfChunks(first, start, count), rowsOfChunks(whole, start, count), `${label}: version ${v}, first window`);
      assert.deepEqual([first.rowCount, first.colCount, first.headers], [whole.rowCount, whole.colCount, whole.headers], `${label}: version ${v}, first window's size and headers`);
    }
  };
  /** A database whose answers' string values are counted (stored chunks are read as text): what a read reads. */
  const counting = () => {
    const read = { chars: 0 };
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        for (const row of args.result.rows) for (const value of Object.values(row as object)) if (typeof value === 'string') read.chars += value.length;
        return args.result;
      },
    };
    return { db: db.withPlugin(plugin), read };
  };

  it("a preview's first window of a version not kept reads the chunks holding it, the version rebuilt whole behind it once (windows at once share it), then kept", async () => {
    // 3,000 rows: six chunks; a cell edit, a row op and a column op, so versions rebuild through each.
    let model = labelled(3_000);
    const id = await create(model);
    const versions = new Map<number, GridData>([[1, model]]);
    const edited = await sheets.patchCells(id, { base_version: 1, changes: [{ row: 2_500, col: 1, value: 'edited' }] }, userId);
    model = setCell(model, 2_500, 1, 'edited');
    versions.set(edited.version, model);
    let live = (await sheets.applyStructure(id, { type: 'rows_remove', index: 10, count: 3 }, userId)).version;
    model = apply(model, COLS, { type: 'rows_remove', index: 10, count: 3 });
    versions.set(live, model);
    live = (await sheets.applyStructure(id, { type: 'columns_insert', index: 0, count: 1 }, userId)).version;
    model = apply(model, COLS, { type: 'columns_insert', index: 0, count: 1 });
    versions.set(live, model);
    const wholeText = JSON.stringify(model).length;
    for (const [v, grid] of versions) {
      const { db: countedDb, read } = counting();
      const service = new VersionsService(countedDb, sheets);
      const window = (start: number) => service.versionRows(id, String(v), { start, count: 10 });
      const first = await window(2_495);
      assert.deepEqual(unpadded(first.data), unpadded(grid.slice(2_495, 2_505)), `version ${v}: the first window`);
      assert.equal(first.row_count, grid.length);
      // One chunk of six read as text, not the version whole.
      assert.ok(read.chars < wholeText / 3, `version ${v}: ${read.chars} characters read for the first window of a version of ${wholeText}`);
      await service.rowsSettled();
      // Behind it, the version was rebuilt whole once and kept: a window elsewhere reads no chunk.
      const behind = read.chars;
      assert.ok(behind > wholeText * 0.9, `version ${v}: ${behind} characters read by the first window and the rebuild behind it`);
      const later = await window(10);
      assert.deepEqual(unpadded(later.data), unpadded(grid.slice(10, 20)), `version ${v}: a later window`);
      assert.ok(read.chars - behind < wholeText / 20, `version ${v}: ${read.chars - behind} characters read by a window of a kept version`);
    }
    // Two windows at once of a version not kept: each answered from its own chunks, one whole rebuild behind both.
    const { db: countedDb, read } = counting();
    const service = new VersionsService(countedDb, sheets);
    const [a, b] = await Promise.all([service.versionRows(id, '1', { start: 0, count: 5 }), service.versionRows(id, '1', { start: 2_990, count: 5 })]);
    assert.deepEqual([a.data, b.data], [versions.get(1)!.slice(0, 5), versions.get(1)!.slice(2_990, 2_995)]);
    await service.rowsSettled();
    assert.ok(read.chars < wholeText * 1.5, `${read.chars} characters read for two windows at once of a version of ${wholeText}`);

    // The rebuild behind takes one of the member's 'sheet read' slots. Refused: the window is still
    // answered, nothing is rebuilt behind it. Given: it is given back once the version is kept.
    const slotted = counting();
    const withSlots = new VersionsService(slotted.db, sheets);
    const hold = () => {};
    const refused = await withSlots.versionRows(id, '1', { start: 0, count: 5 }, { hold, take: () => { throw new Error('429'); } });
    assert.deepEqual(refused.data, versions.get(1)!.slice(0, 5));
    await withSlots.rowsSettled();
    assert.ok(slotted.read.chars < wholeText / 3, `${slotted.read.chars} characters read with the slot refused`);
    const slots = { taken: 0, held: 0 };
    const take = () => {
      slots.taken++;
      slots.held++;
      return () => void slots.held--;
    };
    const given = await withSlots.versionRows(id, '1', { start: 2_990, count: 5 }, { hold, take });
    assert.deepEqual(given.data, versions.get(1)!.slice(2_990, 2_995));
    await withSlots.rowsSettled();
    assert.deepEqual(slots, { taken: 1, held: 0 }, 'one slot taken for the rebuild behind, given back once kept');
    const kept = slotted.read.chars;
    await withSlots.versionRows(id, '1', { start: 1_000, count: 5 }, { hold, take });
    assert.ok(slotted.read.chars - kept < wholeText / 20, 'kept: a later window reads no chunk');
    assert.equal(slots.taken, 1, 'no slot taken for a kept version');
  });

  it('a version rebuilt by batches is given up, not stitched, when its layout changes between batches', async () => {
    const sizes = [500, 500, 500];
    let call = 0;
    const span = async () => {
      call++;
      // The second batch sees the live grid saved meanwhile: another layout.
      const now = call === 1 ? sizes : [500, 1_000];
      return { headers: ['A'], rowCount: 1_500, colCount: 1, chunks: now.map((_, i) => (i === 0 ? '[["a"]]' : '')), sizes: now };
    };
    await assert.rejects(rebuildInBatches(span, 1), /layout of the version changed/);
  });

  it('a column insert and a removal write no chunk; the sheet, every version and a duplicate read back exactly; caught up, the chunks hold the new columns and the size is exact', async () => {
    const start = labelled(1_200);
    const id = await create(start);
    const versions = new Map<number, GridData>([[1, start]]);
    let model = start;
    let cols = COLS;

    const before = await stored(id);
    const step = async (op: StoredStructureOp) => {
      const r = await sheets.applyStructure(id, op, userId);
      model = apply(model, cols, op);
      cols += op.type === 'columns_insert' ? op.count : -op.count;
      versions.set(r.version, model);
      return r.version;
    };
    await step({ type: 'columns_insert', index: 1, count: 2 });
    await step({ type: 'columns_remove', index: 0, count: 1 });
    assert.deepEqual(await stored(id), before, 'no chunk was written by the column ops');
    assert.deepEqual(model[0], ['', '', 'r0c1', 'r0c2']);
    await checkAll(id, versions, 3, 'before the catch-up');

    // A cell written in a chunk behind: that chunk is written as of its version (with the new columns).
    const edit = await sheets.patchCells(id, { base_version: 3, changes: [{ row: 700, col: 0, value: 'typed' }] }, userId);
    model = setCell(model, 700, 0, 'typed');
    versions.set(edit.version, model);
    assert.equal((await chunksBehind(db, id)).length, 2, 'the chunk written by the edit is no longer behind');
    await checkAll(id, versions, edit.version, 'after an edit');

    const copy = await sheets.duplicate(id, userId, null);
    assert.deepEqual((await sheets.readGrid(copy.id)).data, model, 'the duplicate');
    assert.equal((await chunksBehind(db, copy.id)).length, 0, 'a duplicate has no column ops to apply');
    assert.equal(Number((await sheetRow(copy.id)).byte_size), await bytesOf(copy.id, model), 'the duplicate says its size');

    assert.equal(await catchUpAll(id), 2);
    assert.equal((await chunksBehind(db, id)).length, 0);
    const caughtUp = await stored(id);
    assert.deepEqual(JSON.parse(joinChunkTexts(caughtUp.map((c) => c.rows))), model, 'the stored text is the sheet');
    // The content of a caught-up chunk is that of the column op's version, not a new one.
    assert.deepEqual(
      caughtUp.map((c) => c.version),
      [3, 4, 3],
    );
    assert.equal(Number((await sheetRow(id)).byte_size), await bytesOf(id, model), 'the size is exact again');
    await checkAll(id, versions, edit.version, 'after the catch-up');
    // A snapshot taken after the catch-up (a row op) still rebuilds every version.
    await step({ type: 'rows_insert', index: 0, count: 1 });
    await checkAll(id, versions, edit.version + 1, 'after a row op');
  });

  it('cells written while chunks are caught up: every write lands, none waits on the other for good (PostgreSQL: one lock order)', async () => {
    let model = labelled(2_300);
    const id = await create(model);
    let live = 1;
    let cols = COLS;
    for (let round = 0; round < 4; round++) {
      const op: StoredStructureOp = { type: 'columns_insert', index: round % 2, count: 1 };
      live = (await sheets.applyStructure(id, op, userId)).version;
      model = apply(model, cols, op);
      cols++;
      const ids = (await chunksBehind(db, id)).map((c) => c.chunk);
      // One catch-up per chunk, all at once, and a stream of cell writes into every chunk meanwhile.
      const edits = (async () => {
        for (let k = 0; k < 10; k++) {
          const row = (k * 487 + round) % model.length;
          live = (await sheets.patchCells(id, { base_version: live, changes: [{ row, col: 0, value: `w${round}.${k}` }] }, userId)).version;
          model = setCell(model, row, 0, `w${round}.${k}`);
        }
      })();
      await Promise.all([edits, ...ids.map((chunk) => catchUpChunks(db, id, [chunk]))]);
    }
    assert.deepEqual((await sheets.readGrid(id)).data, model);
    await catchUpAll(id);
    assert.equal(Number((await sheetRow(id)).byte_size), await bytesOf(id, model), 'the size, caught up');
  });

  const cellValue = fc.constantFrom<CellValue>('x', 'a,b', '[y]', '"q"', 'back\\slash', '', 7, -1.5, true, null);
  type Step =
    | { kind: 'cell'; row: number; col: number; value: CellValue }
    | { kind: 'structure'; type: StoredStructureOp['type']; at: number; count: number }
    | { kind: 'save'; row: number; col: number; value: CellValue }
    | { kind: 'catchUp'; share: number };
  const stepArb: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('cell' as const), row: fc.nat(), col: fc.nat(6), value: cellValue }),
    {
      arbitrary: fc.record({
        kind: fc.constant('structure' as const),
        type: fc.constantFrom('rows_insert' as const, 'rows_remove' as const, 'columns_insert' as const, 'columns_remove' as const),
        at: fc.nat(),
        count: fc.integer({ min: 1, max: 3 }),
      }),
      weight: 3,
    },
    // A save's cells are what a client holds: text and numbers.
    fc.record({ kind: fc.constant('save' as const), row: fc.nat(), col: fc.nat(4), value: fc.constantFrom<CellValue>('saved', 'a,b', '[z]', 3) }),
    fc.record({ kind: fc.constant('catchUp' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
  );

  it('any mix of cell edits, rows and columns, whole-grid saves and partial catch-ups: the sheet and every version read back exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 3, maxLength: 9 }), async (steps) => {
        const start = labelled(1_200);
        const id = await create(start);
        const versions = new Map<number, GridData>([[1, start]]);
        let model = start;
        let cols = COLS;
        let live = 1;
        for (const s of steps) {
          const rows = model.length;
          if (s.kind === 'catchUp') {
            const behind = await chunksBehind(db, id);
            await catchUpChunks(db, id, behind.slice(0, Math.ceil(behind.length * s.share)).map((c) => c.chunk));
            continue;
          }
          if (s.kind === 'cell') {
            if (rows === 0) continue;
            const row = s.row % rows;
            live = (await sheets.patchCells(id, { base_version: live, changes: [{ row, col: s.col, value: s.value }] }, userId)).version;
            model = setCell(model, row, s.col, s.value);
            cols = (await sheetRow(id)).col_count;
          } else if (s.kind === 'save') {
            if (rows === 0) continue;
            const next = setCell(model, s.row % rows, s.col, s.value);
            live = (await sheets.update(id, { data: next, base_version: live }, userId)).version;
            model = next;
            cols = (await sheetRow(id)).col_count;
          } else {
            const columns = s.type.startsWith('columns');
            const size = columns ? cols : rows;
            const remove = s.type.endsWith('remove');
            if (remove && size === 0) continue;
            const index = s.at % (remove ? size : size + 1);
            const count = remove ? Math.min(s.count, size - index) : s.count;
            const op = { type: s.type, index, count };
            live = (await sheets.applyStructure(id, op, userId)).version;
            model = apply(model, cols, op);
            if (columns) cols += remove ? -count : count;
          }
          versions.set(live, model);
          assert.equal((await sheetRow(id)).col_count, cols, 'the width');
        }
        await checkAll(id, versions, live, 'mixed steps');
        await catchUpAll(id);
        assert.equal((await chunksBehind(db, id)).length, 0);
        assert.equal(Number((await sheetRow(id)).byte_size), await bytesOf(id, model), 'the size, caught up');
        await checkAll(id, versions, live, 'mixed steps, caught up');
      }),
      { numRuns: 12 },
    );
  });
});
