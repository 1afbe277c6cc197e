import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, type GridData, STRUCTURE_UNDO_TEXTS } from '@tessera/contracts';
import { sql } from 'kysely';
import { LiveClient, Replica } from './live-client.js';
import { closeLiveStack, labelledGrid as labelled, liveSheetTools, type LiveStack, startLiveStack } from './support/live-stack.js';

/**
 * Ctrl+Z of a rows_remove / columns_remove on a windowed sheet is an insert with `undo`: the server
 * fills the new rows or columns with the cells the remove took, as they were just before it, moved
 * with their rows (columns) through what happened since. Real `ws` clients on loopback; PGlite, or
 * PostgreSQL under TEST_PG_URL.
 */
describe('a remove undone (rows_insert / columns_insert with undo)', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const { sheet, server, join, send, commit } = liveSheetTools(() => ({ t, base, admin, bob, api }), open, 'Undo');
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  /** A grid as a user reads it: empty cells alike, rows as wide as the sheet. */
  const shown = (grid: GridData, width: number) => grid.map((r) => Array.from({ length: width }, (_, c) => (empty(r[c]) ? '' : r[c])));
  const rowsOf = async (id: string, v: number) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { rows: GridData }).rows;
  };
  const cut = (grid: GridData, block: { rows: { start: number; count: number }; columns: { start: number; count: number } }) =>
    grid.slice(block.rows.start, block.rows.start + block.rows.count).map((r) => Array.from({ length: block.columns.count }, (_, j) => r[block.columns.start + j] ?? ''));

  it('puts a removed column back with its cells on their rows now (rows inserted, sorted and removed since; a removed row\'s cell gone), and versions show it', async () => {
    const s = await sheet(labelled(1200, 4));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    const U = await commit(a, s.id, { id: 'a-remove', type: 'columns_remove', index: 1, count: 1, base_version: s.version });
    // Since the remove: B types (into old column C), a row inserted above, a sort, a row removed.
    let v = await commit(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 10, column: 1 }, value: 'B typed', base_version: U });
    v = await commit(a, s.id, { id: 'a-ins', type: 'rows_insert', index: 0, count: 1, base_version: v });
    v = await commit(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 0, direction: 'desc', base_version: v });
    const sorted = (await server(s.id)).data;
    const gone = sorted.findIndex((r) => r[0] === 'r700c0');
    v = await commit(b, s.id, { id: 'b-rm', type: 'rows_remove', index: gone, count: 1, base_version: v });
    const now = (await server(s.id)).data;
    assert.equal(now.length, 1200);

    // What a user expects: column B back, each row (named in column 0) with its own B cell; the inserted row's empty.
    const label = (r: GridData[number]) => /^r(\d+)c0$/.exec(String(r[0]))?.[1];
    const expected = shown(now, 3).map((r) => [r[0], label(r) === undefined ? '' : `r${label(r)}c1`, ...r.slice(1)]);
    assert.equal(expected.filter((r) => r[1] === '').length, 1);
    assert.ok(!expected.some((r) => r[1] === 'r700c1'));

    const replica = new Replica(structuredClone(now), v, (_version, block) => cut(expected, block));
    const seen = b.frames.length;
    send(a, s.id, { id: 'a-undo', type: 'columns_insert', index: 1, count: 1, undo: U, base_version: v });
    const ack = await a.next('ack', (f) => f.data.operation_id === 'a-undo');
    assert.equal(ack.data.version, v + 1);
    const told = await b.next('operation', (f) => f.data.operation.id === 'a-undo');
    assert.equal(told.data.version, v + 1);
    const op = told.data.operation;
    assert.deepEqual(op.type === 'columns_insert' && [op.index, op.count, op.undo, op.user_id], [1, 1, U, admin.userId]);
    replica.absorb(b.since(seen));
    assert.equal(replica.version, v + 1);

    const fresh = await server(s.id);
    assert.deepEqual([fresh.version, fresh.metadata.columns], [v + 1, 4]);
    assert.deepEqual(shown(fresh.data, 4), expected);
    assert.deepEqual(shown(replica.grid, 4), expected);
    const window = await api.get(`/api/v1/sheets/${s.id}/rows?start=490&count=20`);
    assert.equal(window.statusCode, 200, window.body);
    assert.deepEqual(shown((window.json() as { data: GridData }).data, 4), expected.slice(490, 510));

    // One version: it previews as the grid now, the one before as it was; the one before the remove is the sheet first made.
    assert.deepEqual(shown(await rowsOf(s.id, v + 1), 4), expected);
    assert.deepEqual(shown(await rowsOf(s.id, v), 3), shown(now, 3));
    assert.deepEqual(shown(await rowsOf(s.id, U - 1), 4), s.data);
    const list = await api.get(`/api/v1/sheets/${s.id}/history`);
    assert.equal(list.statusCode, 200, list.body);
    const [newest] = (list.json() as { versions: { version: number; kind: string }[] }).versions;
    assert.deepEqual([newest.version, newest.kind], [v + 1, 'columns_insert']);
    // A cell put back: its history says which version did it.
    const at = expected.findIndex((r) => r[0] === 'r150c0');
    const history = await api.get(`/api/v1/sheets/${s.id}/cells/${at}/1/history`);
    assert.equal(history.statusCode, 200, history.body);
    const [last] = (history.json() as { changes: { version: number; kind: string; new: unknown }[] }).changes;
    assert.deepEqual([last.version, last.kind, last.new], [v + 1, 'columns_insert', 'r150c1']);
    // A late client catches up with the one op from the log, `undo` and all.
    const late = await join(s.id, bob.accessToken, 'late', v);
    const replayed = (await late.next('operation', (f) => f.data.version === v + 1)).data.operation;
    assert.deepEqual(replayed.type === 'columns_insert' && [replayed.index, replayed.count, replayed.undo], [1, 1, U]);
    const restored = await api.post(`/api/v1/sheets/${s.id}/snapshots/${v}/restore`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual(shown((await server(s.id)).data, 3), shown(now, 3));
    const again = await api.post(`/api/v1/sheets/${s.id}/snapshots/${v + 1}/restore`);
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(shown((await server(s.id)).data, 4), expected);
  });

  it('puts 600 removed rows (across chunks) back with their cells in their columns now (a column inserted and one removed since)', async () => {
    const s = await sheet(labelled(1200, 4));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    const U = await commit(a, s.id, { id: 'a-remove', type: 'rows_remove', index: 300, count: 600, base_version: s.version });
    let v = await commit(b, s.id, { id: 'b-col', type: 'columns_insert', index: 1, count: 1, base_version: U });
    v = await commit(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 5, column: 1 }, value: 'typed', base_version: v });
    // Old column C (now D) removed.
    v = await commit(a, s.id, { id: 'a-col', type: 'columns_remove', index: 3, count: 1, base_version: v });
    const now = shown((await server(s.id)).data, 4);
    assert.equal(now.length, 600);
    const back = Array.from({ length: 600 }, (_, i) => [`r${300 + i}c0`, '', `r${300 + i}c1`, `r${300 + i}c3`]);
    const expected = [...now.slice(0, 300), ...back, ...now.slice(300)];
    // Sent on the base before the column ops: placed as any insert.
    const replica = new Replica(structuredClone(now), v, (_version, block) => cut(expected, block));
    const seen = b.frames.length;
    const done = await commit(a, s.id, { id: 'a-undo', type: 'rows_insert', index: 300, count: 600, undo: U, base_version: U });
    assert.equal(done, v + 1);
    const told = (await b.next('operation', (f) => f.data.operation.id === 'a-undo')).data.operation;
    assert.deepEqual(told.type === 'rows_insert' && [told.index, told.count, told.undo], [300, 600, U]);
    replica.absorb(b.since(seen));
    assert.deepEqual(shown(replica.grid, 4), expected);
    const fresh = await server(s.id);
    assert.equal(fresh.version, v + 1);
    assert.deepEqual(shown(fresh.data, 4), expected);
    const window = await api.get(`/api/v1/sheets/${s.id}/rows?start=480&count=40`);
    assert.deepEqual(shown((window.json() as { data: GridData }).data, 4), expected.slice(480, 520));
    assert.deepEqual(shown(await rowsOf(s.id, v + 1), 4), expected);
    assert.deepEqual(shown(await rowsOf(s.id, v), 4), now);
  });

  it('formulas of a removed column put back after a sort read as they would had the column never been removed (relative references moved with their rows)', async () => {
    const data: GridData = [
      [3, '=A1*2', 'x'],
      [1, '=A2*2', 'y'],
      [2, '=SUM(A1:A3)', '=$A$1+1'],
    ];
    const [removed, kept] = [await sheet(data), await sheet(data)];
    const a = await join(removed.id, admin.accessToken, 'A', removed.version);
    const k = await join(kept.id, admin.accessToken, 'K', kept.version);
    const U = await commit(a, removed.id, { id: 'remove', type: 'columns_remove', index: 1, count: 1 });
    await commit(a, removed.id, { id: 'sort', type: 'rows_sort', column: 0, direction: 'asc' });
    await commit(k, kept.id, { id: 'sort', type: 'rows_sort', column: 0, direction: 'asc' });
    await commit(a, removed.id, { id: 'undo', type: 'columns_insert', index: 1, count: 1, undo: U });
    const expected = (await server(kept.id)).data;
    // Rows 1, 2, 0 in that order: row 1's formula moved up one, row 2's up one (its range past the top: #REF!), row 0's down two.
    assert.deepEqual(expected.map((r) => r[1]), ['=A1*2', '=SUM(#REF!:A2)', '=A3*2']);
    assert.deepEqual((await server(removed.id)).data, expected);
  });

  it('after old versions were pruned the undo still puts back the cells as they were just before the remove (the pruner keeps that version)', async () => {
    const s = await sheet(labelled(1200, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    for (let k = 0; k < 4; k++) await commit(a, s.id, { id: `edit-${k}`, type: 'cell_update', position: { row: 600 + k, column: 1 }, value: `edit ${k}` });
    const before = (await server(s.id)).data;
    const U = await commit(a, s.id, { id: 'remove', type: 'columns_remove', index: 1, count: 1 });
    await commit(a, s.id, { id: 'typed', type: 'cell_update', position: { row: 3, column: 1 }, value: 'typed' });
    await sql`UPDATE sheet_ops SET created_at = now() - make_interval(hours => 100 - version) WHERE sheet_id = ${s.id}::uuid`.execute(t.app.db);
    const pruned = await api.post(`/api/v1/sheets/${s.id}/history/prune`, { recent: 1, daily: 0 });
    assert.equal(pruned.statusCode, 200, pruned.body);
    assert.ok((pruned.json() as { pruned: number }).pruned > 0, pruned.body);
    await commit(a, s.id, { id: 'undo', type: 'columns_insert', index: 1, count: 1, undo: U });
    before[3][2] = 'typed';
    assert.deepEqual(shown((await server(s.id)).data, 3), before);
  });

  it('refuses an undo of what is not a remove, of the other axis or count, of a replaced grid, or whose history is gone — each with its text, nothing changed', async () => {
    const refused = async (c: LiveClient, id: string, operation: object, code: string, message: string) => {
      const before = await server(id);
      const opId = `undo-${Math.random().toString(36).slice(2, 8)}`;
      send(c, id, { ...operation, id: opId });
      assert.deepEqual((await c.next('error', (f) => f.data.operation_id === opId)).data, { code, message, operation_id: opId });
      const after = await server(id);
      assert.deepEqual([after.version, after.metadata.rows, after.metadata.columns], [before.version, before.metadata.rows, before.metadata.columns], 'no version made');
      assert.deepEqual(after.data, before.data, 'nothing changed');
    };
    const s = await sheet(labelled(600, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const edit = await commit(a, s.id, { id: 'edit', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' });
    const bad = ERROR_CODES.badRequest;
    await refused(a, s.id, { type: 'columns_insert', index: 1, count: 1, undo: edit }, bad, STRUCTURE_UNDO_TEXTS.notRemove(edit));
    await refused(a, s.id, { type: 'rows_insert', index: 1, count: 1, undo: edit + 5 }, bad, STRUCTURE_UNDO_TEXTS.notRemove(edit + 5));
    const removed = await commit(a, s.id, { id: 'rm-col', type: 'columns_remove', index: 1, count: 1 });
    // The other axis, the other count, an insert that is itself not a remove.
    await refused(a, s.id, { type: 'rows_insert', index: 1, count: 1, undo: removed }, bad, STRUCTURE_UNDO_TEXTS.notRemove(removed));
    await refused(a, s.id, { type: 'columns_insert', index: 1, count: 2, undo: removed }, bad, STRUCTURE_UNDO_TEXTS.notRemove(removed));
    const inserted = await commit(a, s.id, { id: 'ins-col', type: 'columns_insert', index: 0, count: 1 });
    await refused(a, s.id, { type: 'columns_insert', index: 1, count: 1, undo: inserted }, bad, STRUCTURE_UNDO_TEXTS.notRemove(inserted));
    const rows = await commit(a, s.id, { id: 'rm-rows', type: 'rows_remove', index: 10, count: 3 });
    await refused(a, s.id, { type: 'columns_insert', index: 1, count: 3, undo: rows }, bad, STRUCTURE_UNDO_TEXTS.notRemove(rows));

    // History trimmed below the remove (no snapshot to rebuild the version before it from).
    const trimmed = await commit(a, s.id, { id: 'rm-rows-2', type: 'rows_remove', index: 0, count: 500 });
    await sql`DELETE FROM sheet_snapshots WHERE sheet_id = ${s.id}::uuid AND version < ${trimmed}::int`.execute(t.app.db);
    await refused(a, s.id, { type: 'rows_insert', index: 0, count: 500, undo: trimmed }, ERROR_CODES.conflict, STRUCTURE_UNDO_TEXTS.unavailable);

    // The whole grid saved over since.
    const t2 = await sheet(labelled(20, 3));
    const c = await join(t2.id, admin.accessToken, 'C', t2.version);
    const replaced = await commit(c, t2.id, { id: 'rm', type: 'columns_remove', index: 2, count: 1 });
    const put = await api.put(`/api/v1/sheets/${t2.id}`, { data: labelled(3, 2), base_version: replaced });
    assert.equal(put.statusCode, 200, put.body);
    await refused(c, t2.id, { type: 'columns_insert', index: 2, count: 1, undo: replaced }, ERROR_CODES.conflict, STRUCTURE_UNDO_TEXTS.replaced);
  });
});
