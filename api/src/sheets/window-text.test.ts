import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CellValue } from '@tessera/contracts';
import fc from 'fast-check';
import { rowsOfText } from './window-text.js';

describe('rowsOfText with a column range', () => {
  const cell = fc.oneof(fc.string(), fc.constantFrom('a,b', '[x]', '"q"', 'back\\slash', ',', ']', '['), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
  const rows = fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 12 });

  it('gives the rows parsed, sliced and cut to the columns, for any rows, row range and column range (spaced text too)', () => {
    const range = fc.tuple(fc.nat(14), fc.nat(14), fc.nat(10), fc.integer({ min: 1, max: 10 }), fc.boolean());
    fc.assert(
      fc.property(rows, range, (grid: CellValue[][], [from, to, start, count, spaced]) => {
        const text = spaced ? JSON.stringify(grid, null, 1) : JSON.stringify(grid);
        const want = grid.slice(from, to).map((row) => row.slice(start, start + count));
        assert.deepEqual(rowsOfText(text, from, to, { start, count }), want);
      }),
      { numRuns: 500 },
    );
  });

  it('parses the chunk when a cell is not a scalar', () => {
    assert.deepEqual(rowsOfText('[[1,[2,3],4],[5]]', 0, 2, { start: 1, count: 1 }), [[[2, 3]], []]);
    assert.deepEqual(rowsOfText('[[1,2,[3]],[5,6]]', 0, 2, { start: 0, count: 1 }), [[1], [5]]);
  });
});
