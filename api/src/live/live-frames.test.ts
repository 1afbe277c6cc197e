import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeFrame, replayFrames } from './live-frames.js';
import type { LoggedOp } from './sheet-ops.repository.js';

const SHEET = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-23T04:00:00.000Z');
const logged = (version: number, over: Partial<LoggedOp>): LoggedOp => ({
  version,
  kind: 'cells',
  userId: 'u1',
  createdAt: at,
  changes: [],
  opId: null,
  structure: null,
  ...over,
});

describe('live frames', () => {
  it('replays cell and structural ops with the sender’s op ids, in order', () => {
    const frames = replayFrames(SHEET, [
      logged(5, { changes: [{ row: 0, col: 1, old: 'a', new: 'b' }], opId: 'op-5' }),
      logged(6, { kind: 'rows_insert', changes: null, structure: { type: 'rows_insert', index: 2, count: 3 }, opId: 'op-6' }),
      logged(7, { changes: [{ row: 1, col: 1, old: null, new: 7 }] }),
    ]);
    assert.deepEqual(frames, [
      { type: 'operation', data: { sheet_id: SHEET, version: 5, operation: { id: 'op-5', user_id: 'u1', timestamp: at.toISOString(), type: 'cells_update', changes: [{ row: 0, col: 1, value: 'b' }] } } },
      { type: 'operation', data: { sheet_id: SHEET, version: 6, operation: { id: 'op-6', user_id: 'u1', timestamp: at.toISOString(), type: 'rows_insert', index: 2, count: 3 } } },
      { type: 'operation', data: { sheet_id: SHEET, version: 7, operation: { id: 'replay-7', user_id: 'u1', timestamp: at.toISOString(), type: 'cells_update', changes: [{ row: 1, col: 1, value: 7 }] } } },
    ]);
  });

  it('gives up (a sync instead) at a whole-grid save, a rename or a new grid', () => {
    for (const op of [logged(3, { kind: 'save' }), logged(3, { kind: 'meta' }), logged(3, { kind: 'create', changes: null })]) {
      assert.equal(replayFrames(SHEET, [logged(2, {}), op]), null, op.kind);
    }
  });

  it('turns changes from elsewhere into frames, and leaves the socket’s own ops and whole-sheet changes to the hub', () => {
    const cells = { sheetId: SHEET, version: 4, kind: 'cells' as const, changes: [{ row: 0, col: 0, value: 'x' }], userId: 'u1', updatedAt: at.toISOString() };
    assert.deepEqual(changeFrame(cells, 'live'), {
      type: 'operation',
      data: { sheet_id: SHEET, version: 4, operation: { id: 'rest-4', user_id: 'u1', timestamp: at.toISOString(), type: 'cells_update', changes: cells.changes } },
    });
    assert.equal(changeFrame({ ...cells, origin: 'live' }, 'live'), undefined);
    assert.deepEqual(changeFrame({ sheetId: SHEET, kind: 'proposal', versionId: 'p-1', author: 'ann' }, 'live'), {
      type: 'new_proposal',
      data: { sheet_id: SHEET, version_id: 'p-1', author: 'ann' },
    });
    assert.deepEqual(changeFrame({ sheetId: SHEET, kind: 'accepted', versionId: 'p-1', version: 9 }, 'live'), {
      type: 'live_update_accepted',
      data: { sheet_id: SHEET, version_id: 'p-1', version: 9 },
    });
    assert.equal(changeFrame({ sheetId: SHEET, version: 9, kind: 'sheet', userId: 'u1' }, 'live'), undefined);
    assert.equal(changeFrame({ sheetId: SHEET, kind: 'deleted' }, 'live'), undefined);
  });
});
