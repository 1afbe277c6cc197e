import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetentionPolicySchema } from '@tessera/contracts';
import { foldDeltas } from './version-pruner.js';
import { versionsToKeep } from './retention.js';

const T0 = Date.UTC(2026, 0, 5, 0, 0, 0); // a Monday
const HOUR = 3_600_000;
/** One version every 20 minutes for 10 days: version n at T0 + (n - 1) × 20 min. */
const versions = Array.from({ length: 720 }, (_, i) => ({ version: i + 1, createdAt: new Date(T0 + i * 20 * 60_000) }));
const policy = (p: object) => RetentionPolicySchema.parse(p);

describe('retention policy', () => {
  it('keeps the recent ones and the newest of each of the last hours and days', () => {
    const keep = versionsToKeep(versions, policy({ recent: 3, hourly: 2, daily: 2 }), new Set());
    // 718–720 (recent); hours: 720 (last hour), 717 (the hour before); days: 720, and 648 (end of the day before).
    assert.deepEqual([...keep].sort((a, b) => a - b), [648, 717, 718, 719, 720]);
  });

  it('keeps weekly and monthly buckets', () => {
    const keep = versionsToKeep(versions, policy({ recent: 1, weekly: 5, monthly: 5 }), new Set());
    // Weeks from Monday 2026-01-05: the 10 days span two weeks; one month.
    const endOfFirstWeek = (7 * 24 * HOUR) / (20 * 60_000);
    assert.deepEqual([...keep].sort((a, b) => a - b), [endOfFirstWeek, 720]);
  });

  it('never prunes the versions it must always keep (named ones)', () => {
    const named = new Set([1, 2, 333]);
    const keep = versionsToKeep(versions, policy({ recent: 1 }), named);
    for (const v of named) assert.ok(keep.has(v));
    assert.equal(keep.size, 4);
  });

  it('folds a run of ops into first-old, last-new per cell, dropping cells changed and back', () => {
    assert.deepEqual(
      foldDeltas([
        [{ row: 0, col: 0, old: 'a', new: 'b' }, { row: 1, col: 0, old: null, new: 'x' }],
        [{ row: 0, col: 0, old: 'b', new: 'c' }, { row: 1, col: 0, old: 'x', new: '' }],
      ]),
      [{ row: 0, col: 0, old: 'a', new: 'c' }],
    );
  });
});
