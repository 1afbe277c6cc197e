import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CLEAR_TEXTS,
  EDIT_DROPPED_TEXT,
  type GridData,
  type LiveOperation,
  type LiveServerFrame,
  LiveSheet,
  SHEET_REPLACED_TEXT,
  STRUCTURE_DROPPED_TEXT,
  SheetSchema,
  SORT_TEXTS,
  type StructureOperation,
} from '@tessera/contracts';
import { sql } from 'kysely';
import { captureSnapshot } from '../src/versions/version-recorder.js';
import { LiveClient } from './live-client.js';
import { closeLiveStack, labelledGrid as labelled, liveSheetTools, type LiveStack, startLiveStack } from './support/live-stack.js';
import { signedInMember } from './support/members.js';
import { seededRandom } from './support/seeded-random.js';

/**
 * Concurrent row and column edits keep every edit on its cell (issue 17 §2): live operations
 * carry the version their client had applied (`base_version`), and the server moves them
 * through the rows and columns inserted or removed since; an edit whose cell is gone is dropped
 * and its sender told with an error frame naming it. Real `ws` clients on loopback.
 */
describe('live operations through concurrent rows and columns', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const { sheet, server, join, send } = liveSheetTools(() => ({ t, base, admin, bob, api }), open, 'Concurrent');

  it('A removes row 1 while B types into row 2 on the version before: B’s value lands on B’s row', async () => {
    const s = await sheet(labelled(4, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);

    send(a, s.id, { id: 'a-del', type: 'rows_remove', index: 1, count: 1, base_version: s.version });
    assert.equal((await a.next('ack')).data.version, s.version + 1);
    // B has not seen the removal: it aims at row 2 ("r2...") as of version 1.
    send(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 2, column: 1 }, value: 'B typed', base_version: s.version });
    const ack = await b.next('ack', (f) => f.data.operation_id === 'b-typed');
    assert.equal(ack.data.version, s.version + 2);

    const now = await server(s.id);
    assert.deepEqual(now.data, [
      ['r0c0', 'r0c1', 'r0c2'],
      ['r2c0', 'B typed', 'r2c2'],
      ['r3c0', 'r3c1', 'r3c2'],
    ]);
    // A is told where it landed: row 1 of the sheet A holds.
    const op = await a.next('operation', (f) => f.data.operation.id === 'b-typed');
    assert.equal(op.data.operation.type, 'cell_update');
    assert.deepEqual(op.data.operation.type === 'cell_update' && op.data.operation.position, { row: 1, column: 1 });
    assert.equal('base_version' in op.data.operation, false, 'the broadcast is at its own version');
  });

  it('an edit into the removed row is dropped: an error frame names the op, nothing else changes', async () => {
    const s = await sheet(labelled(4, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-del', type: 'rows_remove', index: 1, count: 1, base_version: s.version });
    await a.next('ack');
    const before = await server(s.id);

    const seenByA = a.frames.length;
    send(b, s.id, { id: 'b-lost', type: 'cell_update', position: { row: 1, column: 0 }, value: 'into the removed row', base_version: s.version });
    const error = await b.next('error');
    assert.deepEqual(error.data, { code: 'conflict', message: EDIT_DROPPED_TEXT, operation_id: 'b-lost' });
    // A paste across it: the cells of the removed row are dropped, the others land on their rows.
    send(b, s.id, {
      id: 'b-paste',
      type: 'cells_update',
      changes: [
        { row: 1, col: 2, value: 'lost too' },
        { row: 3, col: 2, value: 'on r3' },
      ],
      base_version: s.version,
    });
    const ack = await b.next('ack', (f) => f.data.operation_id === 'b-paste');
    assert.equal(ack.data.version, before.version + 1, 'the dropped edit made no version');
    const now = await server(s.id);
    assert.deepEqual(now.data, [
      ['r0c0', 'r0c1', 'r0c2'],
      ['r2c0', 'r2c1', 'r2c2'],
      ['r3c0', 'r3c1', 'on r3'],
    ]);
    const paste = await a.next('operation', (f) => f.data.operation.id === 'b-paste');
    assert.deepEqual(paste.data.operation.type === 'cells_update' && paste.data.operation.changes, [{ row: 2, col: 2, value: 'on r3' }]);
    assert.equal(a.since(seenByA).filter((f) => f.type === 'operation').length, 1, 'A heard of the paste only');
    assert.deepEqual(b.frames.filter((f) => f.type === 'error').length, 1);
  });

  it('rows and columns ops move through each other; one whose range is gone is refused by name', async () => {
    const s = await sheet(labelled(5, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-del', type: 'rows_remove', index: 0, count: 2, base_version: s.version });
    send(a, s.id, { id: 'a-col', type: 'columns_insert', index: 0, count: 1, base_version: s.version });
    await a.next('ack', (f) => f.data.operation_id === 'a-col');
    // B, on version 1: a row inserted before "r3", column C removed, rows "r0"-"r1" removed (gone already).
    send(b, s.id, { id: 'b-ins', type: 'rows_insert', index: 3, count: 1, base_version: s.version });
    send(b, s.id, { id: 'b-col', type: 'columns_remove', index: 2, count: 1, base_version: s.version });
    send(b, s.id, { id: 'b-del', type: 'rows_remove', index: 0, count: 2, base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-col');
    const refused = await b.next('error');
    assert.deepEqual(refused.data, { code: 'conflict', message: STRUCTURE_DROPPED_TEXT, operation_id: 'b-del' });
    const now = await server(s.id);
    assert.deepEqual(now.data, [
      ['', 'r2c0', 'r2c1'],
      ['', '', ''],
      ['', 'r3c0', 'r3c1'],
      ['', 'r4c0', 'r4c1'],
    ]);
  });

  it('an op based before a whole-grid replacement is refused; one ahead of the sheet is invalid; one without a base applies as the sheet is', async () => {
    const s = await sheet(labelled(3, 2));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const put = await api.put(`/api/v1/sheets/${s.id}`, { data: [['x', 'y']], base_version: s.version });
    assert.equal(put.statusCode, 200, put.body);
    await a.next('sync');
    const replaced = await server(s.id);

    send(a, s.id, { id: 'stale', type: 'cell_update', position: { row: 0, column: 0 }, value: 'stale', base_version: s.version });
    assert.deepEqual((await a.next('error')).data, { code: 'conflict', message: SHEET_REPLACED_TEXT, operation_id: 'stale' });
    send(a, s.id, { id: 'ahead', type: 'rows_insert', index: 0, count: 1, base_version: replaced.version + 5 });
    const ahead = await a.next('error');
    assert.equal(ahead.data.operation_id, 'ahead');
    assert.equal(ahead.data.message, `base_version ${replaced.version + 5} is ahead of the sheet (version ${replaced.version})`);
    assert.deepEqual((await server(s.id)).data, [['x', 'y']], 'nothing changed');

    // An older client sends no base_version: its op applies to the sheet as it is now.
    send(a, s.id, { id: 'old-client', type: 'cell_update', position: { row: 0, column: 1 }, value: 'old' });
    await a.next('ack', (f) => f.data.operation_id === 'old-client');
    assert.deepEqual((await server(s.id)).data, [['x', 'old']]);
  });

  it('a group commit moves each op by its own base and by the rows removed earlier in the same group', async () => {
    const s = await sheet(labelled(6, 1));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    // Sent without waiting: they queue behind each other and commit in groups.
    send(a, s.id, { id: 'g1', type: 'rows_remove', index: 0, count: 1, base_version: s.version });
    send(b, s.id, { id: 'g2', type: 'cell_update', position: { row: 2, column: 0 }, value: 'was r2', base_version: s.version });
    send(a, s.id, { id: 'g3', type: 'rows_remove', index: 0, count: 1, base_version: s.version + 1 });
    send(b, s.id, { id: 'g4', type: 'cell_update', position: { row: 5, column: 0 }, value: 'was r5', base_version: s.version });
    send(b, s.id, { id: 'g5', type: 'cell_update', position: { row: 0, column: 0 }, value: 'was r1 (gone)', base_version: s.version + 1 });
    await b.waitFor((frames) => (frames.some((f) => f.type === 'ack' && f.data.operation_id === 'g4') ? true : undefined), 'the ack of g4');
    const refused = await b.waitFor((frames) => frames.find((f) => f.type === 'error'), 'the error of g5');
    assert.equal(refused.type === 'error' && refused.data.operation_id, 'g5');
    assert.deepEqual((await server(s.id)).data, [['was r2'], ['r3c0'], ['r4c0'], ['was r5']]);
  });

  // ---- rows sorted by a column (rows_sort): the server orders the rows it holds; edits on the version before follow their rows ----

  /** Rows keyed by an id in column 0, a value to sort by in column 1, and a mark in column 2 that must stay with its row. */
  const sortable = (): GridData => [
    ['a', 'banana', 'a!'],
    ['b', 10, 'b!'],
    ['c', '', 'c!'],
    ['d', 'Apple', 'd!'],
    ['e', 9, 'e!'],
    ['f', 'apple', 'f!'],
  ];

  it('A sorts by a column: numbers first, text without case, empty cells last; every row keeps its cells; B and A are told the order', async () => {
    const s = await sheet(sortable());
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    const ack = await a.next('ack', (f) => f.data.operation_id === 'a-sort');
    assert.equal(ack.data.version, s.version + 1);
    // "Apple" and "apple" tie: they keep their order (stable).
    const ascending = [
      ['e', 9, 'e!'],
      ['b', 10, 'b!'],
      ['d', 'Apple', 'd!'],
      ['f', 'apple', 'f!'],
      ['a', 'banana', 'a!'],
      ['c', '', 'c!'],
    ];
    assert.deepEqual((await server(s.id)).data, ascending);
    assert.deepEqual(ack.data.order, [4, 1, 3, 5, 0, 2]);
    // Re-sent (its ack lost with a connection): acked again at its version with the same order, applied once.
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    const again = await a.next('ack', (f) => f.data.operation_id === 'a-sort' && f !== ack);
    assert.deepEqual([again.data.version, again.data.order], [s.version + 1, [4, 1, 3, 5, 0, 2]]);
    assert.deepEqual((await server(s.id)).data, ascending);
    const told = await b.next('operation', (f) => f.data.operation.id === 'a-sort');
    assert.deepEqual(told.data.operation.type === 'rows_sort' && told.data.operation.order, [4, 1, 3, 5, 0, 2]);

    send(b, s.id, { id: 'b-sort', type: 'rows_sort', column: 1, direction: 'desc', base_version: s.version + 1 });
    await b.next('ack', (f) => f.data.operation_id === 'b-sort');
    // Z → A: the empty cell still last.
    assert.deepEqual((await server(s.id)).data.map((r) => r[0]), ['a', 'd', 'f', 'b', 'e', 'c']);
  });

  it('formulas move with their rows: relative references follow them, absolute ones stay (the stored sheet, as every grid shows it)', async () => {
    const s = await sheet([['x', 3, '=B1*2'], ['y', 1, '=B2*2+$B$1'], ['z', 2, '=B3*2']]);
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    await a.next('ack', (f) => f.data.operation_id === 'a-sort');
    assert.deepEqual((await server(s.id)).data, [['y', 1, '=B1*2+$B$1'], ['z', 2, '=B2*2'], ['x', 3, '=B3*2']]);
  });

  it('B types into a row and inserts a row on the version before A’s sort: the value lands on its (moved) row, the row before its (moved) row', async () => {
    const s = await sheet(sortable());
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    await a.next('ack');
    // B has not seen the sort: row 0 is "a" (banana), row 3 is "d" (Apple).
    send(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 0, column: 2 }, value: 'B typed on a', base_version: s.version });
    send(b, s.id, { id: 'b-ins', type: 'rows_insert', index: 3, count: 1, base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-ins');
    assert.deepEqual((await server(s.id)).data, [
      ['e', 9, 'e!'],
      ['b', 10, 'b!'],
      ['', '', ''],
      ['d', 'Apple', 'd!'],
      ['f', 'apple', 'f!'],
      ['a', 'banana', 'B typed on a'],
      ['c', '', 'c!'],
    ]);
    // A is told where they landed.
    const typed = await a.next('operation', (f) => f.data.operation.id === 'b-typed');
    assert.deepEqual(typed.data.operation.type === 'cell_update' && typed.data.operation.position, { row: 4, column: 2 });
  });

  it('a sort based before a column insert sorts by its column where it moved; one whose column was removed is refused by name', async () => {
    const s = await sheet(sortable());
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-col', type: 'columns_insert', index: 0, count: 1, base_version: s.version });
    await a.next('ack');
    send(b, s.id, { id: 'b-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-sort');
    assert.deepEqual((await server(s.id)).data.map((r) => r[1]), ['e', 'b', 'd', 'f', 'a', 'c']);

    send(a, s.id, { id: 'a-drop', type: 'columns_remove', index: 2, count: 1, base_version: s.version + 2 });
    await a.next('ack', (f) => f.data.operation_id === 'a-drop');
    const before = await server(s.id);
    send(b, s.id, { id: 'b-late', type: 'rows_sort', column: 2, direction: 'desc', base_version: s.version + 2 });
    assert.deepEqual((await b.next('error')).data, { code: 'conflict', message: SORT_TEXTS.columnRemoved, operation_id: 'b-late' });
    assert.deepEqual((await server(s.id)).data, before.data, 'nothing changed');
  });

  it('undo of a sort (undo: its version) puts the rows back in their order before it, cell edits since with them, as a new version B is told; refused once rows moved since, or for a version that is no sort', async () => {
    const s = await sheet([['x', 3, '=B1*2'], ['y', 1, 'y!'], ['z', 2, 'z!']]);
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    const sorted = (await a.next('ack', (f) => f.data.operation_id === 'a-sort')).data.version;
    // B edits row 2 after the sort ("x" is there now): the edit stays on x's row when it goes back.
    send(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 2, column: 0 }, value: 'x typed', base_version: sorted });
    await b.next('ack', (f) => f.data.operation_id === 'b-typed');
    send(a, s.id, { id: 'a-undo', type: 'rows_sort', column: 1, direction: 'asc', undo: sorted, base_version: sorted + 1 });
    const undone = (await a.next('ack', (f) => f.data.operation_id === 'a-undo')).data;
    assert.equal(undone.version, sorted + 2);
    // The order that puts them back: the row now at r goes to where it came from (the formula follows its row back).
    assert.deepEqual(undone.order, [2, 0, 1]);
    assert.deepEqual((await server(s.id)).data, [['x typed', 3, '=B1*2'], ['y', 1, 'y!'], ['z', 2, 'z!']]);
    const told = (await b.next('operation', (f) => f.data.operation.id === 'a-undo')).data.operation;
    assert.deepEqual(told.type === 'rows_sort' && [told.undo, told.order], [sorted, [2, 0, 1]]);

    // Sorted again (redo), then a row inserted: that sort can no longer be undone (its order names rows that moved).
    send(a, s.id, { id: 'a-redo', type: 'rows_sort', column: 1, direction: 'asc', base_version: sorted + 2 });
    const redone = (await a.next('ack', (f) => f.data.operation_id === 'a-redo')).data.version;
    send(b, s.id, { id: 'b-ins', type: 'rows_insert', index: 0, count: 1, base_version: redone });
    await b.next('ack', (f) => f.data.operation_id === 'b-ins');
    const before = await server(s.id);
    send(a, s.id, { id: 'a-undo-late', type: 'rows_sort', column: 1, direction: 'asc', undo: redone, base_version: redone });
    assert.deepEqual((await a.next('error', (f) => f.data.operation_id === 'a-undo-late')).data, { code: 'conflict', message: SORT_TEXTS.undoMoved, operation_id: 'a-undo-late' });
    send(a, s.id, { id: 'a-undo-cell', type: 'rows_sort', column: 1, direction: 'asc', undo: sorted + 1, base_version: redone + 1 });
    assert.deepEqual((await a.next('error', (f) => f.data.operation_id === 'a-undo-cell')).data, { code: 'bad_request', message: SORT_TEXTS.undoNotSort(sorted + 1), operation_id: 'a-undo-cell' });
    send(a, s.id, { id: 'a-undo-ahead', type: 'rows_sort', column: 1, direction: 'asc', undo: redone + 50, base_version: redone + 1 });
    assert.deepEqual((await a.next('error', (f) => f.data.operation_id === 'a-undo-ahead')).data, { code: 'bad_request', message: SORT_TEXTS.undoNotSort(redone + 50), operation_id: 'a-undo-ahead' });
    assert.deepEqual((await server(s.id)).data, before.data, 'nothing changed');
  });

  it('the versions before and after a sort preview as they were; a client that missed the sort catches up with it', async () => {
    const s = await sheet(sortable());
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'desc', base_version: s.version });
    await a.next('ack');
    send(a, s.id, { id: 'a-after', type: 'cell_update', position: { row: 0, column: 2 }, value: 'after', base_version: s.version + 1 });
    await a.next('ack', (f) => f.data.operation_id === 'a-after');
    const rowsAt = async (v: number) => {
      const res = await api.get(`/api/v1/sheets/${s.id}/versions/${v}`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { rows: GridData }).rows.map((r) => r[0]);
    };
    assert.deepEqual(await rowsAt(s.version), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual(await rowsAt(s.version + 1), ['a', 'd', 'f', 'b', 'e', 'c']);
    assert.deepEqual(await rowsAt(s.version + 2), ['a', 'd', 'f', 'b', 'e', 'c']);

    // A client that held the version before the sort is replayed the sort with its order.
    const late = await join(s.id, bob.accessToken, 'late', s.version);
    const replayed = await late.next('operation', (f) => f.data.version === s.version + 1);
    assert.deepEqual(replayed.data.operation.type === 'rows_sort' && replayed.data.operation.order, [0, 3, 5, 1, 4, 2]);
  });

  // ---- a block of cells cleared as one operation (cells_clear): a whole column is one small op ----

  const column1 = (rows: number) => ({ rows: { start: 0, count: rows }, columns: { start: 1, count: 1 } });

  it('A clears column B while B types into it and inserts a row inside it on the version before: the column is empty for everyone but what B typed after', async () => {
    const s = await sheet(labelled(4, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    // B's insert is committed first; A's clear, made before it, grows over the inserted row (cells-clear.ts).
    send(b, s.id, { id: 'b-ins', type: 'rows_insert', index: 2, count: 1, base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-ins');
    send(a, s.id, { id: 'a-clear', type: 'cells_clear', ...column1(4), base_version: s.version });
    const ack = await a.next('ack', (f) => f.data.operation_id === 'a-clear');
    assert.equal(ack.data.version, s.version + 2);
    // B is told the clear as applied: one small op, grown over its row.
    const told = await b.next('operation', (f) => f.data.operation.id === 'a-clear');
    assert.deepEqual(told.data.operation.type === 'cells_clear' && [told.data.operation.rows, told.data.operation.columns], [{ start: 0, count: 5 }, { start: 1, count: 1 }]);
    // B typed on the version before the clear: it lands after it, so it stays.
    send(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 3, column: 1 }, value: 'B typed', base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-typed');
    const now = await server(s.id);
    assert.deepEqual(now.data, [
      ['r0c0', null, 'r0c2'],
      ['r1c0', null, 'r1c2'],
      ['', null, ''],
      ['r2c0', null, 'r2c2'],
      ['r3c0', 'B typed', 'r3c2'],
    ]);
    // Re-sent (its ack lost): acked again at its version, applied once.
    send(a, s.id, { id: 'a-clear', type: 'cells_clear', ...column1(4), base_version: s.version });
    const again = await a.next('ack', (f) => f.data.operation_id === 'a-clear' && f !== ack);
    assert.equal(again.data.version, s.version + 2);
    assert.deepEqual((await server(s.id)).data, now.data);
  });

  it('the versions before and after a clear preview as they were; a client that missed it catches up with the one op', async () => {
    const s = await sheet(labelled(3, 2));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    send(a, s.id, { id: 'a-clear', type: 'cells_clear', ...column1(3), base_version: s.version });
    await a.next('ack');
    send(a, s.id, { id: 'a-after', type: 'cell_update', position: { row: 0, column: 1 }, value: 'after', base_version: s.version + 1 });
    await a.next('ack', (f) => f.data.operation_id === 'a-after');
    const columnAt = async (v: number) => {
      const res = await api.get(`/api/v1/sheets/${s.id}/versions/${v}`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { rows: GridData }).rows.map((r) => r[1] ?? null);
    };
    assert.deepEqual(await columnAt(s.version), ['r0c1', 'r1c1', 'r2c1']);
    assert.deepEqual(await columnAt(s.version + 1), [null, null, null]);
    assert.deepEqual(await columnAt(s.version + 2), ['after', null, null]);
    const late = await join(s.id, bob.accessToken, 'late', s.version);
    const replayed = await late.next('operation', (f) => f.data.version === s.version + 1);
    assert.deepEqual(replayed.data.operation.type === 'cells_clear' && replayed.data.operation.rows, { start: 0, count: 3 });
  });

  it('a clear stores only its block for versions, and a history with clears previews, restores, compares and keeps cell histories as when each clear took a full snapshot', async () => {
    // Delta snapshots every 3 versions, so some would span a clear.
    const previous = process.env.VERSION_SNAPSHOT_EVERY;
    process.env.VERSION_SNAPSHOT_EVERY = '3';
    try {
      // Three chunks of rows (500 each). `now`: as recorded now; `old`: the same history, each clear given the full snapshot it took before (old histories).
      const [now, old] = [await sheet(labelled(1200, 4)), await sheet(labelled(1200, 4))];
      const clients = [await join(now.id, admin.accessToken, 'now', now.version), await join(old.id, admin.accessToken, 'old', old.version)];
      const block = (rows: [number, number], columns: [number, number]) => ({ type: 'cells_clear', rows: { start: rows[0], count: rows[1] }, columns: { start: columns[0], count: columns[1] } });
      const ops: object[] = [
        { type: 'cell_update', position: { row: 3, column: 1 }, value: 'typed' },
        block([0, 1200], [1, 1]),
        { type: 'cell_update', position: { row: 700, column: 1 }, value: 'after' },
        { type: 'cells_update', changes: [{ row: 2, col: 1, value: 'p1' }, { row: 900, col: 2, value: 'p2' }] },
        block([100, 800], [0, 2]),
        block([0, 1], [3, 1]),
        { type: 'cell_update', position: { row: 150, column: 0 }, value: 'x' },
        { type: 'rows_insert', index: 1, count: 2 },
        { type: 'cell_update', position: { row: 1, column: 1 }, value: 'ins' },
        block([0, 1202], [1, 1]),
        { type: 'rows_sort', column: 0, direction: 'desc' },
        // The clear of op 4 undone (its cells put back where the insert and the sort took them): a full snapshot, no cells logged.
        { type: 'cells_clear_undo', undoOf: 4 },
        { type: 'cell_update', position: { row: 0, column: 3 }, value: 'top' },
        { type: 'columns_insert', index: 0, count: 1 },
        block([500, 702], [2, 3]),
        { type: 'cells_update', changes: [{ row: 600, col: 3, value: 'q' }, { row: 10, col: 0, value: 'r' }] },
        { type: 'rows_remove', index: 0, count: 3 },
        block([0, 1199], [0, 5]),
        { type: 'cell_update', position: { row: 5, column: 4 }, value: 'last' },
        { type: 'cells_clear_undo', undoOf: 17 },
        // A column removed and put back by an insert with undo (its cells moved with their rows through a row inserted since).
        { type: 'columns_remove', index: 3, count: 1 },
        { type: 'cell_update', position: { row: 4, column: 3 }, value: 'beside' },
        { type: 'rows_insert', index: 0, count: 1 },
        { type: 'columns_insert', index: 3, count: 1, undoOf: 20 },
        // 600 rows across chunks removed and put back (their cells moved with their columns through a column inserted since).
        { type: 'rows_remove', index: 400, count: 600 },
        { type: 'columns_insert', index: 0, count: 1 },
        { type: 'rows_insert', index: 400, count: 600, undoOf: 24 },
      ];
      const snapshotsAt = async (id: string) =>
        (await t.app.db.selectFrom('sheet_snapshot_chunks' as never).select('version' as never).where('sheet_id' as never, '=', id as never).execute()).map((r) => (r as { version: number }).version);
      const expected: GridData[] = [];
      expected[now.version] = (await server(now.id)).data;
      const clears: number[] = [];
      let version = now.version;
      for (const [i, op] of ops.entries()) {
        for (const [k, s] of [now, old].entries()) {
          const sent = 'undoOf' in op ? (({ undoOf, ...rest }) => ({ ...rest, undo: now.version + undoOf + 1 }))(op as { undoOf: number }) : op;
          send(clients[k], s.id, { ...sent, id: `op-${i}`, base_version: version });
          const ack = await clients[k].next('ack', (f) => f.data.operation_id === `op-${i}`);
          assert.equal(ack.data.version, version + 1);
          if (s === old && (op as { type: string }).type === 'cells_clear' && !(await snapshotsAt(old.id)).includes(version + 1)) await captureSnapshot(t.app.db, old.id, version + 1);
        }
        version++;
        if ((op as { type: string }).type === 'cells_clear') clears.push(version);
        expected[version] = (await server(now.id)).data;
        assert.deepEqual((await server(old.id)).data, expected[version]);
        if ('undoOf' in op) assert.notDeepEqual(expected[version], expected[version - 1], 'the undo put cells back');
        const cells = (grid: GridData, width: number) => grid.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? ''));
        const removedAt = now.version + ((op as { undoOf?: number }).undoOf ?? 0) + 1;
        if ((op as { type: string }).type === 'columns_insert' && 'undoOf' in op) {
          assert.ok(cells(expected[removedAt - 1], 5).filter((r) => r[3] !== '').length > 100, 'the removed column held cells');
          assert.deepEqual(cells(expected[version], 5).slice(1).map((r) => r[3]), cells(expected[removedAt - 1], 5).map((r) => r[3]), 'the column back on its rows');
        }
        if ((op as { type: string }).type === 'rows_insert' && 'undoOf' in op)
          assert.deepEqual(cells(expected[version].slice(400, 1000), 6), cells(expected[removedAt - 1].slice(400, 1000), 5).map((r) => ['', ...r]), 'the rows back in their columns');
      }
      // What a clear stores for versions: its block in the op log, no copy of the chunks it rewrote.
      const copied = await snapshotsAt(now.id);
      assert.deepEqual(clears.filter((v) => copied.includes(v)), [], 'no chunk copied at a clear');
      const before = await snapshotsAt(old.id);
      assert.deepEqual(clears.filter((v) => !before.includes(v)), [], 'the old history copied them');
      const read = async (path: string) => {
        const res = await api.get(path);
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { rows?: GridData; data?: GridData; cells?: unknown; changes?: unknown[] };
      };
      for (let v = now.version; v <= version; v++) {
        const [mine, theirs] = [await read(`/api/v1/sheets/${now.id}/versions/${v}`), await read(`/api/v1/sheets/${old.id}/versions/${v}`)];
        assert.deepEqual(mine.rows, theirs.rows, `version ${v} as before`);
        assert.deepEqual(mine.rows?.map((r) => r.map((c) => c ?? '')), expected[v].map((r) => r.map((c) => c ?? '')), `version ${v} as it was live`);
        // A window across a chunk border (read from the chunks holding it).
        assert.deepEqual((await read(`/api/v1/sheets/${now.id}/versions/${v}/rows?start=495&count=10`)).data, mine.rows?.slice(495, 505), `a window of version ${v}`);
        assert.deepEqual((await read(`/api/v1/sheets/${now.id}/snapshots/${v}`)).cells, (await read(`/api/v1/sheets/${old.id}/snapshots/${v}`)).cells, `changes of version ${v}`);
      }
      for (const [row, col] of [[3, 1], [700, 2]]) {
        const entries = async (id: string) =>
          ((await read(`/api/v1/sheets/${id}/cells/${row}/${col}/history`)).changes as { version: number; kind: string; old: unknown; new: unknown }[]).map((c) => [c.version, c.kind, c.old, c.new]);
        assert.deepEqual(await entries(now.id), await entries(old.id), `history of cell ${row},${col}`);
      }
      // Each version restored is the grid it was (restores add versions after the history read above).
      for (let v = now.version; v < version; v++) {
        const res = await api.post(`/api/v1/sheets/${now.id}/snapshots/${v}/restore`);
        assert.equal(res.statusCode, 200, res.body);
        // As wide as the sheet: a restore leaves a row that only differs by empty cells as it is (shorter: its cells past the end are empty).
        const padded = (grid: GridData) => grid.map((r) => Array.from({ length: Math.max(...expected[v].map((e) => e.length)) }, (_, c) => r[c] ?? ''));
        assert.deepEqual(padded((await server(now.id)).data), padded(expected[v]), `version ${v} restored`);
        expected.push(expected[v]);
      }
      // Pruned (one version an hour, all older than the 10 minutes never pruned): the kept versions are as they were (a clear keeps the version before it: no cell change is folded into a clear).
      await sql`UPDATE sheet_ops SET created_at = now() - make_interval(hours => ${expected.length}::int - version + 1) WHERE sheet_id = ${now.id}::uuid`.execute(t.app.db);
      const pruned = await api.post(`/api/v1/sheets/${now.id}/history/prune`, { recent: 2, daily: 1 });
      assert.equal(pruned.statusCode, 200, pruned.body);
      const kept = ((await read(`/api/v1/sheets/${now.id}/history?limit=500`)) as unknown as { versions: { version: number }[] }).versions.map((e) => e.version);
      assert.ok(kept.length < expected.length - now.version, `some pruned: ${kept.length} kept`);
      for (const v of kept) {
        assert.deepEqual((await read(`/api/v1/sheets/${now.id}/versions/${v}`)).rows?.map((r) => r.map((c) => c ?? '')), expected[v].map((r) => r.map((c) => c ?? '')), `version ${v} after pruning`);
      }
    } finally {
      if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = previous;
    }
  });

  it('a clear of some rows based before a sort that scattered them is refused by name; one past the sheet is refused; nothing changes', async () => {
    const s = await sheet(sortable());
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    send(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 1, direction: 'asc', base_version: s.version });
    await a.next('ack');
    const before = await server(s.id);
    send(b, s.id, { id: 'b-clear', type: 'cells_clear', rows: { start: 0, count: 2 }, columns: { start: 2, count: 1 }, base_version: s.version });
    assert.deepEqual((await b.next('error')).data, { code: 'conflict', message: CLEAR_TEXTS.rowsSorted, operation_id: 'b-clear' });
    send(b, s.id, { id: 'b-past', type: 'cells_clear', rows: { start: 0, count: 7 }, columns: { start: 0, count: 1 }, base_version: s.version + 1 });
    assert.deepEqual((await b.next('error', (f) => f.data.operation_id === 'b-past')).data.message, CLEAR_TEXTS.pastSheet(6, 3));
    assert.deepEqual((await server(s.id)).data, before.data, 'nothing changed');
    // A whole column stays whole through the sort.
    send(b, s.id, { id: 'b-col', type: 'cells_clear', ...column1(6), base_version: s.version });
    await b.next('ack', (f) => f.data.operation_id === 'b-col');
    assert.deepEqual((await server(s.id)).data.map((r) => r[1]), [null, null, null, null, null, null]);
  });
});

/**
 * THE PROPERTY (issue 17 §2): three clients on the real api send random interleavings of cell
 * edits, pastes and row/column inserts and removes, with random delays on the way out and in;
 * each runs the real client logic (the contracts' LiveSheet: own edits shown at once, remote
 * frames applied in version order, own pending operations moved through remote rows and columns,
 * base_version on every op) on a grid of its own. Every row and column carries a hidden identity
 * (kept beside the grid the same way the grid is changed), and every edit records the identities
 * of the cell its author aimed at. At the end: every replica equals the server; every value on
 * the server sits on the row and column its author aimed at (or is a starting value on its own
 * cell); every edit whose cell still exists was not lost; every error frame names an op whose
 * target is gone; no client had to resync. Seeded: a failure prints its seed.
 */
describe('live concurrency property: three clients, rows and columns moving under edits', () => {
  let stack: LiveStack;
  const open: LiveClient[] = [];
  let carol: { accessToken: string };

  before(async () => {
    stack = await startLiveStack();
    carol = await signedInMember(stack.t.app, 'user');
  });
  after(() => closeLiveStack(stack.t, open));

  const SEEDS = [1, 2, 3, 4, 5, 6];
  const STEPS = 70;

  for (const seed of SEEDS) {
    it(`seed ${seed}: replicas equal the server and every surviving edit is on its row and column`, async (t) => {
      t.diagnostic(await runScenario(stack, [stack.admin.accessToken, stack.bob.accessToken, carol.accessToken], seed, STEPS, open));
    });
  }
  // Rows sorted by a column among the edits: every edit still lands on the row it aimed at, wherever the sorts moved it.
  for (const seed of [7, 8]) {
    it(`seed ${seed}, with sorts: replicas equal the server and every surviving edit is on its row and column`, async (t) => {
      t.diagnostic(await runScenario(stack, [stack.admin.accessToken, stack.bob.accessToken, carol.accessToken], seed, STEPS, open, true));
    });
  }
});

type Cell = string;
/** What a client aimed an edit at: the identities of its row and column. */
interface Aim {
  row: string;
  col: string;
}

/** One simulated user: a socket with delays both ways, the real LiveSheet, a grid and the identities of its rows and columns. */
class SimClient {
  grid: Cell[][] = [];
  rowIds: string[] = [];
  colIds: string[] = [];
  readonly outbox: object[] = [];
  delivered = 0;
  fetches = 0;
  syncs = 0;
  /** What the client saw that cannot happen when positions move with the rows. */
  readonly violations: string[] = [];
  readonly live: LiveSheet;
  /** Own operation id → the cells it aimed at (structure ops: the rows / columns they aimed at). */
  readonly aims = new Map<string, { cells: (Aim & { value: string })[]; removes: string[]; inserts: string[] }>();

  constructor(
    readonly socket: LiveClient,
    readonly sheetId: string,
    grid: GridData,
    version: number,
  ) {
    this.grid = grid.map((row) => row.map((v) => String(v ?? '')));
    this.rowIds = grid.map((_, r) => `R${r}`);
    this.colIds = (grid[0] ?? []).map((_, c) => `C${c}`);
    this.live = new LiveSheet({
      version,
      send: (operation) => this.outbox.push({ type: 'operation', sheet_id: sheetId, operation }),
      applyCells: (changes) => {
        for (const c of changes) {
          // The server wrote where this client has no cell: a position that was not moved with the rows.
          if (c.row >= this.rows || c.col >= this.cols) this.violations.push(`a remote value ${JSON.stringify(c.value)} came for row ${c.row}, column ${c.col}, outside the ${this.rows} × ${this.cols} grid`);
          else this.grid[c.row][c.col] = String(c.value ?? '');
        }
      },
      applyStructure: (op) => this.restructure(op),
      // Rows sorted (anyone's; the own one at its ack): the grid and the row identities alike.
      applySort: (order) => {
        if (order.length !== this.rows) this.violations.push(`a sort of ${order.length} rows came for a grid of ${this.rows}`);
        this.grid = order.map((old) => this.grid[old]);
        this.rowIds = order.map((old) => this.rowIds[old]);
      },
      replace: () => {
        this.syncs += 1;
      },
      onVersion: () => {},
      onPending: () => {},
      onError: () => {},
      fetch: async () => {
        this.fetches += 1;
        return null;
      },
    });
  }

  get rows() {
    return this.rowIds.length;
  }
  get cols() {
    return this.colIds.length;
  }

  /** Rows or columns inserted or removed, on the grid and on the identities alike (inserted ones named by the op). */
  restructure(op: StructureOperation): void {
    const ids = Array.from({ length: op.count }, (_, k) => `${op.id}#${k}`);
    if (op.type === 'rows_insert') {
      this.rowIds.splice(op.index, 0, ...ids);
      this.grid.splice(op.index, 0, ...ids.map(() => Array<Cell>(this.cols).fill('')));
    } else if (op.type === 'rows_remove') {
      this.rowIds.splice(op.index, op.count);
      this.grid.splice(op.index, op.count);
    } else if (op.type === 'columns_insert') {
      this.colIds.splice(op.index, 0, ...ids);
      for (const row of this.grid) row.splice(op.index, 0, ...ids.map(() => ''));
    } else {
      this.colIds.splice(op.index, op.count);
      for (const row of this.grid) row.splice(op.index, op.count);
    }
  }

  /** An own edit: shown at once, then handed to the LiveSheet (which stamps base_version and may hold it back). */
  edit(operation: LiveOperation): void {
    if (operation.type === 'cell_update' || operation.type === 'cells_update') {
      const changes = operation.type === 'cell_update' ? [{ row: operation.position.row, col: operation.position.column, value: operation.value }] : operation.changes;
      this.aims.set(operation.id, {
        cells: changes.map((c) => ({ row: this.rowIds[c.row], col: this.colIds[c.col], value: String(c.value) })),
        removes: [],
        inserts: [],
      });
      for (const c of changes) this.grid[c.row][c.col] = String(c.value);
    } else if (operation.type === 'rows_sort') {
      // Aimed at its column (refused only when that column is gone); shown once the server gives the order.
      this.aims.set(operation.id, { cells: [], removes: [this.colIds[operation.column]], inserts: [] });
    } else if (operation.type !== 'cells_clear' && operation.type !== 'cells_clear_undo') {
      const axis = operation.type.startsWith('rows') ? this.rowIds : this.colIds;
      const removes = operation.type.endsWith('remove') ? axis.slice(operation.index, operation.index + operation.count) : [];
      const inserts = operation.type.endsWith('insert') ? Array.from({ length: operation.count }, (_, k) => `${operation.id}#${k}`) : [];
      this.aims.set(operation.id, { cells: [], removes, inserts });
      this.restructure(operation as StructureOperation);
    }
    this.live.send([operation]);
  }

  /** The network delivers what this client sent so far, in order. */
  flush(): void {
    for (const frame of this.outbox.splice(0)) this.socket.send(frame);
  }

  /** The client reads up to `n` frames that arrived. */
  deliver(n = Infinity): void {
    const frames = this.socket.frames;
    const end = Math.min(frames.length, this.delivered + n);
    for (; this.delivered < end; this.delivered++) this.live.receive(frames[this.delivered] as LiveServerFrame);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const normalize = (grid: GridData, width: number): string[][] => grid.map((row) => Array.from({ length: width }, (_, c) => String(row[c] ?? '')));

/** `sorts`: clients also sort the rows (a removal then takes one row: rows a sort parted cannot be removed as one range, and are refused). */
async function runScenario(stack: LiveStack, tokens: string[], seed: number, steps: number, open: LiveClient[], sorts = false): Promise<string> {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const { api, base } = stack;
  const start = Array.from({ length: 6 }, (_, r) => Array.from({ length: 4 }, (_, c) => `R${r}|C${c}`));
  const created = await api.post('/api/v1/sheets', { name: `Property ${seed} ${Math.random().toString(36).slice(2, 8)}`, data: start });
  assert.equal(created.statusCode, 201, created.body);
  const s = SheetSchema.parse(created.json());
  const clients: SimClient[] = [];
  for (const [i, token] of tokens.entries()) {
    const socket = await LiveClient.join(base, s.id, token, { since: s.version, label: `client ${i} (seed ${seed})` });
    open.push(socket);
    clients.push(new SimClient(socket, s.id, s.data, s.version));
  }
  const errorsOf = (c: SimClient) => c.socket.frames.filter((f): f is Extract<LiveServerFrame, { type: 'error' }> => f.type === 'error');
  const why = (detail: string) => `seed ${seed}: ${detail}`;

  let n = 0;
  for (let step = 0; step < steps; step++) {
    const c = clients[int(clients.length)];
    const roll = random();
    const id = `s${seed}-c${clients.indexOf(c)}-${n++}`;
    if (roll < 0.3 && c.rows > 0 && c.cols > 0) {
      c.edit({ id, type: 'cell_update', position: { row: int(c.rows), column: int(c.cols) }, value: `${id}` });
    } else if (roll < 0.42 && c.rows > 0 && c.cols > 0) {
      const row = int(c.rows);
      const col = int(c.cols);
      const changes = [];
      for (let r = row; r < Math.min(c.rows, row + 1 + int(3)); r++) for (let k = col; k < Math.min(c.cols, col + 1 + int(2)); k++) changes.push({ row: r, col: k, value: `${id}.${r - row}.${k - col}` });
      c.edit({ id, type: 'cells_update', changes });
    } else if (roll < 0.62) {
      const rows = random() < 0.65;
      const size = rows ? c.rows : c.cols;
      const insert = size <= 1 || random() < 0.5;
      if (insert) c.edit({ id, type: rows ? 'rows_insert' : 'columns_insert', index: int(size + 1), count: 1 + int(2) });
      else {
        const index = int(size);
        c.edit({ id, type: rows ? 'rows_remove' : 'columns_remove', index, count: sorts && rows ? 1 : 1 + int(Math.min(2, size - index)) });
      }
    } else if (sorts && roll < 0.68 && c.cols > 0) {
      c.edit({ id, type: 'rows_sort', column: int(c.cols), direction: random() < 0.5 ? 'asc' : 'desc' });
    } else if (roll < 0.78) {
      c.flush();
    } else if (roll < 0.92) {
      c.deliver(1 + int(4));
    } else {
      await sleep(int(4));
    }
    if (random() < 0.3) await new Promise((r) => setImmediate(r));
  }

  // Settle: everything sent, everything read, until no client has anything pending and all hold the server's version.
  const guard = Date.now() + 30_000;
  let truth = SheetSchema.parse((await api.get(`/api/v1/sheets/${s.id}`)).json());
  for (;;) {
    for (const c of clients) c.flush();
    for (const c of clients) c.deliver();
    truth = SheetSchema.parse((await api.get(`/api/v1/sheets/${s.id}`)).json());
    if (clients.every((c) => c.outbox.length === 0 && c.live.pending === 0 && c.live.version === truth.version && c.delivered === c.socket.frames.length)) break;
    assert.ok(Date.now() < guard, why(`clients did not settle: ${clients.map((c) => `pending ${c.live.pending}, v${c.live.version}/${truth.version}`).join('; ')}`));
    await sleep(5);
  }

  for (const c of clients) assert.deepEqual(c.violations.slice(0, 3), [], why(`${c.socket.label}`));
  const width = Math.max(truth.metadata.columns, ...truth.data.map((r) => r.length));
  const serverGrid = normalize(truth.data, width);
  const rowIds = clients[0].rowIds;
  const colIds = clients[0].colIds;
  assert.equal(truth.metadata.rows, rowIds.length, why('rows on the server'));
  assert.equal(width, colIds.length, why('columns on the server'));
  for (const c of clients) {
    assert.equal(c.syncs + c.fetches, 0, why(`${c.socket.label} had to resync`));
    assert.deepEqual(normalize(c.grid, width), serverGrid, why(`${c.socket.label}'s grid equals the server's`));
    assert.deepEqual([c.rowIds, c.colIds], [rowIds, colIds], why(`${c.socket.label} has the same rows and columns`));
  }

  // Every value on the server is on the cell it belongs to.
  const aimed = new Map<string, Aim>();
  const aimedAt = new Map<string, Set<string>>();
  for (const c of clients) {
    for (const aim of c.aims.values()) {
      for (const cell of aim.cells) {
        aimed.set(cell.value, cell);
        const key = `${cell.row}/${cell.col}`;
        if (!aimedAt.has(key)) aimedAt.set(key, new Set());
        aimedAt.get(key)!.add(cell.value);
      }
    }
  }
  for (const [r, row] of serverGrid.entries()) {
    for (const [k, value] of row.entries()) {
      if (value === '') continue;
      const at = `${rowIds[r]}/${colIds[k]}`;
      if (/^R\d+\|C\d+$/.test(value)) {
        assert.equal(value.replace('|', '/'), at, why(`a starting value at row ${r}, column ${k}`));
        continue;
      }
      const aim = aimed.get(value);
      assert.ok(aim, why(`unknown value ${value}`));
      assert.equal(`${aim.row}/${aim.col}`, at, why(`${value} sits at row ${r}, column ${k}: aimed at ${aim.row}/${aim.col}, found on ${at}`));
    }
  }
  // Every edit whose cell still exists is there (the last one written wins, but one of them is there).
  const rowsLeft = new Set(rowIds);
  const colsLeft = new Set(colIds);
  for (const [key, values] of aimedAt) {
    const [row, col] = key.split('/');
    if (!rowsLeft.has(row) || !colsLeft.has(col)) continue;
    const value = serverGrid[rowIds.indexOf(row)][colIds.indexOf(col)];
    assert.ok(values.has(value), why(`the edits aimed at ${key} (${[...values].join(', ')}) are all lost: it holds ${JSON.stringify(value)}`));
  }
  // Every error frame names an own op whose target is gone; nothing else was refused.
  for (const c of clients) {
    for (const error of errorsOf(c)) {
      const aim = error.data.operation_id === undefined ? undefined : c.aims.get(error.data.operation_id);
      assert.ok(aim, why(`${c.socket.label} got an error not naming one of its ops: ${JSON.stringify(error.data)}`));
      assert.equal(error.data.code, 'conflict', why(`${c.socket.label}: ${JSON.stringify(error.data)}`));
      const gone = aim.cells.every((cell) => !rowsLeft.has(cell.row) || !colsLeft.has(cell.col)) && aim.removes.every((x) => !rowsLeft.has(x) && !colsLeft.has(x)) && aim.inserts.every((x) => !rowsLeft.has(x) && !colsLeft.has(x));
      assert.ok(gone, why(`${c.socket.label}'s op ${error.data.operation_id} was refused while its target exists: ${error.data.message}`));
    }
  }
  const ops = clients.flatMap((c) => [...c.aims.values()]);
  const structural = ops.filter((a) => a.cells.length === 0).length;
  const refused = clients.reduce((n, c) => n + errorsOf(c).length, 0);
  const sorted = clients.reduce((n, c) => n + c.socket.frames.filter((f) => f.type === 'ack' && f.data.order !== undefined).length, 0);
  return `${ops.length} ops (${structural} rows/columns, ${sorted} sorts), ${truth.version - s.version} versions, ${refused} refused by name; ${rowIds.length} × ${colIds.length} at the end`;
}
