import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GridData, SheetSchema, SheetVersionSchema } from '@tessera/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { restructure } from '../src/sheets/structure-op.js';
import { applyChanges, LiveClient, Replica } from './live-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

/**
 * Rows and columns inserted or removed over the sheet socket, and operations re-sent after a
 * reconnect (idempotency by operation id), with real `ws` clients on loopback.
 */
describe('live structural operations and operation ids', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  /** A 4 × 3 sheet whose cells say where they started ("r0c0" ...). */
  const grid = (): GridData => Array.from({ length: 4 }, (_, r) => Array.from({ length: 3 }, (_, c) => `r${r}c${c}`));
  const sheet = async (body: object = {}) => {
    const res = await api.post('/api/v1/sheets', { name: `Structure ${Math.random().toString(36).slice(2, 8)}`, data: grid(), ...body });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const server = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const join = async (sheetId: string, token: string, opts: { since?: number; label?: string } = {}) => {
    const c = await LiveClient.join(base, sheetId, token, opts);
    open.push(c);
    return c;
  };
  const structureOp = (sheetId: string, id: string, type: string, index: unknown, count: unknown) => ({
    type: 'operation',
    sheet_id: sheetId,
    operation: { id, type, index, count, user_id: 'forged-user' },
  });
  const cellOp = (sheetId: string, id: string, row: number, column: number, value: string) => ({
    type: 'operation',
    sheet_id: sheetId,
    operation: { id, type: 'cell_update', position: { row, column }, value },
  });

  describe('rows and columns', () => {
    it('inserts and removes rows: acked after the commit, broadcast with the version, every replica equals the server', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken, { since: s.version, label: 'admin' });
      const b = await join(s.id, bob.accessToken, { since: s.version, label: 'bob' });
      const replica = new Replica(structuredClone(s.data), s.version);

      a.send(structureOp(s.id, 'ins-1', 'rows_insert', 1, 2));
      const ack = await a.next('ack');
      assert.equal(ack.data.operation_id, 'ins-1');
      assert.equal(ack.data.version, s.version + 1);
      const afterInsert = await server(s.id);
      assert.equal(afterInsert.version, ack.data.version, 'in the database before the ack');
      assert.deepEqual(afterInsert.data, [grid()[0], ['', '', ''], ['', '', ''], ...grid().slice(1)]);
      assert.equal(afterInsert.metadata.rows, 6);

      const op = await b.next('operation');
      assert.equal(op.data.version, ack.data.version);
      assert.deepEqual(
        { ...op.data.operation, timestamp: undefined },
        { id: 'ins-1', type: 'rows_insert', index: 1, count: 2, user_id: admin.userId, timestamp: undefined },
        "stamped with the token's user, not the frame's",
      );
      assert.equal(a.frames.filter((f) => f.type === 'operation').length, 0, 'the sender gets the ack only');

      // Removing the last two rows (a range that ends at the sheet's end is inside it).
      b.send(structureOp(s.id, 'del-1', 'rows_remove', 4, 2));
      const ack2 = await b.next('ack');
      await a.next('operation');
      const afterRemove = await server(s.id);
      assert.equal(afterRemove.version, ack2.data.version);
      assert.deepEqual(afterRemove.data, [grid()[0], ['', '', ''], ['', '', ''], grid()[1]]);

      replica.sent.set('ins-1', { type: 'rows_insert', index: 1, count: 2 });
      replica.absorb(a.frames);
      assert.equal(replica.version, afterRemove.version);
      assert.deepEqual(replica.grid, afterRemove.data);
    });

    it('inserts and removes columns; default headers are relabelled, named ones move with their column', async () => {
      const lettered = await sheet();
      const named = await sheet({ headers: ['Name', 'Age', 'City'] });
      for (const s of [lettered, named]) {
        const a = await join(s.id, admin.accessToken, { label: `admin on ${s.name}` });
        a.send(structureOp(s.id, 'cols-in', 'columns_insert', 1, 1));
        await a.next('ack');
        const inserted = await server(s.id);
        assert.deepEqual(
          inserted.data.map((row) => row.join('|')),
          grid().map((row) => [row[0], '', row[1], row[2]].join('|')),
        );
        assert.equal(inserted.metadata.columns, 4);
        a.send(structureOp(s.id, 'cols-out', 'columns_remove', 2, 2));
        await a.next('ack');
        const removed = await server(s.id);
        assert.deepEqual(
          removed.data.map((row) => row.join('|')),
          grid().map((row) => `${row[0]}|`),
        );
        assert.equal(removed.metadata.columns, 2);
        if (s === lettered) {
          assert.deepEqual(inserted.metadata.headers, ['A', 'B', 'C', 'D']);
          assert.deepEqual(removed.metadata.headers, ['A', 'B']);
        } else {
          assert.deepEqual(inserted.metadata.headers, ['Name', 'B', 'Age', 'City']);
          assert.deepEqual(removed.metadata.headers, ['Name', 'B']);
        }
      }
    });

    it('refuses a range outside the sheet and malformed operations with an error frame; nothing changes, others unharmed', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken, { label: 'sender' });
      const b = await join(s.id, bob.accessToken, { label: 'bystander' });
      const bad: [unknown, string, RegExp][] = [
        [structureOp(s.id, 'r1', 'rows_insert', 5, 1), 'bad_request', /Cannot insert rows at row 6: the sheet has 4 rows/],
        [structureOp(s.id, 'r2', 'rows_remove', 3, 2), 'bad_request', /Cannot remove rows 4 to 5: the sheet has 4 rows/],
        [structureOp(s.id, 'r3', 'columns_insert', 4, 1), 'bad_request', /Cannot insert columns at column 5: the sheet has 3 columns/],
        [structureOp(s.id, 'r4', 'columns_remove', 0, 4), 'bad_request', /Cannot remove columns 1 to 4: the sheet has 3 columns/],
        [structureOp(s.id, 'r5', 'columns_insert', 0, 16_384), 'bad_request', /at most 16384 columns/],
        [structureOp(s.id, 't1', 'rows_insert', '1', 1), 'validation_failed', /operation\.index/],
        [structureOp(s.id, 't2', 'rows_insert', 1, 0), 'validation_failed', /operation\.count/],
        [structureOp(s.id, 't3', 'rows_remove', -1, 1), 'validation_failed', /operation\.index/],
        [structureOp(s.id, 't4', 'columns_remove', 1.5, 1), 'validation_failed', /operation\.index/],
        [structureOp(s.id, 't5', 'rows_insert', 1, 2_000_000), 'validation_failed', /operation\.count/],
        [{ ...structureOp(s.id, 't6', 'rows_insert', 1, 1), operation: { id: 't6', type: 'rows_insert', index: 1 } }, 'validation_failed', /operation\.count/],
        [structureOp(s.id, 't7', 'rows_shuffle', 1, 1), 'validation_failed', /operation\.type/],
      ];
      for (const [frame, code, message] of bad) {
        a.send(frame);
        const error = await a.next('error');
        assert.equal(error.data.code, code, JSON.stringify(frame));
        assert.match(error.data.message, message, JSON.stringify(frame));
      }
      assert.deepEqual(
        a.frames.filter((f) => f.type === 'error').map((f) => f.type === 'error' && f.data.operation_id),
        ['r1', 'r2', 'r3', 'r4', 'r5', 't1', 't2', 't3', 't4', 't5', 't6', 't7'],
      );
      const unchanged = await server(s.id);
      assert.equal(unchanged.version, s.version);
      assert.deepEqual(unchanged.data, grid());
      // The same sockets still work.
      b.send(structureOp(s.id, 'fine', 'rows_insert', 4, 1));
      assert.equal((await b.next('ack')).data.version, s.version + 1);
      assert.equal((await a.next('operation')).data.operation.id, 'fine');
      assert.equal(b.frames.filter((f) => f.type === 'error').length, 0);
    });

    it('replays a structural op to a reconnecting client (no sync), with the sender\'s operation id', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      a.send(cellOp(s.id, 'c-1', 0, 0, 'edited'));
      a.send(structureOp(s.id, 's-1', 'rows_insert', 0, 1));
      a.send(structureOp(s.id, 's-2', 'columns_remove', 0, 1));
      a.send(cellOp(s.id, 'c-2', 0, 0, 'top left'));
      for (let i = 0; i < 4; i++) await a.next('ack');
      const late = await join(s.id, bob.accessToken, { since: s.version, label: 'late' });
      await late.waitFor((f) => (f.filter((x) => x.type === 'operation').length === 4 ? true : undefined), 'the replay of 4 ops');
      assert.equal(late.frames.some((f) => f.type === 'sync'), false);
      assert.deepEqual(
        late.frames.flatMap((f) => (f.type === 'operation' ? [`${f.data.operation.id}:${f.data.operation.type}`] : [])),
        ['c-1:cells_update', 's-1:rows_insert', 's-2:columns_remove', 'c-2:cells_update'],
      );
      const replica = new Replica(structuredClone(s.data), s.version);
      replica.absorb(late.frames);
      assert.deepEqual(replica.grid, (await server(s.id)).data);
    });

    it('records a version per structural op: history, any version rebuilt, restore across it', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      for (let i = 0; i < 5; i++) {
        a.send(cellOp(s.id, `e-${i}`, 3, 2, `edit ${i}`));
        await a.next('ack');
      }
      const beforeStructure = await server(s.id);
      a.send(structureOp(s.id, 'grow', 'rows_insert', 0, 3));
      const grown = (await a.next('ack')).data.version;
      a.send(cellOp(s.id, 'after', 0, 0, 'new top'));
      await a.next('ack');

      const history = (await api.get(`/api/v1/sheets/${s.id}/history`)).json() as { versions: { version: number; kind: string; author: string }[] };
      const entry = history.versions.find((v) => v.version === grown);
      assert.equal(entry?.kind, 'rows_insert');

      // The version just before the structural op is nearer to it than to version 1's snapshot: rebuilt forwards all the same.
      const rebuilt = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${beforeStructure.version}`)).json());
      assert.deepEqual(rebuilt.rows, beforeStructure.data);
      const atGrown = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${grown}`)).json());
      assert.deepEqual(atGrown.rows, [['', '', ''], ['', '', ''], ['', '', ''], ...beforeStructure.data]);

      const restored = await api.post(`/api/v1/sheets/${s.id}/snapshots/${beforeStructure.version}/restore`, {});
      assert.equal(restored.statusCode, 200, restored.body);
      // The socket gets the restore as a sync.
      const sync = await a.next('sync');
      assert.deepEqual(sync.data.data, beforeStructure.data);
      assert.deepEqual((await server(s.id)).data, beforeStructure.data);
    });
  });

  describe('history across structural operations (property)', () => {
    type Step =
      | { kind: 'cell'; row: number; col: number; value: string }
      | { kind: 'rows_insert' | 'rows_remove' | 'columns_insert' | 'columns_remove'; at: number; count: number };
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('cell' as const), row: fc.nat({ max: 6 }), col: fc.nat({ max: 4 }), value: fc.string({ maxLength: 3 }) }) },
      fc.record({
        kind: fc.constantFrom('rows_insert' as const, 'rows_remove' as const, 'columns_insert' as const, 'columns_remove' as const),
        at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        count: fc.integer({ min: 1, max: 2 }),
      }),
    );
    /**
     * Every row padded (or cut) to the sheet's column count: a stored row may be shorter, a rebuilt one never is;
     * and empty is empty whether absent, null or '' (as cell-grid.ts sameCell has it).
     */
    const square = (grid: GridData, columns: number) => grid.map((row) => Array.from({ length: columns }, (_, c) => row[c] ?? ''));
    const squareRebuilt = (grid: GridData) => grid.map((row) => row.map((v) => v ?? ''));

    it('rebuilds every version exactly, across structural ops and snapshots every 3 versions', async () => {
      const previous = process.env.VERSION_SNAPSHOT_EVERY;
      process.env.VERSION_SNAPSHOT_EVERY = '3';
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 18 }), async (steps) => {
            const s = await sheet();
            const c = await join(s.id, admin.accessToken, { label: 'property' });
            // The model: the grid and the column count at every version, as the server should have them.
            let model = { grid: structuredClone(s.data), columns: 3 };
            const byVersion = new Map([[s.version, square(model.grid, 3)]]);
            for (const [i, step] of steps.entries()) {
              const grid = structuredClone(model.grid);
              let columns = model.columns;
              let operation: object;
              if (step.kind === 'cell') {
                operation = { type: 'cell_update', position: { row: step.row, column: step.col }, value: step.value };
                applyChanges(grid, [step]);
                columns = Math.max(columns, step.col + 1);
              } else {
                const size = step.kind.startsWith('rows') ? grid.length : columns;
                const removing = step.kind.endsWith('remove');
                if (removing && size === 0) continue;
                const count = removing ? Math.min(step.count, size) : step.count;
                const index = Math.floor(step.at * (removing ? size - count + 1 : size + 1));
                operation = { type: step.kind, index, count };
                const next = restructure(grid, [], columns, { type: step.kind, index, count });
                columns = next.colCount;
              }
              c.send({ type: 'operation', sheet_id: s.id, operation: { id: `p-${i}`, ...operation } });
              const ack = await c.next('ack');
              model = { grid, columns };
              byVersion.set(ack.data.version, square(grid, columns));
            }
            const live = await server(s.id);
            assert.deepEqual(square(live.data, live.metadata.columns), byVersion.get(live.version));
            for (const [version, expected] of byVersion) {
              const rebuilt = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${version}`)).json());
              assert.deepEqual(squareRebuilt(rebuilt.rows), expected, `version ${version}`);
            }
            await c.close();
          }),
          { numRuns: 6 },
        );
      } finally {
        if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
        else process.env.VERSION_SNAPSHOT_EVERY = previous;
      }
    });
  });

  describe('operation ids (a client re-sends what was not acked after a reconnect)', () => {
    it('acks an operation id already applied on the sheet again with its version, without applying or broadcasting it twice', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken, { label: 'writer' });
      const b = await join(s.id, bob.accessToken, { label: 'watcher' });
      a.send(cellOp(s.id, 'once', 1, 1, 'first'));
      a.send(structureOp(s.id, 'once-rows', 'rows_insert', 0, 1));
      const first = await a.next('ack');
      const firstRows = await a.next('ack');
      await b.next('operation');
      await b.next('operation');
      await a.close();

      // The reconnected client re-sends both (it never saw the acks), one of them changed meanwhile.
      const again = await join(s.id, admin.accessToken, { since: s.version, label: 'writer again' });
      const mark = b.frames.length;
      again.send(cellOp(s.id, 'once', 1, 1, 'second try'));
      again.send(structureOp(s.id, 'once-rows', 'rows_insert', 0, 1));
      const reAck = await again.next('ack');
      const reAckRows = await again.next('ack');
      assert.deepEqual(reAck.data, first.data, 'the original version and time');
      assert.deepEqual(reAckRows.data, firstRows.data);

      const now = await server(s.id);
      assert.equal(now.version, firstRows.data.version, 'no new version');
      assert.equal(now.data[2][1], 'first');
      assert.equal(now.data.length, 5, 'one row inserted, once');

      // A later op reaches the watcher right after the earlier ones: nothing was broadcast for the re-sends.
      again.send(cellOp(s.id, 'new', 0, 0, 'new'));
      await b.next('operation', (f) => f.data.operation.id === 'new');
      assert.deepEqual(
        b.since(mark).flatMap((f) => (f.type === 'operation' ? [f.data.operation.id] : [])),
        ['new'],
      );
      // The same id on another sheet is another operation.
      const other = await sheet();
      const c = await join(other.id, admin.accessToken);
      c.send(cellOp(other.id, 'once', 0, 0, 'elsewhere'));
      assert.equal((await c.next('ack')).data.version, other.version + 1);
    });

    it('keeps the ids in the op log: a restarted hub (nothing in memory) still recognises them', async () => {
      const s = await sheet();
      const a = await join(s.id, admin.accessToken);
      a.send(cellOp(s.id, 'durable', 0, 1, 'x'));
      const ack = await a.next('ack');
      const logged = await t.app.db
        .selectFrom('sheet_ops')
        .select(['version', 'kind'])
        .where('sheet_id', '=', s.id)
        .where(sql<boolean>`op_id = ${'durable'}`)
        .executeTakeFirstOrThrow();
      assert.deepEqual(logged, { version: ack.data.version, kind: 'cells' });
      // Another SheetsService on the same database, as another api process (or a restart) has it.
      const fresh = new SheetsService(t.app.db);
      const result = await fresh.patchCells(s.id, { base_version: ack.data.version, changes: [{ row: 0, col: 1, value: 'y' }] }, admin.userId, 'test', 'durable');
      assert.deepEqual(result, { id: s.id, version: ack.data.version, updated_at: ack.data.timestamp, duplicate: true });
      assert.equal((await server(s.id)).data[0][1], 'x');
    });
  });
});
