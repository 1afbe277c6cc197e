import { LiveOperationSchema } from './live.schema.js';
import { applyOrder, compareSortValues, isPermutation, sortOrder } from './rows-sort.js';
import { type SortStep, sortThrough, transformCell, transformChanges, transformOperation, transformStructure } from './transform-position.js';

describe('sorting rows by a column', () => {
  const column = ['pear', 10, '', 'Apple', '9', null, true, 'apple', 2.5, '=A1'];

  test('A → Z: numbers (numeric text too) by value, then text without case (ties keep their order), then booleans, empty cells last', () => {
    const order = sortOrder(column.map((v) => [v]), 0, 'asc');
    expect(order.map((i) => column[i])).toEqual([2.5, '9', 10, '=A1', 'Apple', 'apple', 'pear', true, '', null]);
  });

  test('Z → A: the same reversed, but empty cells still last and ties still in their order', () => {
    const order = sortOrder(column.map((v) => [v]), 0, 'desc');
    expect(order.map((i) => column[i])).toEqual([true, 'pear', 'Apple', 'apple', '=A1', 10, '9', 2.5, '', null]);
  });

  test('text in the order of the alphabet: accented letters by their letter, not after z; case and accents alone tie', () => {
    const names = ['zoe', 'Émile', 'eve', 'Zoë', 'Ångström', 'bob'];
    const order = sortOrder(names.map((v) => [v]), 0, 'asc');
    expect(order.map((i) => names[i])).toEqual(['Ångström', 'bob', 'Émile', 'eve', 'zoe', 'Zoë']);
  });

  test('rows keep all their cells; a row shorter than the column sorts as empty', () => {
    const grid = [['b', 1], ['a'], ['c', 0]];
    expect(applyOrder(grid, sortOrder(grid, 1, 'asc'))).toEqual([['c', 0], ['b', 1], ['a']]);
    expect(compareSortValues(undefined, 'x', 'desc')).toBeGreaterThan(0);
  });

  test('a formula moves with its row: its relative references by as many rows, absolute ones and rows that stay unchanged', () => {
    const grid = [['c', '=A1&"!"'], ['b', '=A2&$A$1'], ['a', '=SUM(A1:A3)']];
    expect(applyOrder(grid, sortOrder(grid, 0, 'asc'))).toEqual([['a', '=SUM(#REF!:A1)'], ['b', '=A2&$A$1'], ['c', '=A3&"!"']]);
  });

  test('a permutation is checked', () => {
    expect(isPermutation([2, 0, 1])).toBe(true);
    expect(isPermutation([0, 0, 1])).toBe(false);
    expect(isPermutation([0, 3, 1])).toBe(false);
  });

  test('a client sends the intent only: no order, a known direction, a column in range', () => {
    const op = { id: 's', type: 'rows_sort', column: 2, direction: 'asc', base_version: 3 };
    expect(LiveOperationSchema.safeParse(op).success).toBe(true);
    expect(LiveOperationSchema.safeParse({ ...op, order: [0] }).success).toBe(false);
    expect(LiveOperationSchema.safeParse({ ...op, direction: 'up' }).success).toBe(false);
    expect(LiveOperationSchema.safeParse({ ...op, column: -1 }).success).toBe(false);
  });
});

describe('positions through a sort', () => {
  // Old rows 0..3 now stand at 2, 0, 3, 1 (order[new] = old).
  const sort: SortStep = { type: 'rows_sort', order: [1, 3, 0, 2] };

  test('a cell goes where its row went; a row past the sorted ones stays; columns do not move', () => {
    expect(transformCell({ row: 0, col: 5 }, sort)).toEqual({ row: 2, col: 5 });
    expect(transformCell({ row: 6, col: 1 }, sort)).toEqual({ row: 6, col: 1 });
    expect(transformChanges([{ row: 3, col: 0, value: 'x' }], [sort]).changes).toEqual([{ row: 1, col: 0, value: 'x' }]);
  });

  test('rows inserted go before their row’s new place; removed rows still together are removed there, parted ones are dropped', () => {
    expect(transformStructure({ type: 'rows_insert', index: 1, count: 2 }, sort, 'after')).toEqual({ type: 'rows_insert', index: 0, count: 2 });
    expect(transformStructure({ type: 'rows_insert', index: 4, count: 1 }, sort, 'after')).toEqual({ type: 'rows_insert', index: 4, count: 1 });
    // Old rows 2 and 3 are now rows 3 and 1: apart.
    expect(transformStructure({ type: 'rows_remove', index: 2, count: 2 }, sort, 'after')).toBeNull();
    expect(transformStructure({ type: 'rows_remove', index: 0, count: 2 }, { type: 'rows_sort', order: [1, 0, 2, 3] }, 'after')).toEqual({ type: 'rows_remove', index: 0, count: 2 });
    // Old row 3 alone is now row 1.
    expect(transformStructure({ type: 'rows_remove', index: 3, count: 1 }, sort, 'after')).toEqual({ type: 'rows_remove', index: 1, count: 1 });
    expect(transformStructure({ type: 'columns_remove', index: 0, count: 1 }, sort, 'after')).toEqual({ type: 'columns_remove', index: 0, count: 1 });
  });

  test('a sort moves with its column and is gone with it; rows leave it as it is', () => {
    const op = { id: 's', type: 'rows_sort' as const, column: 2, direction: 'asc' as const };
    expect(transformOperation(op, { type: 'columns_insert', index: 0, count: 3 }, 'after').operation).toEqual({ ...op, column: 5 });
    expect(transformOperation(op, { type: 'columns_remove', index: 2, count: 1 }, 'after').operation).toBeNull();
    expect(transformOperation(op, { type: 'rows_remove', index: 0, count: 1 }, 'after').operation).toBe(op);
  });

  test('a sort through rows inserted or removed after it (a client’s own, not on the server yet): where the server will put them', () => {
    // Rows 0..3; two rows inserted before old row 3, which the sort put at 1.
    expect(sortThrough(sort, { type: 'rows_insert', index: 3, count: 2 })?.order).toEqual([1, 3, 4, 5, 0, 2]);
    expect(sortThrough(sort, { type: 'rows_insert', index: 4, count: 1 })?.order).toEqual([1, 3, 0, 2, 4]);
    expect(sortThrough(sort, { type: 'rows_remove', index: 3, count: 1 })?.order).toEqual([1, 0, 2]);
    expect(sortThrough(sort, { type: 'rows_remove', index: 2, count: 2 })).toBeNull();
    expect(sortThrough(sort, { type: 'columns_insert', index: 0, count: 1 })).toBe(sort);
  });
});

