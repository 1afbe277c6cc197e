import type { SheetMetadata } from '../sheets/sheet.schema.js';
import type { LiveOperation, LiveServerFrame } from './live.schema.js';
import { LiveSheet, type LiveSheetOptions, type SyncData } from './live-sheet.js';
import { STRUCTURE_UNDO_TEXTS } from './structure-undo.js';

/** An insert with `undo` (Ctrl+Z of a remove, done by the server) as a client's copy of the sheet takes it. */
const SHEET = 's1';
const metadata: SheetMetadata = { headers: [], description: '', tags: [], rows: 10, columns: 3, groupId: null, position: 0, category: 'General' };

function setup(windowed: boolean) {
  const sent: LiveOperation[] = [];
  const log: string[] = [];
  const applied: [string, number][] = [];
  const refused: string[] = [];
  const options: LiveSheetOptions = {
    version: 1,
    windowed,
    send: (op) => sent.push(op),
    applyCells: (changes) => log.push(`cells ${changes.length}`),
    applyStructure: (op) => log.push(`${op.type} ${op.index} ${op.count}`),
    onStructureApplied: (id, version) => applied.push([id, version]),
    onRefused: (id) => refused.push(id),
    replace: (sync) => log.push(`replace ${sync.version}${sync.data ? ' with cells' : ''}`),
    onVersion: () => {},
    onPending: () => {},
    onError: (message) => log.push(`error ${message}`),
    fetch: async (): Promise<SyncData> => {
      log.push('fetch');
      return { sheet_id: SHEET, version: 3, name: 'x', metadata, data: [['a', 'b', 'c']], timestamp: 't' };
    },
  };
  return { live: new LiveSheet(options), sent, log, applied, refused };
}

const ack = (id: string, version: number): LiveServerFrame => ({ type: 'ack', data: { sheet_id: SHEET, operation_id: id, version, timestamp: 't' } });
const remote = (version: number, operation: Record<string, unknown>): LiveServerFrame =>
  ({ type: 'operation', data: { sheet_id: SHEET, version, operation: { user_id: 'bob', timestamp: 't', ...operation } } }) as LiveServerFrame;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

test('an own remove, once applied, tells the version the server gave it (what the insert undoing it names); so does an insert, not an edit', () => {
  const { live, applied } = setup(true);
  live.send([{ id: 'r1', type: 'columns_remove', index: 1, count: 1 }]);
  live.receive(remote(2, { id: 'b', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' }));
  expect(applied).toEqual([]);
  live.receive(ack('r1', 3));
  expect(applied).toEqual([['r1', 3]]);
  live.send([{ id: 'e1', type: 'cell_update', position: { row: 0, column: 0 }, value: 'y' }]);
  live.receive(ack('e1', 4));
  live.send([{ id: 'i1', type: 'columns_insert', index: 1, count: 1, undo: 3 }]);
  live.receive(ack('i1', 5));
  expect(applied).toEqual([['r1', 3], ['i1', 5]]);
});

test('a refused undo of a remove: the reason shown, the refusal told by id (its undo step hangs on it), no version told, and the grid (which showed the insert) repaired from the server', async () => {
  const { live, log, refused, applied } = setup(false);
  live.send([{ id: 'i1', type: 'columns_insert', index: 1, count: 1, undo: 7 }]);
  live.receive({ type: 'error', data: { code: 'conflict', message: STRUCTURE_UNDO_TEXTS.replaced, operation_id: 'i1' } });
  await flush();
  expect(refused).toEqual(['i1']);
  expect(applied).toEqual([]);
  expect(log).toEqual([`error ${STRUCTURE_UNDO_TEXTS.replaced}`, 'fetch', 'replace 3 with cells']);
  // The next own remove is told once applied.
  live.send([{ id: 'r2', type: 'rows_remove', index: 0, count: 1 }]);
  live.receive(ack('r2', 4));
  expect(applied).toEqual([['r2', 4]]);
});

test("someone's insert undoing a remove reaching a whole grid: shown at once, then the sheet read again from the server (its cells are in no frame); a plain insert is not", async () => {
  const plain = setup(false);
  plain.live.receive(remote(2, { id: 'b1', type: 'columns_insert', index: 1, count: 1 }));
  await flush();
  expect(plain.log).toEqual(['columns_insert 1 1']);

  const { live, log } = setup(false);
  live.receive(remote(2, { id: 'b1', type: 'columns_insert', index: 1, count: 1, undo: 1 }));
  await flush();
  expect(log).toEqual(['columns_insert 1 1', 'fetch', 'replace 3 with cells']);

  // A windowed page is not repaired (it reads its windows again after any row or column op): applied as any insert.
  const windowed = setup(true);
  windowed.live.receive(remote(2, { id: 'b1', type: 'rows_insert', index: 4, count: 2, undo: 1 }));
  await flush();
  expect(windowed.log).toEqual(['rows_insert 4 2']);
});
