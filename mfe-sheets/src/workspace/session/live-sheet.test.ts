import type { CellChange, LiveOperation, LiveServerFrame, SheetMetadata } from '@tessera/contracts';
import { LiveSheet, type SyncData } from './live-sheet.js';

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
      sync.data.forEach((row, r) => row.forEach((v, c) => grid.set(`${r}:${c}`, v)));
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

test('a sync replaces the grid, own ops in flight show again on top; their acks still count when the sync already held them', () => {
  const { live, grid, edit, log, pending } = setup();
  edit('a1', 0, 0, 'mine');
  live.receive({ type: 'sync', data: { sheet_id: SHEET, data: [['server', 1]], version: 5, name: 'x', metadata: metadata(1, 2), timestamp: 't' } });
  expect(log).toEqual(['replace 5']);
  expect(grid.get('0:0')).toBe('mine');
  expect(grid.get('0:1')).toBe(1);
  expect(pending()).toBe(1);
  live.receive(ack('a1', 4));
  expect(pending()).toBe(0);
  // A sync at the version held changes nothing.
  live.receive({ type: 'sync', data: { sheet_id: SHEET, data: [], version: 5, name: 'x', metadata: metadata(0, 0), timestamp: 't' } });
  expect(log).toEqual(['replace 5']);
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

test('a structure change crossing own ops in flight, or a refused own op: repaired after the acks', async () => {
  const { live, edit, log, pending } = setup(1, { data: [['repaired']], version: 3 });
  edit('a1', 1, 0, 'mine');
  live.receive({
    type: 'operation',
    data: { sheet_id: SHEET, version: 2, operation: { id: 'r2', type: 'rows_insert', index: 0, count: 1, user_id: 'bob', timestamp: 't' } },
  });
  expect(log).toEqual(['rows_insert 0 1']);
  await flush();
  expect(log).toEqual(['rows_insert 0 1']);
  live.receive(ack('a1', 3));
  await flush();
  expect(log).toEqual(['rows_insert 0 1', 'fetch', 'replace 3']);

  edit('a2', 0, 0, 'refused');
  live.receive({ type: 'error', data: { code: 'bad_request', message: 'Sheet is locked', operation_id: 'a2' } });
  expect(pending()).toBe(0);
  await flush();
  expect(log.slice(3)).toEqual(['error Sheet is locked', 'fetch', 'replace 3']);
});
