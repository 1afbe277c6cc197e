import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupRuns, type OpHead } from './snapshot-runs.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const op = (version: number, userId: string, second: number, extra: Partial<OpHead> = {}): OpHead => ({
  version,
  userId,
  createdAt: at(second),
  wholeGrid: false,
  standalone: false,
  ...extra,
});
const spans = (ops: OpHead[]) => groupRuns(ops).map((r) => [r.first.version, r.last.version]);

describe('Timeline runs', () => {
  it('joins one user’s edits without a 30-second pause', () => {
    assert.deepEqual(spans([op(2, 'a', 0), op(3, 'a', 29), op(4, 'a', 59), op(5, 'a', 90)]), [[2, 4], [5, 5]]);
  });
  it('starts a new entry for another user', () => {
    assert.deepEqual(spans([op(2, 'a', 0), op(3, 'b', 1), op(4, 'a', 2)]), [[2, 2], [3, 3], [4, 4]]);
  });
  it('keeps whole-grid ops, named versions and restores as entries of their own', () => {
    assert.deepEqual(
      spans([op(1, 'a', 0, { wholeGrid: true }), op(2, 'a', 1), op(3, 'a', 2, { standalone: true }), op(4, 'a', 3), op(5, 'a', 4)]),
      [[1, 1], [2, 2], [3, 3], [4, 5]],
    );
  });
});
