import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CellValue, type ColumnFilterBody, FILTER_TEXTS_MAX, FILTER_VALUES_SHOWN, valueMatchesSearch, cellMatches, columnFilterOf, columnFilterTest, distinctValues, shownCellText, SheetFilterResultSchema, SheetFilterValuesResultSchema, unpackRuns, FIND_COUNT_CAP, type FindMatch, FindResultSchema, findNeedle, formulasOverLimit, type GridData, heldCells, HYBRID_MAX_CELLS, SHEET_ROWS_WINDOW_MAX, SheetRowsSchema, SheetSchema, WINDOWED_SHEET_MIN_ROWS } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import type { StoredStructureOp } from '../src/sheets/sheet-ops.tables.js';
import { catchUpChunks, exactHeldCells } from '../src/sheets/sheet-store.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { restructure } from '../src/sheets/structure-op.js';
import { apiClient } from './support/api-client.js';
import { login, signupAdmin } from './support/auth-helpers.js';
import { pgliteTemplate } from './support/pglite-template.js';
import { createPgDatabase, createTestApp, type TestApp } from './support/test-app.js';

/**
 * Issue 23 (million-row sheets): a window of a sheet's rows (GET /sheets/:id/rows) is exactly the
 * same rows of the whole sheet (GET /sheets/:id), wherever it falls against the stored 500-row
 * chunks, after rows were inserted or removed (chunks of any size) and after a column insert whose
 * op is still pending on the chunks; and it reads only the chunks it overlaps.
 */
const COLS = 3;
/** Rows that say where they started: "r12c1" ... */
const labelled = (rows: number): GridData => Array.from({ length: rows }, (_, r) => Array.from({ length: COLS }, (_, c) => `r${r}c${c}`));

