import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GRID_DIFF_LIST_MAX } from '@tessera/contracts';
import { diffGrids } from './grid-diff.js';

describe('diffGrids: the code’s grid against the edited one', () => {
  test('equal grids: nothing differs, numbers and their text are the same cell, as are null and ""', () => {
    const diff = diffGrids(
      { headers: ['Name', 'Hours'], rows: [['Ann', 8], ['Bob', null]] },
      { headers: ['Name', 'Hours'], rows: [['Ann', '8'], ['Bob ', '']] },
    );
    assert.equal(diff.count, 0);
    assert.equal(diff.headers_changed, false);
    assert.deepEqual(diff.cells, []);
  });

  test('an edited cell, an added row and a renamed header', () => {
    const diff = diffGrids(
      { headers: ['Name', 'Hours'], rows: [['Ann', 8], ['Bob', 6]] },
      { headers: ['Name', 'Shift hours'], rows: [['Ann', 8], ['Bob', 7], ['Cy', 4]] },
    );
    assert.equal(diff.headers_changed, true);
    assert.equal(diff.count, 3);
    assert.deepEqual(diff.cells, [
      { row: 1, col: 1, header: 'Shift hours', code: 6, sheet: 7 },
      { row: 2, col: 0, header: 'Name', code: null, sheet: 'Cy' },
      { row: 2, col: 1, header: 'Shift hours', code: null, sheet: 4 },
    ]);
    assert.equal(diff.code_rows, 2);
    assert.equal(diff.sheet_rows, 3);
  });

  test('a removed column and removed rows count too', () => {
    const diff = diffGrids({ headers: ['A', 'B'], rows: [[1, 2], [3, 4]] }, { headers: ['A'], rows: [[1]] });
    assert.equal(diff.headers_changed, true);
    assert.deepEqual(
      diff.cells.map((c) => [c.row, c.col, c.code, c.sheet]),
      [
        [0, 1, 2, null],
        [1, 0, 3, null],
        [1, 1, 4, null],
      ],
    );
  });

  test(`all differences are counted, the first ${GRID_DIFF_LIST_MAX} listed`, () => {
    const rows = Array.from({ length: 1500 }, (_, i) => [i]);
    const diff = diffGrids({ headers: ['N'], rows }, { headers: ['N'], rows: rows.map(([n]) => [Number(n) + 1]) });
    assert.equal(diff.count, 1500);
    assert.equal(diff.cells.length, GRID_DIFF_LIST_MAX);
    assert.deepEqual(diff.cells[0], { row: 0, col: 0, header: 'N', code: 0, sheet: 1 });
  });
});
