import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restructure, structureError } from './structure-op.js';

describe('structural operations', () => {
  const grid = () => [
    ['a', 'b', 'c'],
    ['d', 'e', 'f'],
  ];

  it('accepts ranges inside the sheet (an insert may append) and says why others do not fit', () => {
    assert.equal(structureError({ type: 'rows_insert', index: 2, count: 3 }, 2, 3), null);
    assert.equal(structureError({ type: 'rows_remove', index: 1, count: 1 }, 2, 3), null);
    assert.equal(structureError({ type: 'columns_insert', index: 3, count: 1 }, 2, 3), null);
    assert.equal(structureError({ type: 'columns_remove', index: 0, count: 3 }, 2, 3), null);
    assert.equal(structureError({ type: 'rows_insert', index: 3, count: 1 }, 2, 3), 'Cannot insert rows at row 4: the sheet has 2 rows');
    assert.equal(structureError({ type: 'rows_remove', index: 1, count: 2 }, 2, 3), 'Cannot remove rows 2 to 3: the sheet has 2 rows');
    assert.equal(structureError({ type: 'columns_insert', index: 4, count: 1 }, 2, 3), 'Cannot insert columns at column 5: the sheet has 3 columns');
    assert.equal(structureError({ type: 'columns_remove', index: 2, count: 2 }, 2, 3), 'Cannot remove columns 3 to 4: the sheet has 3 columns');
    assert.match(structureError({ type: 'rows_insert', index: 0, count: 1_048_575 }, 2, 3) ?? '', /at most 1048576 rows/);
  });

  it('inserts empty rows as wide as the sheet and removes rows', () => {
    const inserted = restructure(grid(), ['A', 'B', 'C'], 3, { type: 'rows_insert', index: 1, count: 2 });
    assert.deepEqual(inserted.grid, [['a', 'b', 'c'], ['', '', ''], ['', '', ''], ['d', 'e', 'f']]);
    assert.deepEqual([inserted.rowCount, inserted.colCount], [4, 3]);
    const removed = restructure(grid(), ['A', 'B', 'C'], 3, { type: 'rows_remove', index: 0, count: 1 });
    assert.deepEqual(removed.grid, [['d', 'e', 'f']]);
  });

  it('inserts more rows at once than a call takes arguments (200,000: a spread overflowed the stack)', () => {
    const inserted = restructure(grid(), ['A', 'B', 'C'], 3, { type: 'rows_insert', index: 1, count: 200_000 });
    assert.equal(inserted.rowCount, 200_002);
    assert.deepEqual([inserted.grid[0], inserted.grid[1], inserted.grid[200_000], inserted.grid[200_001]], [['a', 'b', 'c'], ['', '', ''], ['', '', ''], ['d', 'e', 'f']]);
  });

  it('moves the cells of short (ragged) rows only where they have cells', () => {
    const out = restructure([['a'], ['b', 'c', 'd']], [], 3, { type: 'columns_insert', index: 1, count: 1 });
    assert.deepEqual(out.grid, [['a'], ['b', '', 'c', 'd']]);
    assert.equal(out.colCount, 4);
    const gone = restructure([['a'], ['b', 'c', 'd']], [], 3, { type: 'columns_remove', index: 1, count: 2 });
    assert.deepEqual(gone.grid, [['a'], ['b']]);
    assert.equal(gone.colCount, 1);
  });

  it('relabels default headers and moves named ones with their column', () => {
    assert.deepEqual(restructure(grid(), ['A', 'B', 'C'], 3, { type: 'columns_insert', index: 0, count: 1 }).headers, ['A', 'B', 'C', 'D']);
    assert.deepEqual(restructure(grid(), [], 3, { type: 'columns_remove', index: 0, count: 1 }).headers, ['A', 'B']);
    assert.deepEqual(restructure(grid(), ['Name', 'Age', 'City'], 3, { type: 'columns_insert', index: 3, count: 2 }).headers, ['Name', 'Age', 'City', 'D', 'E']);
    assert.deepEqual(restructure(grid(), ['Name', 'Age', 'City'], 3, { type: 'columns_remove', index: 0, count: 2 }).headers, ['City']);
  });
});
