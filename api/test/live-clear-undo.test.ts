import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLEAR_TEXTS, ERROR_CODES, type GridData, SheetSchema } from '@tessera/contracts';
import { sql } from 'kysely';
import { LiveClient, Replica } from './live-client.js';
import { closeLiveStack, labelledGrid as labelled, liveSheetTools, type LiveStack, startLiveStack } from './support/live-stack.js';

/**
 * Ctrl+Z of a cells_clear (a whole-column Delete on a windowed sheet) is one small live op,
 * cells_clear_undo, done by the server: the cleared cells come back where their rows and columns
 * are now, cells typed into since keep what was typed, cells whose row or column was removed are
 * gone. Real `ws` clients on loopback; PGlite, or PostgreSQL under TEST_PG_URL.
 */
describe('a clear undone (cells_clear_undo)', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const { sheet, server, join, send, commit } = liveSheetTools(() => ({ t, base, admin, bob, api }), open, 'Undo');
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  const rowsOf = async (id: string, v: number) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { rows: GridData }).rows;
  };
  const blank = (grid: GridData) => grid.map((r) => r.map((c) => (empty(c) ? '' : c)));

  it('puts back the cleared cells of a multi-chunk block where their rows went (inserted, removed, sorted since), keeps what was typed, and versions show it', async () => {
    const s = await sheet(labelled(1200, 4));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const b = await join(s.id, bob.accessToken, 'B', s.version);
    // Rows 100-1099 of columns 1 and 2: three chunks of 500 rows.
    const U = await commit(a, s.id, { id: 'a-clear', type: 'cells_clear', rows: { start: 100, count: 1000 }, columns: { start: 1, count: 2 }, base_version: s.version });
    assert.equal(U, s.version + 1);
    // Since the clear: B types into the block; a row inserted above it; rows 500-501 (as they were) and column 2 removed; a sort.
    let v = await commit(b, s.id, { id: 'b-typed', type: 'cell_update', position: { row: 200, column: 1 }, value: 'B typed', base_version: U });
    v = await commit(a, s.id, { id: 'a-ins', type: 'rows_insert', index: 0, count: 1, base_version: v });
    v = await commit(b, s.id, { id: 'b-typed2', type: 'cell_update', position: { row: 301, column: 2 }, value: 'B gone with its column', base_version: v });
    v = await commit(a, s.id, { id: 'a-rows', type: 'rows_remove', index: 501, count: 2, base_version: v });
    v = await commit(a, s.id, { id: 'a-col', type: 'columns_remove', index: 2, count: 1, base_version: v });
    v = await commit(a, s.id, { id: 'a-sort', type: 'rows_sort', column: 0, direction: 'desc', base_version: v });
    const now = (await server(s.id)).data;

    // What a user expects: each row (named in column 0) still there gets its column 1 back where it is empty.
    const expected = structuredClone(now);
    const rowNow = new Map(now.map((r, i) => [r[0], i]));
    let [low, high] = [Infinity, -1];
    for (let r = 100; r < 1100; r++) {
      const at = rowNow.get(`r${r}c0`);
      if (r === 500 || r === 501) {
        assert.equal(at, undefined, 'removed rows are gone');
        continue;
      }
      assert.notEqual(at, undefined);
      if (!empty(expected[at!][1])) continue;
      expected[at!][1] = `r${r}c1`;
      [low, high] = [Math.min(low, at!), Math.max(high, at!)];
    }
    assert.equal(expected[rowNow.get('r200c0')!][1], 'B typed');

    const replica = new Replica(structuredClone(now), v, (_version, block) =>
      expected.slice(block.rows.start, block.rows.start + block.rows.count).map((r) => r.slice(block.columns.start, block.columns.start + block.columns.count)),
    );
    const seen = b.frames.length;
    send(a, s.id, { id: 'a-undo', type: 'cells_clear_undo', undo: U, base_version: s.version });
    const ack = await a.next('ack', (f) => f.data.operation_id === 'a-undo');
    assert.equal(ack.data.version, v + 1);
    // Everyone else is told the one small op: the block holding the cells put back, not the values.
    const told = await b.next('operation', (f) => f.data.operation.id === 'a-undo');
    assert.equal(told.data.version, v + 1);
    assert.deepEqual(told.data.operation.type === 'cells_clear_undo' && [told.data.operation.undo, told.data.operation.rows, told.data.operation.columns], [
      U,
      { start: low, count: high - low + 1 },
      { start: 1, count: 1 },
    ]);
    assert.equal(told.data.operation.user_id, admin.userId);
    replica.absorb(b.since(seen));
    assert.equal(replica.version, v + 1);

    const fresh = (await server(s.id)).data;
    assert.deepEqual(blank(fresh), blank(expected));
    assert.deepEqual(blank(replica.grid), blank(fresh));
    // Windows of rows read through the row window route too (what a windowed sheet shows).
    const window = await api.get(`/api/v1/sheets/${s.id}/rows?start=490&count=20`);
    assert.equal(window.statusCode, 200, window.body);
    assert.deepEqual(blank((window.json() as { data: GridData }).data), blank(expected.slice(490, 510)));

    // One version: it previews as the grid is now, the one before as it was; a restore of either gives it back.
    assert.deepEqual(blank(await rowsOf(s.id, v + 1)), blank(expected));
    assert.deepEqual(blank(await rowsOf(s.id, v)), blank(now));
    const list = await api.get(`/api/v1/sheets/${s.id}/history`);
    assert.equal(list.statusCode, 200, list.body);
    const [newest] = (list.json() as { versions: { version: number; kind: string }[] }).versions;
    assert.deepEqual([newest.version, newest.kind], [v + 1, 'cells_clear_undo']);
    const change = await api.get(`/api/v1/sheets/${s.id}/snapshots/${v + 1}`);
    assert.equal(change.statusCode, 200, change.body);
    // A cell put back: its history says so.
    const history = await api.get(`/api/v1/sheets/${s.id}/cells/${rowNow.get('r150c0')}/1/history`);
    assert.equal(history.statusCode, 200, history.body);
    const [last] = (history.json() as { changes: { version: number; kind: string; old: unknown; new: unknown }[] }).changes;
    assert.deepEqual(last, { ...last, version: v + 1, kind: 'cells_clear_undo', new: 'r150c1' });
    // A late client catches up with the one op from the log.
    const late = await join(s.id, bob.accessToken, 'late', v);
    const replayed = await late.next('operation', (f) => f.data.version === v + 1);
    assert.equal(replayed.data.operation.type, 'cells_clear_undo');
    const restored = await api.post(`/api/v1/sheets/${s.id}/snapshots/${v}/restore`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual(blank((await server(s.id)).data), blank(now));
    const again = await api.post(`/api/v1/sheets/${s.id}/snapshots/${v + 1}/restore`);
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(blank((await server(s.id)).data), blank(expected));
  });

  it('an undo with no move since puts the block back as it was; one that finds every cell typed into is applied and puts nothing back', async () => {
    const s = await sheet(labelled(1200, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const U = await commit(a, s.id, { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 1200 }, columns: { start: 2, count: 1 }, base_version: s.version });
    const v = await commit(a, s.id, { id: 'undo', type: 'cells_clear_undo', undo: U });
    assert.deepEqual((await server(s.id)).data, s.data);
    // The same undo again: nothing is empty any more, nothing changes, still one version.
    assert.equal(await commit(a, s.id, { id: 'undo-again', type: 'cells_clear_undo', undo: U }), v + 1);
    assert.deepEqual((await server(s.id)).data, s.data);
    // Re-sent (its ack lost): acked at its first version, applied once.
    send(a, s.id, { id: 'undo', type: 'cells_clear_undo', undo: U });
    assert.equal((await a.next('ack', (f) => f.data.operation_id === 'undo')).data.version, v);
    assert.equal((await server(s.id)).version, v + 1);

    // A sheet sized by metadata (its rows stored empty) with a few cells typed.
    const sized = await api.post('/api/v1/sheets', { name: `Sized ${Math.random().toString(36).slice(2, 8)}`, metadata: { rows: 1200, columns: 3 } });
    assert.equal(sized.statusCode, 201, sized.body);
    const m = SheetSchema.parse(sized.json());
    const c = await join(m.id, admin.accessToken, 'C', m.version);
    await commit(c, m.id, { id: 'typed', type: 'cells_update', changes: [{ row: 700, col: 2, value: 'v' }, { row: 1199, col: 2, value: 7 }] });
    const typed = (await server(m.id)).data;
    const mu = await commit(c, m.id, { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 1200 }, columns: { start: 0, count: 3 } });
    await commit(c, m.id, { id: 'undo', type: 'cells_clear_undo', undo: mu });
    assert.deepEqual(blank((await server(m.id)).data), blank(typed));
  });

  it('a formula put back after a sort reads as it would had it never been cleared (its relative references moved with its row)', async () => {
    const data: GridData = [
      [3, '=A1*2', '=$A$1+1'],
      [1, '=A2*2', 'x'],
      [2, '=SUM(A1:A3)', '=A3&"A1"'],
    ];
    const [cleared, kept] = [await sheet(data), await sheet(data)];
    const a = await join(cleared.id, admin.accessToken, 'A', cleared.version);
    const k = await join(kept.id, admin.accessToken, 'K', kept.version);
    const U = await commit(a, cleared.id, { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 3 }, columns: { start: 1, count: 2 } });
    await commit(a, cleared.id, { id: 'sort', type: 'rows_sort', column: 0, direction: 'asc' });
    await commit(k, kept.id, { id: 'sort', type: 'rows_sort', column: 0, direction: 'asc' });
    await commit(a, cleared.id, { id: 'undo', type: 'cells_clear_undo', undo: U });
    const expected = (await server(kept.id)).data;
    // Rows 1, 2, 0 in that order: the formulas of rows 1 and 0 moved up one and down two.
    assert.deepEqual([expected[0][1], expected[2][1], expected[2][2]], ['=A1*2', '=A3*2', '=$A$1+1']);
    assert.deepEqual((await server(cleared.id)).data, expected);
  });

  it('after old versions were pruned the undo still puts back the cells as they were just before the clear (the pruner keeps that version)', async () => {
    const s = await sheet(labelled(1200, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    for (let k = 0; k < 4; k++) await commit(a, s.id, { id: `edit-${k}`, type: 'cell_update', position: { row: 600 + k, column: 1 }, value: `edit ${k}` });
    const cleared = (await server(s.id)).data;
    const U = await commit(a, s.id, { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 1200 }, columns: { start: 1, count: 1 } });
    await commit(a, s.id, { id: 'typed', type: 'cell_update', position: { row: 3, column: 1 }, value: 'typed' });
    await sql`UPDATE sheet_ops SET created_at = now() - make_interval(hours => 100 - version) WHERE sheet_id = ${s.id}::uuid`.execute(t.app.db);
    const pruned = await api.post(`/api/v1/sheets/${s.id}/history/prune`, { recent: 1, daily: 0 });
    assert.equal(pruned.statusCode, 200, pruned.body);
    assert.ok((pruned.json() as { pruned: number }).pruned > 0, pruned.body);
    await commit(a, s.id, { id: 'undo', type: 'cells_clear_undo', undo: U });
    cleared[3][1] = 'typed';
    assert.deepEqual((await server(s.id)).data, cleared);
  });

  it('refuses an undo of what is not a clear, of a clear whose grid was replaced, whose cells are all gone, or whose history is gone — each with its text, nothing changed', async () => {
    const refused = async (c: LiveClient, id: string, undo: number, code: string, message: string) => {
      const before = await server(id);
      const opId = `undo-${Math.random().toString(36).slice(2, 8)}`;
      send(c, id, { id: opId, type: 'cells_clear_undo', undo });
      assert.deepEqual((await c.next('error', (f) => f.data.operation_id === opId)).data, { code, message, operation_id: opId });
      const after = await server(id);
      assert.equal(after.version, before.version, 'no version made');
      assert.deepEqual(after.data, before.data, 'nothing changed');
    };
    const s = await sheet(labelled(600, 3));
    const a = await join(s.id, admin.accessToken, 'A', s.version);
    const edit = await commit(a, s.id, { id: 'edit', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' });
    await refused(a, s.id, edit, ERROR_CODES.badRequest, CLEAR_TEXTS.undoNotClear(edit));
    await refused(a, s.id, edit + 5, ERROR_CODES.badRequest, CLEAR_TEXTS.undoNotClear(edit + 5));
    // A sort is not a clear either.
    const sorted = await commit(a, s.id, { id: 'sort', type: 'rows_sort', column: 1, direction: 'asc' });
    await refused(a, s.id, sorted, ERROR_CODES.badRequest, CLEAR_TEXTS.undoNotClear(sorted));

    // Every column of the clear removed since.
    const gone = await commit(a, s.id, { id: 'clear-1', type: 'cells_clear', rows: { start: 0, count: 600 }, columns: { start: 1, count: 1 } });
    await commit(a, s.id, { id: 'col-gone', type: 'columns_remove', index: 1, count: 1 });
    await refused(a, s.id, gone, ERROR_CODES.conflict, CLEAR_TEXTS.undoGone);

    // History trimmed below the clear (no snapshot to rebuild the version before it from).
    const trimmed = await commit(a, s.id, { id: 'clear-2', type: 'cells_clear', rows: { start: 10, count: 500 }, columns: { start: 0, count: 1 } });
    await sql`DELETE FROM sheet_snapshots WHERE sheet_id = ${s.id}::uuid AND version < ${trimmed}::int`.execute(t.app.db);
    await refused(a, s.id, trimmed, ERROR_CODES.conflict, CLEAR_TEXTS.undoUnavailable);

    // The whole grid saved over since.
    const replaced = await commit(a, s.id, { id: 'clear-3', type: 'cells_clear', rows: { start: 0, count: 5 }, columns: { start: 1, count: 1 } });
    const put = await api.put(`/api/v1/sheets/${s.id}`, { data: labelled(3, 2), base_version: replaced });
    assert.equal(put.statusCode, 200, put.body);
    await refused(a, s.id, replaced, ERROR_CODES.conflict, CLEAR_TEXTS.undoReplaced);
  });
});
