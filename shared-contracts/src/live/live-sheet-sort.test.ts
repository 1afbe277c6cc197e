import type { CellValue } from '../sheets/sheet.schema.js';
import type { LiveOperation, LiveServerFrame } from './live.schema.js';
import { LiveSheet, SEND_CELLS_PER_TURN } from './live-sheet.js';
import { SORT_TEXTS } from './rows-sort.js';

/** A sort on a LiveSheet whose copy is a plain grid of rows: the frames fed as the server sends them. */
const SHEET = 's1';

function setup(rows: CellValue[][]) {
  let grid = rows.map((r) => [...r]);
  const sent: LiveOperation[] = [];
  const log: string[] = [];
  const live = new LiveSheet({
    version: 1,
    send: (op) => sent.push(op),
    applyCells: (changes) => changes.forEach((c) => (grid[c.row][c.col] = c.value)),
    applyStructure: (op) => log.push(`${op.type} ${op.index} ${op.count}`),
    applySort: (order) => (grid = order.map((old) => grid[old])),
    replace: (sync) => {
      grid = (sync.data ?? []).map((r) => [...r]);
      log.push(`replace ${sync.version}`);
    },
    onVersion: () => {},
    onPending: () => {},
    onError: (message) => log.push(`error ${message}`),
    fetch: async () => {
      log.push('fetch');
      return null;
    },
  });
  return { live, sent, log, grid: () => grid };
}

const sortFrame = (version: number, order: number[], id = `r${version}`): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: SHEET, version, operation: { id, type: 'rows_sort', column: 0, direction: 'asc', order, user_id: 'bob', timestamp: 't' } },
});
const cellsFrame = (version: number, row: number, col: number, value: string): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: SHEET, version, operation: { id: `c${version}`, type: 'cells_update', changes: [{ row, col, value }], user_id: 'bob', timestamp: 't' } },
});

test('an own sort shows when its ack brings the order; an edit typed meanwhile goes on the version before and moves with its row', () => {
  const { live, sent, grid } = setup([['b', 'b!'], ['c', 'c!'], ['a', 'a!']]);
  live.send([{ id: 'sort', type: 'rows_sort', column: 0, direction: 'asc' }]);
  // Nothing moves before the server says how (others' edits may come first).
  expect(grid()).toEqual([['b', 'b!'], ['c', 'c!'], ['a', 'a!']]);
  // Typed on row 1 ("c") before the ack: sent at once on version 1; the server moves it through the sort.
  grid()[1][1] = 'typed';
  live.send([{ id: 'typed', type: 'cell_update', position: { row: 1, column: 1 }, value: 'typed' }]);
  expect(sent.map((op) => [op.id, op.base_version])).toEqual([
    ['sort', 1],
    ['typed', 1],
  ]);
  live.receive({ type: 'ack', data: { sheet_id: SHEET, operation_id: 'sort', version: 2, timestamp: 't', order: [2, 0, 1] } });
  expect(grid()).toEqual([['a', 'a!'], ['b', 'b!'], ['c', 'typed']]);
  // The own edit now sits on row 2: someone's write there before its ack does not show over it.
  live.receive(cellsFrame(3, 2, 1, 'theirs'));
  expect(grid()[2][1]).toBe('typed');
  expect(live.version).toBe(3);
});

test('someone else’s sort reorders the rows shown; an own pending edit follows its row', () => {
  const { live, grid } = setup([['b'], ['a'], ['c']]);
  grid()[0][0] = 'b typed';
  live.send([{ id: 'mine', type: 'cell_update', position: { row: 0, column: 0 }, value: 'b typed' }]);
  live.receive(sortFrame(2, [1, 0, 2]));
  expect(grid()).toEqual([['a'], ['b typed'], ['c']]);
  // A remote write to the own edit's new cell is hidden (the own value follows it on the server).
  live.receive(cellsFrame(3, 1, 0, 'theirs'));
  expect(grid()[1][0]).toBe('b typed');
});

test('a sort with an own row insert pending: the inserted row shows where the server will put it, before its row’s new place', () => {
  const { live, grid } = setup([['b'], ['a']]);
  // Inserted before "a" (shown at once).
  grid().splice(1, 0, ['new']);
  live.send([{ id: 'ins', type: 'rows_insert', index: 1, count: 1 }]);
  live.receive(sortFrame(2, [1, 0]));
  expect(grid()).toEqual([['new'], ['a'], ['b']]);
  live.receive({ type: 'ack', data: { sheet_id: SHEET, operation_id: 'ins', version: 3, timestamp: 't' } });
  expect(live.version).toBe(3);
});

test('a sort that parts rows an own pending removal took: the grid is read again from the server once settled', async () => {
  const { live, grid, log } = setup([['c'], ['a'], ['b']]);
  grid().splice(0, 2);
  live.send([{ id: 'del', type: 'rows_remove', index: 0, count: 2 }]);
  live.receive(sortFrame(2, [1, 2, 0]));
  live.receive({ type: 'error', data: { code: 'conflict', message: 'parted', operation_id: 'del' } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(log).toContain('fetch');
});

test('a sort without its order (a sheet past SORT_ORDER_SENT_MAX_ROWS rows): the grid is read again once settled; an edit not sent yet goes on the version before the sort, one made after an own row insert is dropped with the reason', async () => {
  const { live, sent, log } = setup([['b'], ['a'], ['c']]);
  // Held back behind the own insert in flight (made on the rows it inserted).
  live.send([
    { id: 'ins', type: 'rows_insert', index: 0, count: 1 },
    { id: 'after-ins', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' },
  ]);
  expect(sent.map((op) => op.id)).toEqual(['ins']);
  live.receive({ type: 'operation', data: { sheet_id: SHEET, version: 2, operation: { id: 'r2', type: 'rows_sort', column: 0, direction: 'asc', user_id: 'bob', timestamp: 't' } } });
  expect(log).toContain(`error ${SORT_TEXTS.editsDropped}`);
  expect(live.pending).toBe(1);
  // Settled: the server's sheet is read (the rows shown could not be moved here).
  live.receive({ type: 'ack', data: { sheet_id: SHEET, operation_id: 'ins', version: 3, timestamp: 't' } });
  await Promise.resolve();
  expect(log).toContain('fetch');
  expect(sent.map((op) => op.id)).toEqual(['ins']);
});

test('someone’s sort without its order: an edit not sent yet (the next turn’s) goes on the version before the sort, where the server moves it', async () => {
  const { live, sent, log } = setup([['b'], ['a']]);
  const many = (id: string) => ({ id, type: 'cells_update' as const, changes: Array.from({ length: SEND_CELLS_PER_TURN / 2 }, (_, k) => ({ row: 0, col: k, value: id })) });
  live.send([many('one'), many('two'), many('three')]);
  expect(sent.map((op) => [op.id, op.base_version])).toEqual([
    ['one', 1],
    ['two', 1],
  ]);
  live.receive({ type: 'operation', data: { sheet_id: SHEET, version: 2, operation: { id: 'r2', type: 'rows_sort', column: 0, direction: 'asc', user_id: 'bob', timestamp: 't' } } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(sent.map((op) => [op.id, op.base_version])).toEqual([
    ['one', 1],
    ['two', 1],
    ['three', 1],
  ]);
  for (const [id, version] of [['one', 3], ['two', 4], ['three', 5]] as const) live.receive({ type: 'ack', data: { sheet_id: SHEET, operation_id: id, version, timestamp: 't' } });
  expect(live.pending).toBe(0);
  expect(log).toContain('fetch');
});