describe('a window of rows, read from the chunks it overlaps', () => {
  let db: Kysely<Database>;
  let sheets: SheetsService;
  let cleanup: () => Promise<void>;
  const userId = crypto.randomUUID();
  before(async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-api-rows-'));
    const pgDb = process.env.TEST_PG_URL ? await createPgDatabase(process.env.TEST_PG_URL) : undefined;
    if (!pgDb) await fs.cp(await pgliteTemplate(), path.join(dataDir, 'api'), { recursive: true });
    db = await openDatabase({ databaseUrl: pgDb?.url, pgliteDir: path.join(dataDir, 'api') });
    // No column compactor here: column ops stay pending on the chunks, as between two catch-ups.
    sheets = new SheetsService(db);
    await sql`INSERT INTO users (id, username, password_hash, role) VALUES (${userId}::uuid, 'rows', 'x', 'admin')`.execute(db);
    cleanup = async () => {
      await db.destroy();
      await pgDb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  });
  after(() => cleanup());

  const create = async (data: GridData) => (await sheets.create({ name: `Rows ${crypto.randomUUID().slice(0, 8)}`, data }, userId)).id;
  /** A labelled sheet of `rows` rows and its model, which `step` keeps equal to the sheet through each structure op it applies. */
  const restructured = async (rows: number) => {
    const sheet = { id: '', model: labelled(rows), columns: COLS };
    sheet.id = await create(sheet.model);
    const step = async (op: StoredStructureOp) => {
      await sheets.applyStructure(sheet.id, op, userId);
      sheet.model = restructure(structuredClone(sheet.model), [], sheet.columns, op).grid;
      if (op.type === 'columns_insert') sheet.columns += op.count;
    };
    return { sheet, step };
  };
  /** Every window of `windows` equals the same rows of the whole sheet, with the sheet's size and version. */
  const checkWindows = async (id: string, model: GridData, columns: number, windows: [number, number][], label: string) => {
    const whole = await sheets.readGrid(id);
    assert.deepEqual(whole.data, model, `${label}: the whole sheet`);
    for (const [start, count] of windows) {
      const w = await sheets.rowWindow(id, { start, count });
      const at = `${label}: rows ${start}..${start + count - 1}`;
      assert.deepEqual(w.data, model.slice(start, start + count), at);
      assert.deepEqual(
        { id: w.id, version: w.version, row_count: w.row_count, column_count: w.column_count, start: w.start },
        { id, version: whole.summary.version, row_count: model.length, column_count: columns, start },
        at,
      );
    }
  };
  const chunkSizes = async (id: string) => (await db.selectFrom('sheet_chunks').select('n').where('sheet_id', '=', id).orderBy('ord').execute()).map((c) => c.n);

  it('at chunk boundaries, across chunks and past the end: the same rows as the whole sheet', async () => {
    // 2,300 rows: chunks of 500, 500, 500, 500 and 300 rows.
    const model = labelled(2_300);
    const id = await create(model);
    assert.deepEqual(await chunkSizes(id), [500, 500, 500, 500, 300]);
    await checkWindows(
      id,
      model,
      COLS,
      [
        [0, 1], [0, 500], [500, 500], [499, 2], [1, 499], [450, 1_100], [0, 2_300], [0, SHEET_ROWS_WINDOW_MAX],
        [1_999, 1], [2_000, 300], [2_200, 500], [2_299, 1], [2_300, 10], [5_000, 1],
      ],
      'fresh chunks',
    );
  });

  it('after rows inserted and removed (chunks of any size) and a column inserted (pending on the chunks): the same rows as the whole sheet', async () => {
    const { sheet, step } = await restructured(1_700);
    const { id } = sheet;
    await step({ type: 'rows_insert', index: 0, count: 3 });
    await step({ type: 'rows_remove', index: 600, count: 120 });
    await step({ type: 'rows_insert', index: 1_000, count: 40 });
    const sizes = await chunkSizes(id);
    assert.notDeepEqual(sizes, [500, 500, 500, 200], 'the row ops left chunks of other sizes');
    // Each chunk's first row, and the rows either side of it.
    const edges = sizes.reduce<number[]>((starts, n) => [...starts, starts.at(-1)! + n], [0]);
    const windows: [number, number][] = [[0, sheet.model.length], [sheet.model.length - 1, 5], ...edges.flatMap((e): [number, number][] => [[Math.max(0, e - 1), 2], [e, 1], [Math.max(0, e - 3), 700]])];
    await checkWindows(id, sheet.model, sheet.columns, windows, 'after row ops');

    const stored = await sql<{ rows: string }>`SELECT rows::text AS rows FROM sheet_chunks WHERE sheet_id = ${id}::uuid ORDER BY ord`.execute(db);
    await step({ type: 'columns_insert', index: 1, count: 2 });
    const after = await sql<{ rows: string }>`SELECT rows::text AS rows FROM sheet_chunks WHERE sheet_id = ${id}::uuid ORDER BY ord`.execute(db);
    assert.deepEqual(after.rows, stored.rows, 'the column insert is pending on the chunks (none rewritten)');
    assert.deepEqual(sheet.model[3].slice(0, 3), ['r0c0', '', '']);
    await checkWindows(id, sheet.model, sheet.columns, windows, 'after a column insert');
  });

  it('with col_start and col_count: exactly those columns of those rows, as the whole window sliced (ragged rows, texts with brackets and quotes, a pending column insert)', async () => {
    // Rows of 0 to 5 cells; texts that hold the characters a scan of the stored text must not take for structure.
    const tricky = ['a,b', 'x]y', '[z', 'q"u\\o"te', '\\', ''];
    let model: GridData = Array.from({ length: 1_200 }, (_, r) => Array.from({ length: r % 6 }, (_, c): CellValue => (c === 1 ? tricky[r % tricky.length] : c === 2 ? (r % 2 === 0 ? r : null) : c === 3 ? r % 5 === 0 : `r${r}c${c}`)));
    const id = await create(model);
    const check = async (label: string) => {
      for (const [start, count] of [[0, 1_200], [499, 2], [450, 600], [1_199, 5]] as [number, number][]) {
        const whole = (await sheets.rowWindow(id, { start, count })).data;
        for (const [col_start, col_count] of [[0, 1], [1, 1], [1, 2], [0, 6], [2, 3], [4, 1], [5, 3], [9, 2]] as [number, number][]) {
          const w = await sheets.rowWindow(id, { start, count, col_start, col_count });
          const at = `${label}: rows ${start}+${count}, columns ${col_start}+${col_count}`;
          assert.deepEqual(w.data, whole.map((row) => row.slice(col_start, col_start + col_count)), at);
          assert.deepEqual(w.data, model.slice(start, start + count).map((row) => row.slice(col_start, col_start + col_count)), at);
          assert.equal(w.col_start, col_start, at);
        }
      }
    };
    await check('fresh chunks');
    await sheets.applyStructure(id, { type: 'columns_insert', index: 1, count: 1 }, userId);
    model = restructure(structuredClone(model), [], 5, { type: 'columns_insert', index: 1, count: 1 }).grid;
    await check('a column insert pending on the chunks');
  });

  it("keeps the count of cells the formula engine would hold (contracts heldCells) through edits and row ops; unknown while a column op is pending", async () => {
    // Ragged rows, rows ending in empty cells, an empty string (held) and a row of nothing.
    const model: GridData = [['a', null, 'b', null], [null], [], ['', null], ...labelled(1_200)];
    const id = await create(model);
    const held = () => exactHeldCells(db, id);
    /** The sheet's cells as every read gives them (column ops applied). */
    const stored = async () => (await sheets.readGrid(id)).data;
    assert.equal(await held(), heldCells(model));
    // A cell emptied at a row's end, one written past it and one beyond the last row.
    const changes = [{ row: 0, col: 2, value: null }, { row: 1, col: 5, value: 7 }, { row: 1_300, col: 1, value: 'x' }];
    await sheets.patchCells(id, { base_version: (await sheets.readGrid(id)).summary.version, changes }, userId);
    assert.deepEqual((await stored())[0], ['a', null, null, null]);
    assert.equal(await held(), heldCells(await stored()));
    // A value changed inside a row (the chunk's count as it was), then a whole-grid save that empties row ends.
    await sheets.patchCells(id, { base_version: (await sheets.readGrid(id)).summary.version, changes: [{ row: 10, col: 1, value: 'mid' }] }, userId);
    assert.equal(await held(), heldCells(await stored()));
    const before = heldCells(await stored());
    await sheets.update(id, { data: (await stored()).map((row, r) => (r % 3 === 0 ? row.map((v, c) => (c > 0 ? null : v)) : row)) }, userId);
    assert.equal(await held(), heldCells(await stored()));
    assert.ok(heldCells(await stored()) < before - 500, 'the save emptied cells');
    await sheets.applyStructure(id, { type: 'rows_remove', index: 2, count: 600 }, userId);
    await sheets.applyStructure(id, { type: 'rows_insert', index: 0, count: 2 }, userId);
    assert.equal(await held(), heldCells(await stored()));
    // A column op is applied to the chunks when they are caught up: until then the stored count is not the sheet's.
    await sheets.applyStructure(id, { type: 'columns_insert', index: 0, count: 1 }, userId);
    assert.equal(await held(), undefined);
    const behind = (await sql<{ chunk: number }>`SELECT chunk FROM sheet_chunks WHERE sheet_id = ${id}::uuid`.execute(db)).rows.map((c) => c.chunk);
    await catchUpChunks(db, id, behind);
    assert.equal(await held(), heldCells(await stored()));
  });

  it('find: the next matches in row order across windows and chunks of any size (a column op pending), with their places, a wrap, and the count', async () => {
    // 12,300 rows: three windows of 5,000 (the scan's), chunks of 500 moved by row ops; 'x7' in rows 7, 70-79, 700-799, 7000-7999 ...
    const { sheet, step } = await restructured(12_300);
    const { id } = sheet;
    await step({ type: 'rows_insert', index: 4_990, count: 30 });
    await step({ type: 'rows_remove', index: 10, count: 5 });
    await step({ type: 'columns_insert', index: 0, count: 1 });
    const { version } = await sheets.rowWindow(id, { start: 0, count: 1 });
    await sheets.patchCells(id, { base_version: version, changes: [{ row: 12_000, col: 0, value: 'R77C0 typed' }] }, userId);
    sheet.model[12_000][0] = 'R77C0 typed';
    // Every match of the model, in row order: what the scan must agree with.
    const all: FindMatch[] = [];
    sheet.model.forEach((row, r) => row.forEach((cell, c) => cellMatches(cell, findNeedle('77C0')) && all.push([r, c, all.length + 1])));
    assert.ok(all.length > 20 && all.length < FIND_COUNT_CAP);
    const first = await sheets.find(id, { q: '77C0', direction: 'next', limit: 5 });
    assert.deepEqual(first, { id, version: first.version, row_count: sheet.model.length, matches: all.slice(0, 5), total: all.length, complete: true, wrapped: false });
    // After a match near the end: the last ones, then round to the first.
    const near = all.at(-2)!;
    const wrapped = await sheets.find(id, { q: '77c0', after_row: near[0], after_col: near[1], direction: 'next', limit: 3 });
    assert.deepEqual(wrapped.matches, [all.at(-1), all[0], all[1]]);
    assert.equal(wrapped.wrapped, true);
    const back = await sheets.find(id, { q: '77c0', after_row: all[1][0], after_col: all[1][1], direction: 'prev', limit: 2 });
    assert.deepEqual(back.matches, [all[0], all.at(-1)]);
    // Past the cap: the scan stops once the matches asked for are found; the count says how far it got.
    const many = await sheets.find(id, { q: 'c1', direction: 'next', limit: 2 });
    assert.equal(many.complete, false);
    assert.ok(many.total > FIND_COUNT_CAP && many.total < sheet.model.length);
    assert.deepEqual(many.matches, [[0, 2, 1], [1, 2, 2]]);
    assert.deepEqual((await sheets.find(id, { q: 'nowhere', direction: 'next', limit: 5 })).matches, []);
    // A number by the text it shows, however the stored JSON spells it (chunks passed over unparsed only when that cannot miss one).
    const numbers = await create([[1e21, 1.5, 'Price "x"'], [true, -0.0000001, null]]);
    const found = async (q: string) => (await sheets.find(numbers, { q, direction: 'next', limit: 10 })).matches.map(([r, c]) => [r, c]);
    assert.deepEqual(await found('e+21'), [[0, 0]]);
    assert.deepEqual(await found('1e-7'), [[1, 1]]);
    assert.deepEqual(await found('"X"'), [[0, 2]]);
    assert.deepEqual(await found('TRU'), [[1, 0]]);
  });

  it('find: rows inserted while it scans (it holds no transaction across windows) — the answer is of one layout, scanned again', async () => {
    const model = labelled(SHEET_ROWS_WINDOW_MAX + 1_000);
    model[10][0] = 'needle';
    model[SHEET_ROWS_WINDOW_MAX + 500][0] = 'needle';
    const id = await create(model);
    let checks = 0;
    let inserted: Promise<unknown> | undefined;
    // Between the first window and the second: 10 rows inserted above both matches.
    const closed = () => {
      if (++checks === 2) inserted = sheets.applyStructure(id, { type: 'rows_insert', index: 0, count: 10 }, userId);
      return false;
    };
    const found = await sheets.find(id, { q: 'needle', direction: 'next', limit: 5 }, closed);
    await inserted;
    const rows = found.matches.map(([r]) => r);
    // Both before the insert or both after it, never one of each (PGlite runs the insert between the two windows: after).
    assert.ok(
      JSON.stringify(rows) === JSON.stringify([10, SHEET_ROWS_WINDOW_MAX + 500]) || JSON.stringify(rows) === JSON.stringify([20, SHEET_ROWS_WINDOW_MAX + 510]),
      `matches of one layout: ${rows.join(', ')}`,
    );
    assert.equal(found.row_count, rows[0] === 20 ? model.length + 10 : model.length);
  });

  it("filter: the rows and a column's values a whole grid shows, across windows and chunks of any size (row ops, a column op pending); rows moved while it scans: scanned again", async () => {
    // 11,050 rows: a status, an amount, a formula's text (a windowed grid shows it), empty rows at the end (outside the filter's range).
    const STATUS = ['open', 'Closed', 'pending', '', 'open'];
    let model: GridData = Array.from({ length: 11_050 }, (_, r) => (r >= 11_000 ? [null, null, null] : [STATUS[r % 5], r % 97, r % 7 === 0 ? `=B${r + 1}*2` : `n${r}`]));
    const id = await create(model);
    let columns = 3;
    for (const op of [{ type: 'rows_insert', index: 4_990, count: 30 }, { type: 'rows_remove', index: 10, count: 5 }, { type: 'columns_insert', index: 1, count: 1 }] as StoredStructureOp[]) {
      await sheets.applyStructure(id, op, userId);
      model = restructure(structuredClone(model), [], columns, op).grid;
      if (op.type === 'columns_insert') columns += op.count;
    }
    assert.deepEqual((await sheets.readGrid(id)).data, model);
    const filters: ColumnFilterBody[] = [
      { column: 0, values: { mode: 'except', texts: ['Closed', ''] }, condition: null },
      { column: 2, values: null, condition: { kind: 'less', value: '50' } },
      { column: 3, values: null, condition: { kind: 'contains', value: '=b' } },
    ];
    // What the whole grid shows: its range up to the last row with a value, each row judged on its cells' text (grid-filter.ts).
    const whole = (except?: number) => {
      let used = 0;
      model.forEach((row, r) => row.some((v) => v !== null && v !== '') && (used = r + 1));
      const tests = filters.filter((f) => f.column !== except).map((f) => [f.column, columnFilterTest(columnFilterOf(f))] as const);
      return { used, rows: Array.from({ length: used }, (_, r) => r).filter((r) => tests.every(([c, test]) => test(model[r][c]))) };
    };
    const expected = whole();
    assert.ok(expected.rows.length > 100 && expected.used < model.length);
    const result = await sheets.filterRows(id, { filters });
    const runs = unpackRuns(result.runs, result.row_count)!;
    const shown: number[] = [];
    for (let i = 0; i < runs.length; i += 2) for (let k = 0; k < runs[i + 1]; k++) shown.push(runs[i] + k);
    const below = Array.from({ length: model.length - expected.used }, (_, k) => expected.used + k);
    assert.deepEqual(shown, [...expected.rows, ...below]);
    assert.deepEqual([result.shown, result.rows, result.row_count], [expected.rows.length, expected.used, model.length]);
    // The values of column 0 in the rows the other filters show (its own left out), as the dialog lists them.
    const others = whole(0);
    const values = await sheets.filterValues(id, { filters, column: 0, search: '' });
    assert.deepEqual(values.values, distinctValues(others.rows.map((r) => shownCellText(model[r][0]))).values);
    assert.deepEqual(values.values.map(([text]) => text), ['Closed', 'open', 'pending', '']);
    assert.equal(values.more, 0);
    // Every value matching a search, not the first 200 (the dialog's Select all / Clear with it), as many as a filter may list.
    const texts = (search: string) => distinctValues(whole(3).rows.map((r) => shownCellText(model[r][3])).filter((t) => valueMatchesSearch(t, search))).values;
    const n1 = texts('n1');
    assert.ok(n1.length > FILTER_VALUES_SHOWN && n1.length < FILTER_TEXTS_MAX);
    assert.deepEqual(await sheets.filterValues(id, { filters, column: 3, search: 'n1', all: false }), { id, version: values.version, values: n1.slice(0, FILTER_VALUES_SHOWN), more: n1.length - FILTER_VALUES_SHOWN });
    assert.deepEqual(await sheets.filterValues(id, { filters, column: 3, search: 'n1', all: true }), { id, version: values.version, values: n1, more: 0 });
    await assert.rejects(sheets.filterRows(id, { filters: [{ column: columns, values: null, condition: null }] }), /column 4 is not in the sheet/);

    // Rows inserted between the first window and the second: the answer is of one layout, before the insert or after it
    // (scanned again; PGlite runs the insert between the two windows: after).
    let checks = 0;
    let inserted: Promise<unknown> | undefined;
    const closed = () => {
      if (++checks === 2) inserted = sheets.applyStructure(id, { type: 'rows_insert', index: 0, count: 10 }, userId);
      return false;
    };
    const moved = await sheets.filterRows(id, { filters }, closed);
    await inserted;
    const shift = moved.row_count - model.length;
    assert.ok(shift === 0 || shift === 10, `rows ${moved.row_count}`);
    assert.equal(moved.shown, expected.rows.length);
    assert.equal(unpackRuns(moved.runs, moved.row_count)![0], expected.rows[0] + shift);
  });

  it("find with a row filter on: the matches and count of the rows it shows, as the whole grid's find over its filtered rows, across windows and chunks of any size (row ops, a column op pending)", async () => {
    // 11,050 rows: a status, an amount, a formula's text; empty rows at the end. Three windows of the scan's, chunks moved by row ops.
    const STATUS = ['open', 'Closed', 'pending', '', 'open'];
    let model: GridData = Array.from({ length: 11_050 }, (_, r) => (r >= 11_000 ? [null, null, null] : [STATUS[r % 5], r % 97, r % 7 === 0 ? `=B${r + 1}*2` : `n${r}`]));
    const id = await create(model);
    let columns = 3;
    for (const op of [{ type: 'rows_insert', index: 4_990, count: 30 }, { type: 'rows_remove', index: 10, count: 5 }, { type: 'columns_insert', index: 1, count: 1 }] as StoredStructureOp[]) {
      await sheets.applyStructure(id, op, userId);
      model = restructure(structuredClone(model), [], columns, op).grid;
      if (op.type === 'columns_insert') columns += op.count;
    }
    const filters: ColumnFilterBody[] = [
      { column: 0, values: { mode: 'except', texts: ['Closed', ''] }, condition: null },
      { column: 2, values: null, condition: { kind: 'less', value: '50' } },
    ];
    const tests = filters.map((f) => [f.column, columnFilterTest(columnFilterOf(f))] as const);
    // The whole grid's find with its filter on: a hidden row holds no match (the rows below its range, shown, are empty: none either); places count the shown ones.
    const shownMatches = (q: string) => {
      const all: FindMatch[] = [];
      model.forEach((row, r) => tests.every(([c, test]) => test(row[c])) && row.forEach((cell, c) => cellMatches(cell, findNeedle(q)) && all.push([r, c, all.length + 1])));
      return all;
    };
    const all = shownMatches('=b1');
    assert.ok(all.length > 20 && all.length < FIND_COUNT_CAP);
    const unfiltered = await sheets.find(id, { q: '=b1', direction: 'next', limit: 5 });
    assert.ok(unfiltered.total > all.length * 2, 'the filter hides most matches');
    const first = await sheets.find(id, { q: '=B1', direction: 'next', limit: 5 }, undefined, filters);
    assert.deepEqual(first, { id, version: first.version, row_count: model.length, matches: all.slice(0, 5), total: all.length, complete: true, wrapped: false });
    // Past the second window, after a match there: on in shown rows only, then round to the first.
    const near = all.findLastIndex(([r]) => r < SHEET_ROWS_WINDOW_MAX * 2);
    assert.ok(near > 0 && near < all.length - 3);
    const on = await sheets.find(id, { q: '=b1', after_row: all[near][0], after_col: all[near][1], direction: 'next', limit: 500 }, undefined, filters);
    assert.deepEqual(on.matches, [...all.slice(near + 1), ...all.slice(0, near + 1)]);
    assert.equal(on.wrapped, true);
    const back = await sheets.find(id, { q: '=b1', after_row: all[1][0], after_col: all[1][1], direction: 'prev', limit: 2 }, undefined, filters);
    assert.deepEqual(back.matches, [all[0], all.at(-1)]);
    // Past the cap: the count stops there, the matches are the first shown ones.
    const many = shownMatches('1');
    assert.ok(many.length > FIND_COUNT_CAP);
    const capped = await sheets.find(id, { q: '1', direction: 'next', limit: 3 }, undefined, filters);
    assert.deepEqual(capped.matches, many.slice(0, 3));
    assert.equal(capped.complete, false);
    assert.ok(capped.total > FIND_COUNT_CAP && capped.total < many.length);
    // No filter at all: every row (as GET's).
    assert.deepEqual(await sheets.find(id, { q: '=b1', direction: 'next', limit: 5 }, undefined, []), unfiltered);
    await assert.rejects(sheets.find(id, { q: 'a', direction: 'next', limit: 5 }, undefined, [{ column: columns, values: null, condition: null }]), /column 4 is not in the sheet/);
  });

  it('reads no chunk outside the window: a window far from an unreadable chunk is answered', async () => {
    const model = labelled(1_500);
    const id = await create(model);
    // The last chunk's text made into something no read could use as rows.
    await sql`UPDATE sheet_chunks SET rows = '{"not": "rows"}' WHERE sheet_id = ${id}::uuid AND ord = (SELECT max(ord) FROM sheet_chunks WHERE sheet_id = ${id}::uuid)`.execute(db);
    assert.deepEqual((await sheets.rowWindow(id, { start: 100, count: 900 })).data, model.slice(100, 1_000));
    await assert.rejects(sheets.rowWindow(id, { start: 999, count: 2 }), 'the window that overlaps it does read it');
  });
});

