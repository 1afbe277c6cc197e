import type { CellValue, GridData } from '@tessera/contracts';
import { blockEdge, type JumpRows } from './jump-keys.js';

/** Column 0 of `cells` (null: empty), rows held only below `held`; the others read a window of 4 at a time. */
function rowsOf(cells: CellValue[], held = cells.length) {
  const reads: number[] = [];
  const rows: JumpRows = {
    rowAt: (row) => (row < held ? [cells[row]] : undefined),
    read: async (start, count) => {
      reads.push(start);
      return cells.slice(start, start + count).map((v) => [v]) as GridData;
    },
    chunk: 4,
  };
  return { rows, reads };
}
const always = () => true;

test('Ctrl+Down and Ctrl+Up go to the data block edge, the next filled cell, or the sheet edge, as spreadsheets do', async () => {
  //            0    1    2     3     4    5    6     7     8     9
  const cells = ['a', 'b', 'c', null, null, 'f', null, null, null, null];
  const { rows } = rowsOf(cells);
  const last = cells.length - 1;
  expect(await blockEdge(0, 0, 1, last, rows, always)).toBe(2); // end of the block
  expect(await blockEdge(2, 0, 1, last, rows, always)).toBe(5); // next filled
  expect(await blockEdge(5, 0, 1, last, rows, always)).toBe(9); // none below: the last row
  expect(await blockEdge(9, 0, 1, last, rows, always)).toBe(9);
  expect(await blockEdge(9, 0, -1, last, rows, always)).toBe(5);
  expect(await blockEdge(5, 0, -1, last, rows, always)).toBe(2);
  expect(await blockEdge(2, 0, -1, last, rows, always)).toBe(0);
  expect(await blockEdge(0, 0, -1, last, rows, always)).toBe(0);
  expect(await blockEdge(4, 0, -1, last, rows, always)).toBe(2);
});

test('rows not held are read a window at a time, only those the jump passes; a jump overtaken gives up', async () => {
  const cells: CellValue[] = Array.from({ length: 20 }, (_, r) => (r === 13 ? null : r));
  const { rows, reads } = rowsOf(cells, 4);
  // Said once (the status line), with the rows it may read, until it is done.
  const told: [number, Promise<string>][] = [];
  // Its outcome taken at once (as the status line does: a rejection is not left unhandled).
  rows.reading = (count, work) => told.push([count, work.then(() => 'done', (error: Error) => error.message)]);
  expect(await blockEdge(0, 0, 1, 19, rows, always)).toBe(12);
  expect(reads).toEqual([4, 8, 12]);
  expect(told.map(([count]) => count)).toEqual([16]);
  expect(await told[0][1]).toBe('done');
  expect(await blockEdge(1, 0, 1, 19, rows, () => false)).toBeNull();
  // A read that fails: the jump rejects, and so does what was told.
  rows.read = () => Promise.reject(new Error('unreadable'));
  told.length = 0;
  await expect(blockEdge(0, 0, 1, 19, rows, always)).rejects.toThrow('unreadable');
  expect(await told[0][1]).toBe('unreadable');
});
