import type { SheetMetadata } from '../sheets/sheet.schema.js';
import { CLEAR_TEXTS, type ClearBlock } from './cells-clear.js';
import type { LiveOperation, LiveServerFrame } from './live.schema.js';
import { LiveSheet, type LiveSheetOptions, type SyncData } from './live-sheet.js';

/** cells_clear_undo (Ctrl+Z of a clear, done by the server) as a client's copy of the sheet takes it. */
const SHEET = 's1';
const metadata: SheetMetadata = { headers: [], description: '', tags: [], rows: 10, columns: 2, groupId: null, position: 0, category: 'General' };

function setup(withUndo = true) {
  const sent: LiveOperation[] = [];
  const log: string[] = [];
  const cleared: [string, number][] = [];
  const undone: { blocks: ClearBlock[] | null; own?: string }[] = [];
  const refused: string[] = [];
  const options: LiveSheetOptions = {
    version: 1,
    windowed: true,
    send: (op) => sent.push(op),
    applyCells: (changes) => log.push(`cells ${changes.length}`),
    applyStructure: (op) => log.push(`${op.type} ${op.index} ${op.count}`),
    applyClear: () => log.push('clear'),
    onCleared: (id, version) => cleared.push([id, version]),
    onRefused: (id) => refused.push(id),
    replace: (sync) => log.push(`replace ${sync.version}`),
    onVersion: () => {},
    onPending: () => {},
    onError: (message) => log.push(`error ${message}`),
    fetch: async (): Promise<SyncData> => {
      log.push('fetch');
      return { sheet_id: SHEET, version: 3, name: 'x', metadata, timestamp: 't' };
    },
  };
  if (withUndo) options.applyClearUndo = (blocks, own) => undone.push({ blocks, ...(own ? { own } : {}) });
  return { live: new LiveSheet(options), sent, log, cleared, undone, refused };
}

const ack = (id: string, version: number): LiveServerFrame => ({ type: 'ack', data: { sheet_id: SHEET, operation_id: id, version, timestamp: 't' } });
const remote = (version: number, operation: Record<string, unknown>): LiveServerFrame =>
  ({ type: 'operation', data: { sheet_id: SHEET, version, operation: { user_id: 'bob', timestamp: 't', ...operation } } }) as LiveServerFrame;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

test('an own clear, once applied, tells the version the server gave it (what its undo names)', () => {
  const { live, cleared } = setup();
  live.send([{ id: 'c1', type: 'cells_clear', rows: { start: 0, count: 10 }, columns: { start: 1, count: 1 } }]);
  live.receive(remote(2, { id: 'b', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' }));
  expect(cleared).toEqual([]);
  live.receive(ack('c1', 3));
  expect(cleared).toEqual([['c1', 3]]);
  // An edit's ack tells nothing.
  live.send([{ id: 'e1', type: 'cell_update', position: { row: 0, column: 0 }, value: 'y' }]);
  live.receive(ack('e1', 4));
  expect(cleared).toEqual([['c1', 3]]);
});

test("an own clear's undo goes as it is, whatever rows others insert meanwhile (the server moves the clear's cells); its ack has its cells read again, not the sheet", async () => {
  const { live, sent, log, undone } = setup();
  live.send([{ id: 'u1', type: 'cells_clear_undo', undo: 1 }]);
  expect(sent).toEqual([expect.objectContaining({ id: 'u1', type: 'cells_clear_undo', undo: 1, base_version: 1 })]);
  live.receive(remote(2, { id: 'b', type: 'rows_insert', index: 0, count: 3 }));
  expect(log).toEqual(['rows_insert 0 3']);
  expect(undone).toEqual([]);
  live.receive(ack('u1', 3));
  expect(undone).toEqual([{ blocks: null, own: 'u1' }]);
  await flush();
  expect(log).not.toContain('fetch');
  expect(live.version).toBe(3);
});

test("someone's clear undone: its block is read again here, moved through an own row insert still on its way (the server puts that after it)", async () => {
  const { live, undone, log } = setup();
  live.send([{ id: 'i1', type: 'rows_insert', index: 2, count: 5 }]);
  live.receive(remote(2, { id: 'b', type: 'cells_clear_undo', undo: 1, rows: { start: 0, count: 10 }, columns: { start: 1, count: 1 } }));
  // Split around the own rows (not cleared on the server, so nothing put back there).
  expect(undone).toEqual([{ blocks: [{ rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } }, { rows: { start: 7, count: 8 }, columns: { start: 1, count: 1 } }] }]);
  live.receive(ack('i1', 3));
  await flush();
  expect(log).not.toContain('fetch');
});

test('a refused undo of a clear: the reason shown, the grid kept as it is (nothing was shown before the server applied it), the refusal told by id (the undo step hangs on it)', async () => {
  const { live, log, undone, refused } = setup();
  live.send([{ id: 'u1', type: 'cells_clear_undo', undo: 1 }]);
  live.receive({ type: 'error', data: { code: 'conflict', message: CLEAR_TEXTS.undoGone, operation_id: 'u1' } });
  await flush();
  expect(log).toEqual([`error ${CLEAR_TEXTS.undoGone}`]);
  expect(undone).toEqual([]);
  expect(refused).toEqual(['u1']);
  expect(live.pending).toBe(0);
});

test('a grid that cannot read a block again (no applyClearUndo) reads the sheet again once its own operations are settled', async () => {
  const { live, log } = setup(false);
  live.receive(remote(2, { id: 'b', type: 'cells_clear_undo', undo: 1, rows: { start: 0, count: 10 }, columns: { start: 1, count: 1 } }));
  await flush();
  expect(log).toEqual(['fetch', 'replace 3']);
});
