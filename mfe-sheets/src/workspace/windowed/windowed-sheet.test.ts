import type { CellValue, GridData, SheetRows } from '@tessera/contracts';
import { ROW_WINDOW_SIZE } from './row-windows.js';
import { type ColumnRange, type ReadRows, WindowedSheet } from './windowed-sheet.js';

const ROWS = 30_000;
/** A server of ROWS rows (`r{n}` in column 0; with `width`, `r{n}c{c}` in each column) at `version`, whose reads answer when the test says. */
function server(width = 1) {
  const state = { version: 1, rows: ROWS };
  const reads: { start: number; columns?: ColumnRange; answer(at?: number): void }[] = [];
  const read: ReadRows = (start, count, columns) =>
    new Promise<SheetRows | null>((resolve) => {
      reads.push({
        start,
        columns,
        answer: (at = state.version) => {
          const data: GridData = [];
          for (let r = start; r < Math.min(start + count, state.rows); r++) data.push(width === 1 ? [`r${r}`] : Array.from({ length: width }, (_, c) => `r${r}c${c}`));
          // With columns, as the api: each row of those only.
          const cut = columns ? { data: data.map((row) => row.slice(columns.start, columns.start + columns.count)), col_start: columns.start } : { data };
          resolve({ id: 's', version: at, row_count: state.rows, column_count: width, start, ...cut });
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
  sheet.remoteStructure(2, 'rows_insert', 0, 5);
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

/** Answers every read as it comes (the server's rows at its version), until stopped. */
function answering(api: ReturnType<typeof server>) {
  let answered = 0;
  let on = true;
  const tick = async () => {
    while (on) {
      while (answered < api.reads.length) api.reads[answered++].answer();
      await settle();
    }
  };
  void tick();
  return () => (on = false);
}

test('cells(): every row of the sheet, the windows held copied and the others read without being kept', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  const stop = answering(api);
  const cells = await sheet.cells();
  stop();
  expect(cells).toHaveLength(ROWS);
  expect(cells[0]).toEqual(['r0']);
  expect(cells[ROWS - 1]).toEqual([`r${ROWS - 1}`]);
  // Window 0 was held: read once, when shown; the others once each for cells(), and not stored.
  expect(api.reads.map((r) => r.start)).toEqual(Array.from({ length: ROWS / ROW_WINDOW_SIZE }, (_, i) => i * ROW_WINDOW_SIZE));
  expect(sheet.rowAt(ROW_WINDOW_SIZE)).toBeUndefined();
  // A range reads only its windows.
  const some = api.reads.length;
  const stopAgain = answering(api);
  expect(await sheet.cells({ start: 12_000, count: 3 })).toEqual([['r12000'], ['r12001'], ['r12002']]);
  stopAgain();
  expect(api.reads.slice(some).map((r) => r.start)).toEqual([2 * ROW_WINDOW_SIZE]);
});

test('cells(): own edits and others\' changes made while the windows are read are in the answer, at the version held then', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  const reading = sheet.cells();
  await settle();
  // Window 0 is held (copied at once); windows 1 and 2 are being read (two at a time). Window 1
  // arrives at version 1; then someone changes a row of windows 0, 1 and 2 (version 2) and the
  // user edits a row of window 0.
  expect(api.reads.map((r) => r.start)).toEqual([0, ROW_WINDOW_SIZE, 2 * ROW_WINDOW_SIZE]);
  api.reads[1].answer();
  await settle();
  sheet.remoteCells(2, [
    { row: 1, col: 0, value: 'bob 0' },
    { row: ROW_WINDOW_SIZE + 1, col: 0, value: 'bob 1' },
    { row: 2 * ROW_WINDOW_SIZE + 1, col: 0, value: 'bob 2' },
  ]);
  sheet.rowAt(3)![0] = 'mine';
  sheet.ownEdits([{ row: 3, col: 0, value: 'mine' }]);
  // Window 2 answers as read before bob's change (version 1): brought up to version 2.
  api.reads[2].answer(1);
  api.state.version = 2;
  const stop = answering(api);
  const cells = await reading;
  stop();
  expect([cells[1], cells[3], cells[ROW_WINDOW_SIZE + 1], cells[2 * ROW_WINDOW_SIZE + 1]]).toEqual([['bob 0'], ['mine'], ['bob 1'], ['bob 2']]);
  expect(cells[2 * ROW_WINDOW_SIZE + 2]).toEqual([`r${2 * ROW_WINDOW_SIZE + 2}`]);
  expect(cells).toHaveLength(ROWS);
});

test('cells() of some columns: each row holds those columns only, changes to them while the windows are read included', async () => {
  const api = server(4);
  const sheet = new WindowedSheet({ ...first(), column_count: 4 }, api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  const reading = sheet.cells(undefined, () => [1, 3]);
  await settle();
  // Window 0 is held (copied, those columns only); windows 1 and 2 are being read. Someone changes
  // columns 1 and 2 of a row in windows 0 and 1 meanwhile; the user edits column 3 of row 2.
  sheet.remoteCells(2, [
    { row: 1, col: 1, value: 'bob 1' },
    { row: 1, col: 2, value: 'bob 2' },
    { row: ROW_WINDOW_SIZE + 1, col: 1, value: 'bob 3' },
  ]);
  sheet.rowAt(2)![3] = 'mine';
  sheet.ownEdits([{ row: 2, col: 3, value: 'mine' }]);
  api.reads[1].answer(1);
  api.state.version = 2;
  const stop = answering(api);
  const cells = await reading;
  stop();
  expect(cells).toHaveLength(ROWS);
  expect([cells[0], cells[1], cells[2], cells[ROW_WINDOW_SIZE + 1], cells[ROWS - 1]]).toEqual([
    ['r0c1', 'r0c3'],
    ['bob 1', 'r1c3'],
    ['r2c1', 'mine'],
    ['bob 3', `r${ROW_WINDOW_SIZE + 1}c3`],
    [`r${ROWS - 1}c1`, `r${ROWS - 1}c3`],
  ]);
  // The windows held keep every column.
  expect(sheet.rowAt(1)).toEqual(['r1c0', 'bob 1', 'bob 2', 'r1c3']);
  // The others were read of columns 1 to 3 only (their span).
  expect(api.reads.slice(1).map((r) => r.columns)).toEqual(api.reads.slice(1).map(() => ({ start: 1, count: 3 })));
});

test('columns(): the same cells in column form (one array per column), changes and a clear made while the windows are read included', async () => {
  const api = server(4);
  const sheet = new WindowedSheet({ ...first(), column_count: 4 }, api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  const reading = sheet.columns(undefined, () => [1, 3]);
  await settle();
  sheet.remoteCells(2, [{ row: 1, col: 1, value: 'bob 1' }, { row: ROW_WINDOW_SIZE + 1, col: 1, value: 'bob 3' }]);
  sheet.rowAt(2)![3] = 'mine';
  sheet.ownEdits([{ row: 2, col: 3, value: 'mine' }]);
  // Someone clears column 3 of rows 3 and 4 (and of one row in a window not read yet).
  sheet.remoteClear(3, [{ rows: { start: 3, count: 2 }, columns: { start: 3, count: 1 } }, { rows: { start: 2 * ROW_WINDOW_SIZE + 5, count: 1 }, columns: { start: 3, count: 1 } }], () => false);
  api.reads[1].answer(1);
  api.state.version = 3;
  const stop = answering(api);
  const { cols, values } = await reading;
  stop();
  expect(cols).toEqual([1, 3]);
  expect(values.map((column) => column.length)).toEqual([ROWS, ROWS]);
  expect(values[0].slice(0, 3)).toEqual(['r0c1', 'bob 1', 'r2c1']);
  expect(values[0][ROW_WINDOW_SIZE + 1]).toBe('bob 3');
  expect(values[1].slice(0, 6)).toEqual(['r0c3', 'r1c3', 'mine', null, null, 'r5c3']);
  // The window read after the clear came: as the server has it then (the test server does not clear: the log brings it).
  expect(values[1][ROWS - 1]).toBe(`r${ROWS - 1}c3`);
});

test('columnWindows(): windows read out of order are given out in row order, a change to one waiting included; at most a few wait', async () => {
  const api = server(3);
  const sheet = new WindowedSheet({ ...first(), column_count: 3 }, api.read);
  const given: { from: number; values: CellValue[][] }[] = [];
  const reading = sheet.columnWindows(undefined, () => [0, 2], (values, from) => void given.push({ from, values }), () => given.splice(0));
  // Window 0's answer is late; the other reader goes on until windows 1-3 wait for it.
  for (let i = 0; i < 5; i++) {
    await settle();
    for (const r of api.reads.slice(1)) r.answer();
  }
  expect(api.reads.map((r) => r.start / ROW_WINDOW_SIZE)).toEqual([0, 1, 2, 3]);
  expect(given).toEqual([]);
  sheet.remoteCells(2, [{ row: ROW_WINDOW_SIZE + 1, col: 2, value: 'bob' }]);
  api.state.version = 2;
  api.reads[0].answer(1);
  const stop = answering(api);
  await reading;
  stop();
  expect(given.map((g) => g.from)).toEqual([0, 1, 2, 3, 4, 5].map((i) => i * ROW_WINDOW_SIZE));
  expect(given.every((g) => g.values.length === 2 && g.values.every((column) => column.length === ROW_WINDOW_SIZE))).toBe(true);
  expect(given[0].values[0][0]).toBe('r0c0');
  expect(given[1].values[1].slice(0, 3)).toEqual([`r${ROW_WINDOW_SIZE}c2`, 'bob', `r${ROW_WINDOW_SIZE + 2}c2`]);
  expect(given[5].values[1][ROW_WINDOW_SIZE - 1]).toBe(`r${ROWS - 1}c2`);
});

test('columnWindows(): rows inserted while the windows are given out: restart, then every window again at the new size', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  const given: number[] = [];
  let restarts = 0;
  const reading = sheet.columnWindows(
    { start: 0, count: ROWS + 5 },
    () => [0],
    (values, from) => void given.push(from, values[0].length),
    () => {
      restarts++;
      given.splice(0);
    },
  );
  await settle();
  api.reads[0].answer();
  await settle();
  expect(given).toEqual([0, ROW_WINDOW_SIZE]);
  sheet.remoteStructure(2, 'rows_insert', 0, 5);
  api.state.version = 2;
  api.state.rows = ROWS + 5;
  const stop = answering(api);
  await reading;
  stop();
  expect(restarts).toBe(1);
  expect(given).toEqual([...[0, 1, 2, 3, 4, 5].flatMap((i) => [i * ROW_WINDOW_SIZE, ROW_WINDOW_SIZE]), 6 * ROW_WINDOW_SIZE, 5]);
});

test('cells(): rows inserted meanwhile start the read again, at the new size', async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  const reading = sheet.cells();
  await settle();
  sheet.remoteStructure(2, 'rows_insert', 0, 5);
  api.state.version = 2;
  api.state.rows = ROWS + 5;
  const stop = answering(api);
  const cells = await reading;
  stop();
  expect(cells).toHaveLength(ROWS + 5);
});

test('cells(): a read that fails rejects', async () => {
  const sheet = new WindowedSheet(first(), async () => null);
  await expect(sheet.cells()).rejects.toThrow("The sheet's rows could not be read");
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
  sheet.ownStructure('rows_remove', 0, 3, 'op-1');
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
  // Until read again, the grid shows the rows held before, moved as the op moved them (not a blank grid).
  expect(sheet.staleRowAt(10)).toEqual(['r13']);
  expect(api.reads.map((r) => r.start)).toEqual([0, 0]);
  api.state.version = 2;
  api.reads[1].answer();
  await settle();
  expect(sheet.rowAt(10)).toEqual(['r10']);
  // A later save with no row op pending reads nothing again.
  sheet.ownSaved();
  expect(api.reads).toHaveLength(2);
});

test("rows moved by someone else while an own row op waits: the rows held before are not shown moved", async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  sheet.ownStructure('rows_insert', 5, 1, 'op-1');
  sheet.remoteStructure(2, 'rows_insert', 0, 2);
  expect(sheet.staleRowAt(10)).toBeUndefined();
  sheet.advance(3);
  sheet.ownSaved();
  // Where the rows held went depends on both ops: shown empty until read again.
  expect(sheet.staleRowAt(10)).toBeUndefined();
  expect(sheet.rowAt(10)).toBeUndefined();
});

test("keep(): a chart's rows, the window held copied and the other read (not stored); every change reaches them; read again once the user's own row op is on the server; stop ends it", async () => {
  const api = server();
  const sheet = new WindowedSheet(first(), api.read);
  sheet.show(0, 40);
  api.reads[0].answer();
  await settle();
  const kept: ((row: number) => unknown)[] = [];
  const stop = sheet.keep(4_998, 5_002, (rowAt) => kept.push(rowAt));
  await settle();
  expect(api.reads.map((r) => r.start)).toEqual([0, ROW_WINDOW_SIZE]);
  api.reads[1].answer();
  await settle();
  expect(kept).toHaveLength(1);
  const rows = kept[0];
  expect([rows(4_998), rows(5_001)]).toEqual([['r4998'], ['r5001']]);
  expect(sheet.rowAt(5_001)).toBeUndefined();

  sheet.remoteCells(2, [{ row: 5_000, col: 0, value: 'bob' }]);
  sheet.rowAt(4_999)![0] = 'mine';
  sheet.ownEdits([{ row: 4_999, col: 0, value: 'mine' }]);
  expect([rows(4_999), rows(5_000)]).toEqual([['mine'], ['bob']]);

  // An own row op: nothing read until the server has it, then the rows again, at its version.
  sheet.ownStructure('rows_insert', 0, 1, 'op-1');
  await settle();
  expect(api.reads).toHaveLength(2);
  sheet.advance(3);
  sheet.ownSaved();
  api.state.version = 3;
  const stopAnswering = answering(api);
  for (let i = 0; i < 50 && kept.length < 2; i++) await settle();
  stopAnswering();
  expect(kept).toHaveLength(2);
  expect(kept[1](5_001)).toEqual(['r5001']);

  stop();
  const before = api.reads.length;
  sheet.remoteStructure(4, 'rows_insert', 0, 1);
  await settle();
  // Only the window the grid shows is read again.
  expect(api.reads.slice(before).map((r) => r.start)).toEqual([0]);
  expect(kept).toHaveLength(2);
});
