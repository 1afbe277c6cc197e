import type { GridData } from '@tessera/contracts';
import { movedRows } from './moved-rows.js';

/** Two windows of 4 rows held (rows 0–7), `r{n}` and n in each; window 2 not held. */
const held = new Map<number, GridData>([
  [0, [['r0', 0], ['r1', 1], ['r2', 2], ['r3', 3]]],
  [1, [['r4', 4], ['r5', 5], ['r6', 6], ['r7', 7]]],
]);
const rows = (at: (row: number) => unknown, from: number, to: number) => Array.from({ length: to - from }, (_, i) => at(from + i));

test('rows inserted: the rows below move down, the new ones are empty; across windows', () => {
  const at = movedRows(held, 4, [{ type: 'rows_insert', index: 3, count: 2 }]);
  expect(rows(at, 0, 8)).toEqual([['r0', 0], ['r1', 1], ['r2', 2], [], [], ['r3', 3], ['r4', 4], ['r5', 5]]);
  // Row 10 was row 8: not held.
  expect(at(10)).toBeUndefined();
});

test('rows removed: the rows below move up; two ops one after the other', () => {
  expect(rows(movedRows(held, 4, [{ type: 'rows_remove', index: 1, count: 3 }]), 0, 5)).toEqual([['r0', 0], ['r4', 4], ['r5', 5], ['r6', 6], ['r7', 7]]);
  // Insert one above row 2, then remove rows 0–1: new row 0 is the inserted one.
  const at = movedRows(held, 4, [
    { type: 'rows_insert', index: 2, count: 1 },
    { type: 'rows_remove', index: 0, count: 2 },
  ]);
  expect(rows(at, 0, 3)).toEqual([[], ['r2', 2], ['r3', 3]]);
});

test('columns inserted or removed move the cells of every row; a row too short is left as it is', () => {
  const at = movedRows(new Map([[0, [['a', 'b', 'c'], ['x']]]]), 4, [
    { type: 'columns_insert', index: 1, count: 2 },
    { type: 'columns_remove', index: 0, count: 1 },
  ]);
  expect(at(0)).toEqual([null, null, 'b', 'c']);
  expect(at(1)).toEqual([]);
  // The rows held are not changed.
  expect(movedRows(held, 4, [])(0)).toEqual(['r0', 0]);
});