describe('GET /api/v1/sheets/:id/rows', () => {
  let t: TestApp;
  before(async () => (t = await createTestApp()));
  after(() => t.close());

  it('answers the same rows as GET /sheets/:id, with its version and size; the default window is the first rows', async () => {
    const admin = await signupAdmin(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const model = labelled(6_100);
    const created = await api.post('/api/v1/sheets', { name: 'Window', data: model });
    assert.equal(created.statusCode, 201, created.body);
    const sheet = SheetSchema.parse((await api.get(`/api/v1/sheets/${created.json().id}`)).json());
    for (const [start, count] of [[0, 10], [495, 10], [6_000, 500], [6_100, 1]]) {
      const res = await api.get(`/api/v1/sheets/${sheet.id}/rows?start=${start}&count=${count}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(SheetRowsSchema.parse(res.json()), {
        id: sheet.id,
        version: sheet.version,
        row_count: 6_100,
        column_count: COLS,
        start,
        data: sheet.data.slice(start, start + count),
      });
    }
    const first = SheetRowsSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}/rows`)).json());
    assert.equal(first.start, 0);
    assert.deepEqual(first.data, sheet.data.slice(0, SHEET_ROWS_WINDOW_MAX));
    assert.equal(first.sheet, undefined, 'no summary unless asked for');
    // summary=1: what a windowed grid opens with, the same summary GET /sheets/:id carries.
    const withSummary = SheetRowsSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}/rows?start=0&count=1&summary=1`)).json());
    const { data: _cells, ...summary } = sheet;
    assert.deepEqual(withSummary.sheet, summary);
    assert.deepEqual(withSummary.data, sheet.data.slice(0, 1));
    const refused = await api.get(`/api/v1/sheets/${sheet.id}/rows?summary=yes`);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().error.message, 'summary must be 1');
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });

  it('GET /sheets/:id/find answers the next matches at the sheet\'s version, as described', async () => {
    const admin = await login(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const created = await api.post('/api/v1/sheets', { name: `Find ${crypto.randomUUID().slice(0, 8)}`, data: labelled(1_200) });
    assert.equal(created.statusCode, 201, created.body);
    const res = await api.get(`/api/v1/sheets/${created.json().id}/find?q=R1100C2&after_row=3&after_col=0&limit=2`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(FindResultSchema.parse(res.json()), { id: created.json().id, version: created.json().version, row_count: 1_200, matches: [[1_100, 2, 1]], total: 1, complete: true, wrapped: false });
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });

  it('POST /sheets/:id/find answers the matches of the rows a row filter shows, counted among them, as described', async () => {
    const admin = await login(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const created = await api.post('/api/v1/sheets', { name: `Find ${crypto.randomUUID().slice(0, 8)}`, data: [['open', 'pear'], ['closed', 'pear'], ['open', 'Pear tart'], ['open', 'apple']] });
    assert.equal(created.statusCode, 201, created.body);
    const { id, version } = created.json();
    const res = await api.post(`/api/v1/sheets/${id}/find`, { q: 'PEAR', after_row: 0, after_col: 1, limit: 5, filters: [{ column: 0, values: { mode: 'only', texts: ['open'] } }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(FindResultSchema.parse(res.json()), { id, version, row_count: 4, matches: [[2, 1, 2], [0, 1, 1]], total: 2, complete: true, wrapped: true });
    const outside = await api.post(`/api/v1/sheets/${id}/find`, { q: 'a', filters: [{ column: 2, condition: { kind: 'empty', value: '' } }] });
    assert.equal(outside.statusCode, 400, outside.body);
    assert.equal(outside.json().error.message, 'column 2 is not in the sheet (it has 2 columns)');
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });

  it('POST /sheets/:id/filter and /filter/values answer the rows shown and the values at the sheet\'s version, as described', async () => {
    const admin = await login(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const created = await api.post('/api/v1/sheets', { name: `Filter ${crypto.randomUUID().slice(0, 8)}`, data: [['open', 1], ['closed', 2], ['open', '=A1'], ['', 4]] });
    assert.equal(created.statusCode, 201, created.body);
    const { id, version } = created.json();
    const res = await api.post(`/api/v1/sheets/${id}/filter`, { filters: [{ column: 0, values: { mode: 'only', texts: ['open'] } }] });
    assert.equal(res.statusCode, 200, res.body);
    const result = SheetFilterResultSchema.parse(res.json());
    assert.deepEqual({ ...result, runs: Array.from(unpackRuns(result.runs, 4)!) }, { id, version, row_count: 4, rows: 4, shown: 2, runs: [0, 1, 2, 1] });
    const values = await api.post(`/api/v1/sheets/${id}/filter/values`, { filters: [{ column: 0, values: { mode: 'only', texts: ['open'] } }], column: 1, search: '=' });
    assert.equal(values.statusCode, 200, values.body);
    assert.deepEqual(SheetFilterValuesResultSchema.parse(values.json()), { id, version, values: [['=A1', 1]], more: 0 });
    const outside = await api.post(`/api/v1/sheets/${id}/filter/values`, { filters: [], column: 2 });
    assert.equal(outside.statusCode, 400, outside.body);
    assert.equal(outside.json().error.message, 'column 2 is not in the sheet (it has 2 columns)');
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });

  it('GET /sheets/:id?window=N: a sheet shown a window at a time comes with its first N rows in the same request; any other whole', async () => {
    const admin = await login(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const open = async (data: GridData, query: string) => {
      const created = await api.post('/api/v1/sheets', { name: `Open ${crypto.randomUUID().slice(0, 8)}`, data });
      assert.equal(created.statusCode, 201, created.body);
      const res = await api.get(`/api/v1/sheets/${created.json().id}${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: string; windowed?: boolean; data: GridData; metadata: { rows: number; charts?: unknown[] }; may_have_formulas: boolean };
    };
    const big = Array.from({ length: WINDOWED_SHEET_MIN_ROWS }, (_, r): CellValue[] => [r]);
    const windowed = await open(big, '?window=300');
    assert.equal(windowed.windowed, true);
    assert.deepEqual(windowed.data, big.slice(0, 300));
    assert.equal(windowed.metadata.rows, WINDOWED_SHEET_MIN_ROWS);
    // With a chart: still a window (the client's chart reads the rows of its range through windows), the chart in its metadata.
    const chart = { type: 'line', range: { start_row: 0, start_col: 0, end_row: 99_999, end_col: 0 }, categories: 'first_column', title: 'A', x_axis_title: '', y_axis_title: '', legend: 'none', stacked: false, box: { row: 0, col: 2, dx: 0, dy: 0, width: 480, height: 300 } };
    assert.equal((await api.post(`/api/v1/sheets/${windowed.id}/charts`, chart)).statusCode, 201);
    const withChart = (await api.get(`/api/v1/sheets/${windowed.id}?window=300`)).json() as { windowed?: boolean; data: GridData; metadata: { charts?: unknown[] } };
    assert.equal(withChart.windowed, true);
    assert.equal(withChart.data.length, 300);
    assert.equal(withChart.metadata.charts?.length, 1);
    // Without the parameter, with a formula, or smaller: whole, as before.
    assert.equal((await open(big, '')).data.length, WINDOWED_SHEET_MIN_ROWS);
    const withFormula = big.map((r) => [...r]);
    withFormula[7] = ['=A1'];
    const whole = await open(withFormula, '?window=300');
    assert.equal(whole.windowed, undefined);
    assert.equal(whole.data.length, WINDOWED_SHEET_MIN_ROWS);
    const small = await open(labelled(40), '?window=300');
    assert.equal(small.windowed, undefined);
    assert.deepEqual(small.data, labelled(40));
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });

  it('GET /sheets/:id?window=N: a large sheet with formulas the engine could not take (past its bound of held cells) comes windowed, with the count', async () => {
    const admin = await login(t.app);
    const api = apiClient(t.app, admin.accessToken);
    const opened = async (id: string) => {
      const res = await api.get(`/api/v1/sheets/${id}?window=300`);
      assert.equal(res.statusCode, 200, res.body);
      return SheetSchema.parse(res.json());
    };
    // Imported as a user would: 100,000 rows × 27 columns, all held (2,700,000 cells, past 2,600,000), one formula.
    const width = 27;
    assert.ok(WINDOWED_SHEET_MIN_ROWS * width > HYBRID_MAX_CELLS);
    const line = Array<string>(width).fill('1').join(',');
    const csv = [Array.from({ length: width }, (_, c) => `h${c}`).join(','), `=B3,${line.slice(2)}`, ...Array<string>(WINDOWED_SHEET_MIN_ROWS - 1).fill(line)].join('\n');
    const imported = await api.upload('/api/v1/import', { filename: 'over.csv', content: csv });
    assert.equal(imported.statusCode, 201, imported.body);
    const over = await opened((imported.json() as { sheets: { id: string }[] }).sheets[0].id);
    assert.equal(over.windowed, true);
    assert.equal(over.may_have_formulas, true);
    assert.equal(over.held_cells, WINDOWED_SHEET_MIN_ROWS * width);
    assert.equal(over.data.length, 300);
    assert.equal(over.data[0][0], '=B3');
    assert.match(formulasOverLimit(over.held_cells!, HYBRID_MAX_CELLS), /2,700,000 of at most 2,600,000/);
    // As many rows × columns, but most rows hold one cell (100,026 held): the engine computes it, so whole.
    const ragged: GridData = [Array.from({ length: width }, (_, c) => (c === 0 ? '=B2' : c)), ...Array.from({ length: WINDOWED_SHEET_MIN_ROWS - 1 }, (_, r): CellValue[] => [r])];
    const created = await api.post('/api/v1/sheets', { name: `Ragged ${crypto.randomUUID().slice(0, 8)}`, data: ragged });
    assert.equal(created.statusCode, 201, created.body);
    const whole = await opened(created.json().id);
    assert.equal(whole.metadata.columns, width);
    assert.equal(whole.windowed, undefined);
    assert.equal(whole.held_cells, heldCells(ragged));
    assert.equal(whole.data.length, WINDOWED_SHEET_MIN_ROWS);
    assert.deepEqual(t.responseCheck.violations, [], 'every answer matches its OpenAPI description');
  });
});
