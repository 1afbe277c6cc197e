import type { CellChange, SheetMetadata } from '../sheets/sheet.schema.js';
import type { LiveOperation, LiveServerFrame } from './live.schema.js';
import { LiveSheet, SEND_CELLS_PER_TURN, type SyncData } from './live-sheet.js';

/**
 * The orderings a socket may deliver that the loopback tests cannot force: frames are fed as
 * the server would send them, and the copy the LiveSheet keeps (a plain grid here) is checked.
 */
const SHEET = 's1';
const metadata = (rows: number, columns: number): SheetMetadata => ({
  headers: [],
  description: '',
  tags: [],
  rows,
  columns,
  groupId: null,
  position: 0,
  category: 'General',
});

function setup(version = 1, server: { data: (string | number | null)[][]; version: number } | null = null) {
  const grid = new Map<string, unknown>();
  const sent: LiveOperation[] = [];
  const log: string[] = [];
  let pending = 0;
  let fetched: SyncData | null = null;
  const live = new LiveSheet({
    version,
    send: (op) => sent.push(op),
    applyCells: (changes) => changes.forEach((c) => grid.set(`${c.row}:${c.col}`, c.value)),
    applyStructure: (op) => log.push(`${op.type} ${op.index} ${op.count}`),
    replace: (sync) => {
      grid.clear();
      sync.data?.forEach((row, r) => row.forEach((v, c) => grid.set(`${r}:${c}`, v)));
      log.push(`replace ${sync.version}`);
    },
    onVersion: () => {},
    onPending: (n) => (pending = n),
    onError: (message) => log.push(`error ${message}`),
    fetch: async () => {
      log.push('fetch');
      fetched = server ? { sheet_id: SHEET, data: server.data, version: server.version, name: 'x', metadata: metadata(1, 1), timestamp: 't' } : null;
      return fetched;
    },
  });
  const edit = (id: string, row: number, col: number, value: string | number) => {
    grid.set(`${row}:${col}`, value);
    live.send([{ id, type: 'cell_update', position: { row, column: col }, value }]);
  };
  return { live, grid, sent, log, edit, pending: () => pending };
}

const remote = (version: number, changes: CellChange[], id = `r${version}`): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: SHEET, version, operation: { id, type: 'cells_update', changes, user_id: 'bob', timestamp: 't' } },
});
const ack = (id: string, version: number): LiveServerFrame => ({
  type: 'ack',
  data: { sheet_id: SHEET, operation_id: id, version, timestamp: 't' },
});
const cell = (row: number, col: number, value: string | number) => ({ row, col, value });
const flush = () => new Promise((r) => setTimeout(r, 0));

