import { CellChangeLog, TICK_MAX_CELLS } from './cell-change-log.js';

describe('the cells changed since a data tick', () => {
  test('the cells of every tick after it, in order; none when nothing changed since', () => {
    const log = new CellChangeLog();
    log.record(1, [{ row: 0, col: 1 }]);
    log.record(2, [{ row: 5, col: 1 }, { row: 6, col: 1 }]);
    log.record(3, [{ row: 9, col: 0 }]);
    expect(log.since(1, 3)).toEqual([{ row: 5, col: 1 }, { row: 6, col: 1 }, { row: 9, col: 0 }]);
    expect(log.since(0, 1)).toEqual([{ row: 0, col: 1 }]);
    expect(log.since(3, 3)).toEqual([]);
  });

  test('a tick of a whole column of a large sheet (a Delete of a 100,000-row column, its undo) is read, not a stack overflow', () => {
    const log = new CellChangeLog();
    const column = Array.from({ length: TICK_MAX_CELLS }, (_, row) => ({ row, col: 2 }));
    log.record(1, column);
    log.record(2, [{ row: 0, col: 0 }]);
    const cells = log.since(0, 2);
    expect(cells).toHaveLength(TICK_MAX_CELLS + 1);
    expect(cells?.at(-2)).toEqual({ row: TICK_MAX_CELLS - 1, col: 2 });
  });

  test('a tick of more cells than TICK_MAX_CELLS (a million-row column cleared) is "anything may have changed": not kept cell by cell', () => {
    const log = new CellChangeLog();
    log.record(1, Array.from({ length: TICK_MAX_CELLS + 1 }, (_, row) => ({ row, col: 2 })));
    log.record(2, [{ row: 0, col: 0 }]);
    expect(log.since(0, 2)).toBeNull();
    expect(log.since(1, 2)).toEqual([{ row: 0, col: 0 }]);
  });

  test('unknown (null) across a tick where anything may have changed, a tick not recorded, or one forgotten', () => {
    const log = new CellChangeLog();
    log.record(1, [{ row: 0, col: 0 }]);
    log.record(2, null);
    log.record(3, [{ row: 1, col: 0 }]);
    log.record(5, [{ row: 2, col: 0 }]);
    expect(log.since(0, 3)).toBeNull();
    expect(log.since(2, 3)).toEqual([{ row: 1, col: 0 }]);
    expect(log.since(3, 5)).toBeNull();
    expect(log.since(3, 6)).toBeNull();
    for (let tick = 6; tick < 600; tick++) log.record(tick, [{ row: tick, col: 0 }]);
    expect(log.since(5, 599)).toBeNull();
    expect(log.since(597, 599)).toEqual([{ row: 598, col: 0 }, { row: 599, col: 0 }]);
  });
});
