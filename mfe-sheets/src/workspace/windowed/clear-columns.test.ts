import { unpackCells } from '../undo/undo-stack.js';
import { clearedOfColumns, spanColumns, wholeColumns } from './clear-columns.js';

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
  // Columns 1 and 2 as sheet.columns gives them: a column at a time.
  const columns = [[1, null, 0], ['', 'x', null]];
  expect(spanColumns([{ left: 1, right: 2 }, { left: 2, right: 2 }])).toEqual([1, 2]);
  expect(unpackCells(clearedOfColumns(columns, [1, 2]))).toEqual([
    { row: 0, col: 1, before: 1, after: null },
    { row: 2, col: 1, before: 0, after: null },
    { row: 1, col: 2, before: 'x', after: null },
  ]);
  // Rows from row 7 (a Shift-selected range of rows past the slab): the cells at their rows in the sheet.
  expect(unpackCells(clearedOfColumns(columns, [1, 2], 7)).map(({ row, col }) => [row, col])).toEqual([[7, 1], [9, 1], [8, 2]]);
});