test('a million cells cleared go to the socket a few operations a turn, in order, each on the version held when it goes; an edit made meanwhile goes after them', async () => {
  const { live, sent, grid, pending } = setup();
  const ops: LiveOperation[] = Array.from({ length: 100 }, (_, i) => ({
    id: `c${i}`,
    type: 'cells_update',
    changes: Array.from({ length: 10_000 }, (_, k) => ({ row: i * 10_000 + k, col: 2, value: null })),
  }));
  live.send(ops);
  // SEND_CELLS_PER_TURN: two operations of 10,000 cells.
  expect(SEND_CELLS_PER_TURN).toBe(20_000);
  expect(sent.map((op) => op.id)).toEqual(['c0', 'c1']);
  expect(pending()).toBe(100);
  // Someone's change to another column comes before the next turn: the next ones go on its version.
  live.receive(remote(2, [{ row: 5, col: 0, value: 'bob' }]));
  expect(grid.get('5:0')).toBe('bob');
  live.send([{ id: 'mine', type: 'cell_update', position: { row: 1, column: 2 }, value: 'typed' }]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(sent.map((op) => op.id)).toEqual(['c0', 'c1', 'c2', 'c3']);
  expect(sent.slice(2).map((op) => op.base_version)).toEqual([2, 2]);
  while (sent.length < 101) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(sent.map((op) => op.id)).toEqual([...ops.map((op) => op.id), 'mine']);
});

test("a remote op that comes before the ack of an own one waits for it, then wins (the server applied it after)", () => {
  const { live, grid, edit, pending } = setup();
  edit('a1', 0, 0, 'mine');
  // Another api instance delivered version 3 before this one's ack of version 2.
  live.receive(remote(3, [cell(0, 0, 'theirs')]));
  expect(grid.get('0:0')).toBe('mine');
  expect(live.version).toBe(1);
  live.receive(ack('a1', 2));
  expect(live.version).toBe(3);
  expect(grid.get('0:0')).toBe('theirs');
  expect(pending()).toBe(0);
});

test('a remote write older than an own pending one to the same cell is not shown; other cells are', () => {
  const { live, grid, edit } = setup();
  edit('a1', 0, 0, 'mine');
  live.receive(remote(2, [cell(0, 0, 'theirs'), cell(0, 1, 'other')]));
  expect(grid.get('0:0')).toBe('mine');
  expect(grid.get('0:1')).toBe('other');
  live.receive(ack('a1', 3));
  expect(grid.get('0:0')).toBe('mine');
  expect(live.version).toBe(3);
});

test('versions already held are skipped; an own op replayed after a lost ack counts as its ack', async () => {
  const { live, grid, edit, pending } = setup();
  live.receive(remote(2, [cell(1, 1, 'x')]));
  live.receive(remote(2, [cell(1, 1, 'stale')]));
  expect(grid.get('1:1')).toBe('x');
  edit('a1', 0, 0, 'mine');
  live.receive(remote(3, [cell(0, 0, 'mine')], 'a1'));
  expect(pending()).toBe(0);
  expect(live.version).toBe(3);
  await expect(live.whenSaved()).resolves.toBeUndefined();
});

test('a sync of the next version replaces the grid, own ops in flight show again on top; their acks still count when the sync already held them', () => {
  const { live, grid, edit, log, pending } = setup();
  edit('a1', 0, 0, 'mine');
  live.receive({ type: 'sync', data: { sheet_id: SHEET, data: [['server', 1]], version: 2, name: 'x', metadata: metadata(1, 2), timestamp: 't' } });
  expect(log).toEqual(['replace 2']);
  expect(grid.get('0:0')).toBe('mine');
  expect(grid.get('0:1')).toBe(1);
  expect(pending()).toBe(1);
  live.receive(ack('a1', 3));
  expect(pending()).toBe(0);
  // A sync at the version held changes nothing.
  live.receive({ type: 'sync', data: { sheet_id: SHEET, data: [], version: 3, name: 'x', metadata: metadata(0, 0), timestamp: 't' } });
  expect(log).toEqual(['replace 2']);
});

test('ownCellsShown names the cells own pending edits hold (moved through an own row insert after them), null while that insert is pending', () => {
  const { live, edit } = setup();
  expect(live.ownCellsShown()?.(0, 0)).toBe(false);
  edit('a1', 0, 1, 'mine');
  expect(live.ownCellsShown()?.(0, 1)).toBe(true);
  expect(live.ownCellsShown()?.(0, 0)).toBe(false);
  live.send([{ id: 'a2', type: 'rows_insert', index: 0, count: 1 }]);
  expect(live.ownCellsShown()).toBeNull();
  live.receive(ack('a1', 2));
  live.receive(ack('a2', 3));
  expect(live.ownCellsShown()?.(1, 1)).toBe(false);
});

test('a sync that jumps over versions while own ops are in flight: shown on top, then repaired from the server once they are settled', async () => {
  const { live, grid, edit, log } = setup(1, { data: [['server', 'mine']], version: 5 });
  edit('a1', 0, 0, 'mine');
  live.receive({ type: 'sync', data: { sheet_id: SHEET, data: [['server', 1]], version: 5, name: 'x', metadata: metadata(1, 2), timestamp: 't' } });
  expect(grid.get('0:0')).toBe('mine');
  // The server may have moved it (rows removed in versions 2 to 4): only its sheet tells.
  live.receive(ack('a1', 4));
  await flush();
  expect(log).toEqual(['replace 5', 'fetch', 'replace 5']);
  expect(grid.get('0:1')).toBe('mine');
});

test('a version never received: once no own op is in flight, the grid is replaced with the server sheet', async () => {
  const { live, grid, log } = setup(1, { data: [['fresh']], version: 4 });
  live.receive(remote(4, [cell(0, 0, 'late')]));
  expect(grid.get('0:0')).toBe('late');
  await flush();
  expect(log).toEqual(['fetch', 'replace 4']);
  expect(grid.get('0:0')).toBe('fresh');
  expect(live.version).toBe(4);
});

test('a refused own op: repaired from the server once no own op is in flight', async () => {
  const { live, edit, log, pending } = setup(1, { data: [['repaired']], version: 1 });
  edit('a2', 0, 0, 'refused');
  live.receive({ type: 'error', data: { code: 'bad_request', message: 'Sheet is locked', operation_id: 'a2' } });
  expect(pending()).toBe(0);
  await flush();
  expect(log).toEqual(['error Sheet is locked', 'fetch', 'replace 1']);
});

/**
 * Rows and columns inserted or removed while own operations are in flight: the LiveSheet on a
 * real grid (an array of rows, changed as the Workspace changes it), fed the frames the server
 * sends; every cell says which row it started on, so a value on the wrong row shows.
 */
describe('own pending operations through remote rows and columns', () => {
  type Grid = (string | number | boolean | null)[][];
  const start = (): Grid => Array.from({ length: 5 }, (_, r) => [`r${r}`, '', '']);

  function structure(grid: Grid, op: { type: string; index: number; count: number }) {
    if (op.type === 'rows_insert') grid.splice(op.index, 0, ...Array.from({ length: op.count }, () => ['', '', '']));
    if (op.type === 'rows_remove') grid.splice(op.index, op.count);
    if (op.type === 'columns_insert') for (const row of grid) row.splice(op.index, 0, ...Array<string>(op.count).fill(''));
    if (op.type === 'columns_remove') for (const row of grid) row.splice(op.index, op.count);
  }

  function table(version = 1) {
    const grid = start();
    const sent: LiveOperation[] = [];
    const errors: string[] = [];
    let fetches = 0;
    const live = new LiveSheet({
      version,
      send: (op) => sent.push(op),
      applyCells: (changes) => changes.forEach((c) => (grid[c.row][c.col] = c.value)),
      applyStructure: (op) => structure(grid, op),
      replace: () => {},
      onVersion: () => {},
      onPending: () => {},
      onError: (message) => errors.push(message),
      fetch: async () => {
        fetches += 1;
        return null;
      },
    });
    const type = (id: string, row: number, col: number, value: string) => {
      grid[row][col] = value;
      live.send([{ id, type: 'cell_update', position: { row, column: col }, value }]);
    };
    const own = (id: string, type: 'rows_insert' | 'rows_remove' | 'columns_insert' | 'columns_remove', index: number, count: number) => {
      structure(grid, { type, index, count });
      live.send([{ id, type, index, count }]);
    };
    const theirs = (v: number, type: 'rows_insert' | 'rows_remove' | 'columns_insert' | 'columns_remove', index: number, count: number) =>
      live.receive({ type: 'operation', data: { sheet_id: SHEET, version: v, operation: { id: `r${v}`, type, index, count, user_id: 'bob', timestamp: 't' } } });
    return { live, grid, sent, errors, type, own, theirs, fetches: () => fetches };
  }

  test('A removes row 1 while B types into row 2: B sees its value stay on its row, and sends it on the version it held', async () => {
    const b = table();
    b.type('b1', 2, 1, 'B typed');
    expect(b.sent).toEqual([expect.objectContaining({ id: 'b1', base_version: 1, position: { row: 2, column: 1 } })]);
    b.theirs(2, 'rows_remove', 1, 1);
    expect(b.grid.map((r) => r[0])).toEqual(['r0', 'r2', 'r3', 'r4']);
    expect(b.grid[1]).toEqual(['r2', 'B typed', '']);
    // The server moved it too: its ack, then no repair.
    b.live.receive(ack('b1', 3));
    await flush();
    expect(b.fetches()).toBe(0);
    expect(b.live.pending).toBe(0);
  });

  test("a remote write to the cell an own pending edit moved to is not shown (the own one follows it on the server)", () => {
    const b = table();
    b.type('b1', 3, 0, 'mine');
    b.theirs(2, 'rows_insert', 0, 2);
    expect(b.grid[5][0]).toBe('mine');
    b.live.receive(remote(3, [cell(5, 0, 'theirs'), cell(4, 0, 'other')]));
    expect(b.grid[5][0]).toBe('mine');
    expect(b.grid[4][0]).toBe('other');
  });

  test('an own edit into a row removed first is gone here too; the error frame naming it only tells', async () => {
    const b = table();
    b.type('b1', 1, 1, 'lost');
    b.theirs(2, 'rows_remove', 0, 2);
    expect(b.grid.map((r) => r[0])).toEqual(['r2', 'r3', 'r4']);
    expect(b.grid.flat()).not.toContain('lost');
    b.live.receive({ type: 'error', data: { code: 'conflict', message: 'Your edit was not applied', operation_id: 'b1' } });
    await flush();
    expect(b.errors).toEqual(['Your edit was not applied']);
    expect(b.live.pending).toBe(0);
    expect(b.fetches()).toBe(0);
  });

  test('operations made after an own structure change in flight wait for it, then go on its version, moved through what came between', () => {
    const b = table();
    b.own('b1', 'rows_insert', 1, 1);
    b.type('b2', 1, 0, 'in my new row');
    b.type('b3', 4, 2, 'r3 edit');
    expect(b.sent.map((o) => o.id)).toEqual(['b1']);
    // Committed before b1: a column inserted at 0, a row removed above.
    b.theirs(2, 'columns_insert', 0, 1);
    b.theirs(3, 'rows_remove', 0, 1);
    expect(b.grid.map((r) => r[1])).toEqual(['in my new row', 'r1', 'r2', 'r3', 'r4']);
    expect(b.grid[3][3]).toBe('r3 edit');
    expect(b.sent.map((o) => o.id)).toEqual(['b1']);
    b.live.receive(ack('b1', 4));
    expect(b.sent.slice(1)).toEqual([
      expect.objectContaining({ id: 'b2', base_version: 4, position: { row: 0, column: 1 } }),
      expect.objectContaining({ id: 'b3', base_version: 4, position: { row: 3, column: 3 } }),
    ]);
  });

  test('two inserts at the same row: the one committed first comes first, on both sides', () => {
    const b = table();
    b.own('b1', 'rows_insert', 2, 1);
    b.type('b2', 2, 0, 'B new');
    b.theirs(2, 'rows_insert', 2, 2);
    b.live.receive(ack('b1', 3));
    // The server: their two rows at 2, then B's insert moved after them (to 4).
    expect(b.grid.map((r) => r[0])).toEqual(['r0', 'r1', '', '', 'B new', 'r2', 'r3', 'r4']);
    expect(b.sent[1]).toEqual(expect.objectContaining({ id: 'b2', base_version: 3, position: { row: 4, column: 0 } }));
  });

  test('a remote insert inside a range an own removal in flight removes: both gone, as the server does it', () => {
    const b = table();
    b.own('b1', 'rows_remove', 1, 3);
    b.theirs(2, 'rows_insert', 2, 1);
    expect(b.grid.map((r) => r[0])).toEqual(['r0', 'r4']);
    b.live.receive(ack('b1', 3));
    expect(b.grid.map((r) => r[0])).toEqual(['r0', 'r4']);
  });

  test('a remote removal that takes an own held-back edit: dropped here, the user told, nothing sent', () => {
    const b = table();
    b.own('b1', 'columns_insert', 0, 1);
    b.type('b2', 2, 2, 'in column B');
    b.theirs(2, 'columns_remove', 1, 1);
    b.live.receive(ack('b1', 3));
    expect(b.sent.map((o) => o.id)).toEqual(['b1']);
    expect(b.errors).toHaveLength(1);
    expect(b.live.pending).toBe(0);
  });

  test('a refused own insert: the edits made after it move back to the rows the server has', () => {
    const b = table();
    b.own('b1', 'rows_insert', 0, 2);
    b.type('b2', 4, 0, 'on r2');
    b.live.receive({ type: 'error', data: { code: 'payload_too_large', message: 'Too many cells', operation_id: 'b1' } });
    expect(b.sent[1]).toEqual(expect.objectContaining({ id: 'b2', base_version: 1, position: { row: 2, column: 0 } }));
  });
});

test('a chart frame is applied once, at its version, moved through an own row insert still in flight; a chart needs no sync', () => {
  const charts: string[] = [];
  const live = new LiveSheet({
    version: 1,
    send: () => {},
    applyCells: () => {},
    applyStructure: () => {},
    applyChart: (id, chart) => charts.push(`${id} ${chart ? `${chart.range?.start_row}-${chart.range?.end_row}` : 'deleted'}`),
    replace: () => charts.push('replace'),
    onVersion: () => {},
    onPending: () => {},
    onError: () => {},
    fetch: async () => null,
  });
  const chart = {
    id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01',
    type: 'column' as const,
    range: { start_row: 2, start_col: 0, end_row: 4, end_col: 1 },
    categories: 'first_column' as const,
    title: '',
    x_axis_title: '',
    y_axis_title: '',
    legend: 'none' as const,
    stacked: false,
    box: { row: 0, col: 3, dx: 0, dy: 0, width: 400, height: 300 },
  };
  const frame = (version: number, c: typeof chart | null): LiveServerFrame => ({
    type: 'chart',
    data: { sheet_id: SHEET, version, chart_id: chart.id, chart: c, user_id: 'bob', timestamp: 't' },
  });
  live.receive(frame(2, chart));
  live.receive(frame(3, null));
  // Already held: not applied again.
  live.receive(frame(2, chart));
  expect(charts).toEqual([`${chart.id} 2-4`, `${chart.id} deleted`]);
  expect(live.version).toBe(3);
  // An own insert of 2 rows above it is on its way: the chart committed before it is shown below those rows.
  live.send([{ id: 'ins', type: 'rows_insert', index: 0, count: 2 }]);
  live.receive(frame(4, chart));
  expect(charts.at(-1)).toBe(`${chart.id} 4-6`);
  expect(charts).not.toContain('replace');
});
