import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CellValue } from '@tessera/contracts';
import fc from 'fast-check';
import { spliceColumnsText } from './column-text.js';
import { restructure } from './structure-op.js';

describe('spliceColumnsText', () => {
  const cell = fc.oneof(fc.string(), fc.constantFrom('a,b', '[x]', '"q"', 'back\\slash', ',', ']', '['), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
  const rows = fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 12 });

  it('gives what restructure gives for any rows, index and count (insert and remove)', () => {
    fc.assert(
      fc.property(rows, fc.constantFrom('columns_insert' as const, 'columns_remove' as const), fc.nat(9), fc.integer({ min: 1, max: 4 }), (grid, type, index, count) => {
        const op = { type, index, count };
        const text = spliceColumnsText(JSON.stringify(grid), op);
        const expected = restructure(structuredClone(grid) as CellValue[][], [], 20, op).grid;
        assert.equal(text, JSON.stringify(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves nested values to the parser', () => {
    assert.equal(spliceColumnsText('[[1,[2]]]', { type: 'columns_insert', index: 0, count: 1 }), undefined);
    assert.equal(spliceColumnsText('[["a","b"],[],["c"]]', { type: 'columns_insert', index: 1, count: 2 }), '[["a","","","b"],[],["c"]]');
    assert.equal(spliceColumnsText('[["a","b","c"],["d"]]', { type: 'columns_remove', index: 0, count: 2 }), '[["c"],[]]');
  });
});
