import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backwardChain, foldPacked, forwardChain, unpack } from './snapshot-delta.js';
import { applyDeltas } from './version-rebuild.js';

describe('delta snapshots', () => {
  it('a fold replays like the ops it folds, forwards and backwards (a value that came back is kept)', () => {
    const ops = [
      [{ row: 0, col: 0, old: 'a', new: 'b' }, { row: 2, col: 3, old: null, new: 'x' }],
      [{ row: 0, col: 0, old: 'b', new: 'c' }],
      [{ row: 2, col: 3, old: 'x', new: null }],
    ];
    const start = () => [['a'], ['q']];
    const byOps = start();
    applyDeltas(byOps, ops, 'forward');
    const folded = foldPacked(ops);
    assert.deepEqual(folded, [[0, 0, 'a', 'c'], [2, 3, null, null]]);
    const byFold = start();
    applyDeltas(byFold, [unpack(folded)], 'forward');
    assert.deepEqual(byFold, byOps);
    applyDeltas(byFold, [unpack(folded)], 'backward');
    assert.deepEqual(byFold[0], ['a']);
    // Folds of folds (pruning merges delta snapshots) are folds of the ops.
    assert.deepEqual(foldPacked([foldPacked(ops.slice(0, 2)), foldPacked(ops.slice(2))]), folded);
  });

  it('chains go from a base through contiguous deltas, and the op log covers the rest', () => {
    const spans = [
      { from: 1, to: 10, cells: 5 },
      { from: 10, to: 20, cells: 5 },
      { from: 20, to: 30, cells: 5 },
      { from: 33, to: 40, cells: 5 }, // after a whole-grid op at 33
    ];
    assert.deepEqual(forwardChain(spans, 1, 25), { used: spans.slice(0, 2), opsFrom: 20, gaps: 0 });
    assert.deepEqual(forwardChain(spans, 33, 39), { used: [], opsFrom: 33, gaps: 0 });
    // A gap (a cells_clear at 10 that no delta spans, or a pruned delta) is filled from the op log.
    assert.deepEqual(forwardChain(spans, 5, 25), { used: [spans[1]], opsFrom: 20, gaps: 5 });
    assert.deepEqual(forwardChain(spans, 10, 40), { used: spans.slice(1), opsFrom: 40, gaps: 3 });
    assert.deepEqual(backwardChain(spans, 5, 32), { used: [spans[2], spans[1]], opsAbove: 30, opsBelow: 10 });
    assert.deepEqual(backwardChain(spans, 25, 29), { used: [], opsAbove: 29, opsBelow: 29 });
  });
});
