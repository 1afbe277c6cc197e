import type { GridData, SheetRows } from '@tessera/contracts';
import { ROW_WINDOW_SIZE } from './row-windows.js';
import { WindowedSheet } from './windowed-sheet.js';

const ROWS = 30_000;
/** A server of ROWS rows (`r{n}` in column 0) at `version`, whose reads answer when the test says. */
function server() {
  const state = { version: 1, rows: ROWS };
  const reads: { start: number; answer(at?: number): void }[] = [];
  const read = (start: number, count: number) =>
    new Promise<SheetRows | null>((resolve) => {
      reads.push({
        start,
        answer: (at = state.version) => {
          const data: GridData = [];
          for (let r = start; r < Math.min(start + count, state.rows); r++) data.push([`r${r}`]);
          resolve({ id: 's', version: at, row_count: state.rows, column_count: 1, start, data });
        },
      });
    });
  return { state, reads, read };
}
const first = (version = 1): SheetRows => ({ id: 's', version, row_count: ROWS, column_count: 1, start: 0, data: [['r0']] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('reads the windows of the rows shown first, then those of the rows around them, each once', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  // Rows shown 14,990–15,020 cross windows 2 and 3; 1,000 around them reach no further window.
  sheet.show(14_990, 15_020, 1_000);
  sheet.show(14_990, 15_020, 1_000);
  expect(api.reads.map((r) => r.start)).toEqual([2 * ROW_WINDOW_SIZE, 3 * ROW_WINDOW_SIZE]);
  // Shown near a window's end: the next one is read too, after the one shown.
  sheet.show(24_900, 24_930, 1_000);
  expect(api.reads.slice(2).map((r) => r.start)).toEqual([4 * ROW_WINDOW_SIZE, 5 * ROW_WINDOW_SIZE]);
  const updates: boolean[] = [];
  sheet.subscribe((reset) => updates.push(reset));
  api.reads[2].answer();
  await settle();
  expect(sheet.rowAt(24_900)).toEqual(['r24900']);
  expect(sheet.rowAt(25_000)).toBeUndefined();
  expect(updates).toEqual([false]);
});

test('rows inserted by someone: the size follows, a window read before it is read again', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  expect(api.reads.map((r) => r.start)).toEqual([0]);
  const updates: boolean[] = [];
  sheet.subscribe((reset) => updates.push(reset));
  sheet.remoteStructure(2, 'rows_insert', 5);
  expect(sheet.rowCount).toBe(ROWS + 5);
  expect(updates).toEqual([true]);
  // The read made before the insert answers at version 1: stale, read again.
  api.reads[0].answer(1);
  await settle();
  expect(sheet.rowAt(0)).toBeUndefined();
  expect(api.reads.map((r) => r.start)).toEqual([0, 0]);
  api.state.version = 2;
  api.reads[1].answer();
  await settle();
  expect(sheet.rowAt(3)).toEqual(['r3']);
});

test('own rows removed: the size follows at once; the rows held are read again once the server has the op', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  expect(sheet.rowAt(10)).toEqual(['r10']);
  const updates: boolean[] = [];
  sheet.subscribe((reset) => updates.push(reset));
  sheet.ownStructure('rows_remove', 3);
  expect(sheet.rowCount).toBe(ROWS - 3);
  // Not yet acknowledged: the rows held stay, nothing is read.
  expect(updates).toEqual([]);
  expect(api.reads).toHaveLength(1);
  // Acknowledged (the session's version is the op's): the windows shown are read again.
  sheet.advance(2);
  sheet.ownSaved();
  // The version moved (drawn again), then the rows moved (the grid rebuilt).
  expect(updates).toEqual([false, true]);
  expect(sheet.rowAt(10)).toBeUndefined();
  expect(api.reads.map((r) => r.start)).toEqual([0, 0]);
  api.state.version = 2;
  api.reads[1].answer();
  await settle();
  expect(sheet.rowAt(10)).toEqual(['r10']);
  // A later save with no row op pending reads nothing again.
  sheet.ownSaved();
  expect(api.reads).toHaveLength(2);
});
