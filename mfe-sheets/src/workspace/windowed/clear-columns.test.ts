import { clearedCells, wholeColumns } from './clear-columns.js';

const range = (row: number, col: number, row2: number, col2: number) => ({ from: { row, col }, to: { row: row2, col: col2 } });

test('whole columns: a column header click, several headers, the corner or Ctrl+A (every column); a block of cells is not', () => {
  expect(wholeColumns([range(-1, 2, 299, 2)], 5)).toEqual([{ left: 2, right: 2 }]);
  expect(wholeColumns([range(-1, 3, 299, 1), range(-1, 4, 299, 4)], 5)).toEqual([{ left: 1, right: 3 }, { left: 4, right: 4 }]);
  expect(wholeColumns([range(-1, -1, 299, 4)], 5)).toEqual([{ left: 0, right: 4 }]);
  expect(wholeColumns([range(0, 1, 299, 1)], 5)).toBeNull();
  // Ctrl+click of a column beside a block of cells: Handsontable's own Delete for all of it.
  expect(wholeColumns([range(-1, 1, 299, 1), range(3, 2, 4, 2)], 5)).toBeNull();
  expect(wholeColumns(undefined, 5)).toBeNull();
});

test('the cells cleared: those holding a value in the columns, once each, with their value before', () => {
  const rows = [['a', 1, ''], ['b', null, 'x'], ['c', 0]];
  expect(clearedCells(rows, [{ left: 1, right: 2 }, { left: 2, right: 2 }])).toEqual([
    { row: 0, col: 1, before: 1, after: null },
    { row: 2, col: 1, before: 0, after: null },
    { row: 1, col: 2, before: 'x', after: null },
  ]);
});
