import type { GridData } from '@tessera/contracts';
import { LOG_MAX_CELLS_SAVED, RowWindows } from './row-windows.js';

/** Windows of 10 rows; rows hold their absolute index in column 0. */
const SIZE = 10;
const windowRows = (index: number): GridData => Array.from({ length: SIZE }, (_, i) => [`r${index * SIZE + i}`, 'x']);

describe('RowWindows', () => {
  it('places absolute rows in fixed windows and lists the windows a range still needs', () => {
    const windows = new RowWindows(1, 40, SIZE);
    expect(windows.indexOf(0)).toBe(0);
    expect(windows.indexOf(9)).toBe(0);
    expect(windows.indexOf(10)).toBe(1);
    expect(windows.missing(5, 34)).toEqual([0, 1, 2, 3]);
    expect(windows.arrived(1, 1, windowRows(1))).toBe('stored');
    expect(windows.missing(5, 34)).toEqual([0, 2, 3]);
    expect(windows.get(1)?.[3]).toEqual(['r13', 'x']);
  });

  it('a window read at the version held is stored; others\' cells then land in it', () => {
    const windows = new RowWindows(4, 40, SIZE);
    windows.arrived(2, 4, windowRows(2));
    windows.applyRemote(5, [{ row: 21, col: 1, value: 'theirs' }, { row: 95, col: 0, value: 'not loaded' }]);
    expect(windows.get(2)?.[1]).toEqual(['r21', 'theirs']);
    expect(windows.version).toBe(5);
    expect(windows.get(9)).toBeUndefined();
  });

  it('a window read ahead of the session is held until the session reaches its version', () => {
    const windows = new RowWindows(4, 40, SIZE);
    expect(windows.arrived(0, 6, windowRows(0))).toBe('held');
    expect(windows.get(0)).toBeUndefined();
    expect(windows.missing(0, 9)).toEqual([]);
    // Version 5 (someone's cell, already in the window read at 6) comes first: not yet.
    windows.applyRemote(5, [{ row: 2, col: 1, value: 'v5' }]);
    expect(windows.get(0)).toBeUndefined();
    windows.advance(6);
    expect(windows.get(0)?.[2]).toEqual(['r2', 'x']);
  });

  it('a window read behind the session gets the changes it missed: others\' after its version, own edits not yet saved', () => {
    const windows = new RowWindows(4, 40, SIZE);
    windows.applyRemote(5, [{ row: 3, col: 1, value: 'v5' }]);
    windows.applyRemote(6, [{ row: 4, col: 1, value: 'v6' }]);
    windows.applyOwn([{ row: 7, col: 0, value: 'mine' }]);
    // Read at 5: it has version 5's cell already, not version 6's, not the own edit.
    const rows = windowRows(0);
    rows[3] = ['r3', 'v5'];
    expect(windows.arrived(0, 5, rows)).toBe('stored');
    expect(windows.get(0)?.slice(3, 8)).toEqual([['r3', 'v5'], ['r4', 'v6'], ['r5', 'x'], ['r6', 'x'], ['mine', 'x']]);
  });

  it('an own edit saved by a version the window was read at is not written over it again', () => {
    const windows = new RowWindows(4, 40, SIZE);
    windows.applyOwn([{ row: 1, col: 1, value: 'mine' }]);
    windows.advance(5); // its ack
    windows.ownSaved();
    windows.applyRemote(6, [{ row: 1, col: 1, value: 'theirs after' }]);
    const rows = windowRows(0);
    rows[1] = ['r1', 'mine'];
    windows.arrived(0, 5, rows);
    expect(windows.get(0)?.[1]).toEqual(['r1', 'theirs after']);
    // Read at 6 (it holds everything): unchanged.
    const later = windowRows(1);
    windows.arrived(1, 6, later);
    expect(windows.get(1)?.[1]).toEqual(['r11', 'x']);
  });

  it('own edits of more cells than LOG_MAX_CELLS_SAVED (a whole column cleared) are let go once saved: a window read before is read again, not shown without them', () => {
    const windows = new RowWindows(4, 40, SIZE);
    windows.applyOwn(Array.from({ length: LOG_MAX_CELLS_SAVED + 1 }, (_, row) => ({ row, col: 1, value: null })));
    windows.advance(5); // their ack
    windows.ownSaved();
    // Read at 4 (before the server had them): its column 1 would show the values cleared.
    expect(windows.arrived(0, 4, windowRows(0))).toBe('stale');
    expect(windows.catchUp(1, 4, windowRows(1))).toBe('stale');
    // Read at 5: it has them.
    const rows = windowRows(0).map(([name]) => [name, null]);
    expect(windows.arrived(0, 5, rows)).toBe('stored');
    // Others' cells from then on are logged as before.
    windows.applyRemote(6, [{ row: 12, col: 1, value: 'theirs' }]);
    expect(windows.arrived(1, 5, windowRows(1))).toBe('stored');
    expect(windows.get(1)?.[2]).toEqual(['r12', 'theirs']);
  });

  it('after a reset (rows or columns moved) a window read before it is stale: read it again', () => {
    const windows = new RowWindows(4, 40, SIZE);
    windows.arrived(0, 4, windowRows(0));
    windows.reset(5);
    expect(windows.get(0)).toBeUndefined();
    expect(windows.arrived(1, 4, windowRows(1))).toBe('stale');
    expect(windows.arrived(1, 5, windowRows(1))).toBe('stored');
  });

  it('keeps at most its capacity, dropping the least recently used window but never one shown', () => {
    const windows = new RowWindows(1, 3, SIZE);
    for (const i of [0, 1, 2]) windows.arrived(i, 1, windowRows(i));
    windows.get(0); // used: 1 is now the oldest
    windows.arrived(3, 1, windowRows(3), new Set([1]));
    expect([0, 1, 2, 3].filter((i) => windows.get(i) !== undefined)).toEqual([0, 1, 3]);
  });
  it('cells the server put back unsent (a clear undone): the windows shown of the block are to be read again, the others go; one read before that version is stale; an own edit on its way stays on top of the read', () => {
    const windows = new RowWindows(4, 40, SIZE);
    for (const index of [0, 1, 5]) windows.arrived(index, 4, windowRows(index));
    windows.applyOwn([{ row: 12, col: 1, value: 'mine' }]);
    // Put back at version 5 in rows 8..19: windows 0 and 1; only 0 is shown.
    expect(windows.applyUnknown(5, [{ rows: { start: 8, count: 12 }, columns: { start: 1, count: 1 } }], new Set([0, 5]))).toEqual([0]);
    expect(windows.version).toBe(5);
    expect(windows.get(0)).toBeDefined();
    expect(windows.has(1)).toBe(false);
    expect(windows.get(5)?.[0]).toEqual(['r50', 'x']);
    // Read before version 5: stale; read at 5: stored, the own edit on top (the server may not have had it then).
    expect(windows.arrived(1, 4, windowRows(1))).toBe('stale');
    expect(windows.catchUp(1, 4, windowRows(1))).toBe('stale');
    expect(windows.arrived(1, 5, windowRows(1))).toBe('stored');
    expect(windows.get(1)?.[2]).toEqual(['r12', 'mine']);
    // A window outside the block read before it is brought up to date as before.
    expect(windows.arrived(3, 4, windowRows(3))).toBe('stored');
    // Where is not known (null): every window read before it is stale.
    windows.applyUnknown(6, null, new Set());
    expect(windows.has(3)).toBe(false);
    expect(windows.arrived(3, 5, windowRows(3))).toBe('stale');
  });
});
