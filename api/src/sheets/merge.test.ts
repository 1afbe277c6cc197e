import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changesSince, diffGrids, mergeGrid, patchConflicts } from './merge.js';

describe('cell-wise merge', () => {
  const base = [
    ['a', 'b'],
    ['c', 'd'],
  ];
  // The server changed B1 since the base.
  const current = [
    ['a', 'B'],
    ['c', 'd'],
  ];
  const since = changesSince([[{ row: 0, col: 1, old: 'b', new: 'B' }]]);

  it('keeps server changes the client did not touch and applies the client changes', () => {
    const { grid, conflicts } = mergeGrid(current, [['A', 'b'], ['c', 'd']], since);
    assert.deepEqual(conflicts, []);
    assert.deepEqual(grid, [['A', 'B'], ['c', 'd']]);
  });

  it('reports a conflict only where both sides changed the same cell differently', () => {
    assert.deepEqual(mergeGrid(current, [['a', 'mine'], ['x', 'd']], since).conflicts, [{ row: 0, col: 1, value: 'B' }]);
    assert.deepEqual(mergeGrid(current, [['a', 'B'], ['c', 'd']], since).conflicts, []);
  });

  it('a cell changed and changed back on the server counts as unchanged', () => {
    const back = changesSince([[{ row: 0, col: 0, old: 'a', new: 'z' }], [{ row: 0, col: 0, old: 'z', new: 'a' }]]);
    assert.deepEqual(mergeGrid(base, [['mine', 'b'], ['c', 'd']], back), { grid: [['mine', 'b'], ['c', 'd']], conflicts: [] });
  });

  it('treats empty, null and missing cells as one value', () => {
    assert.deepEqual(diffGrids([['', null]], [[null]]), []);
    assert.deepEqual(diffGrids([['x']], [[]]), [{ row: 0, col: 0, old: 'x', new: null }]);
  });

  it('an op without cell detail makes every differing client cell a conflict', () => {
    const unknown = changesSince([null]);
    assert.equal(mergeGrid(current, [['a', 'B'], ['c', 'x']], unknown).conflicts.length, 1);
    assert.equal(patchConflicts(unknown, [{ row: 0, col: 0, value: 'a' }], () => 'a').length, 0);
    assert.equal(patchConflicts(unknown, [{ row: 0, col: 0, value: 'q' }], () => 'a').length, 1);
  });

  it('patch conflicts: same cell changed on the server to another value', () => {
    const at = (r: number, c: number) => current[r][c];
    assert.deepEqual(patchConflicts(since, [{ row: 0, col: 1, value: 'x' }], at), [{ row: 0, col: 1, value: 'B' }]);
    assert.deepEqual(patchConflicts(since, [{ row: 0, col: 1, value: 'B' }], at), []);
    assert.deepEqual(patchConflicts(since, [{ row: 1, col: 1, value: 'x' }], at), []);
  });
});
