import { LIVE_SOURCE } from '../grid/grid-link.js';
import { ownStep, REDO_SOURCE, UNDO_CELLS_MAX, UNDO_SOURCE, UNDO_STEPS_MAX, WindowedUndo } from './windowed-undo.js';

test("ownStep: the user's changes at absolute rows; unchanged cells, others' changes, loads and undo itself are no step", () => {
  const changes: [number, number, unknown, unknown][] = [
    [2, 1, 'a', 'b'],
    [3, 0, undefined, 7],
    [4, 0, 'same', 'same'],
  ];
  expect(ownStep(changes, 'edit', 50_000)).toEqual([
    { row: 50_002, col: 1, before: 'a', after: 'b' },
    { row: 50_003, col: 0, before: null, after: 7 },
  ]);
  expect(ownStep(changes, 'CopyPaste.paste', 0)).toHaveLength(2);
  for (const source of [LIVE_SOURCE, 'loadData', 'updateData', UNDO_SOURCE, REDO_SOURCE]) expect(ownStep(changes, source, 0)).toEqual([]);
  expect(ownStep(null, 'edit', 0)).toEqual([]);
});

test('undo gives the values before, last step first; redo the values after; a new step ends the redos', () => {
  const undo = new WindowedUndo();
  expect(undo.undo()).toBeNull();
  undo.record([{ row: 5, col: 0, before: 'old', after: 'new' }]);
  undo.record([
    { row: 100_000, col: 1, before: 1, after: 2 },
    { row: 100_001, col: 1, before: null, after: 3 },
  ]);
  expect(undo.undo()).toEqual([
    { row: 100_001, col: 1, value: null },
    { row: 100_000, col: 1, value: 1 },
  ]);
  expect(undo.undo()).toEqual([{ row: 5, col: 0, value: 'old' }]);
  expect(undo.canUndo()).toBe(false);
  expect(undo.redo()).toEqual([{ row: 5, col: 0, value: 'new' }]);
  expect(undo.canRedo()).toBe(true);
  undo.record([{ row: 6, col: 0, before: null, after: 'x' }]);
  expect(undo.canRedo()).toBe(false);
  expect(undo.undo()).toEqual([{ row: 6, col: 0, value: null }]);
  expect(undo.undo()).toEqual([{ row: 5, col: 0, value: 'old' }]);
});

test('rows and columns inserted or removed move the steps, undone ones too; a removed cell leaves its step, an empty step goes', () => {
  const undo = new WindowedUndo();
  undo.record([{ row: 10, col: 0, before: 'a', after: 'b' }]);
  undo.record([
    { row: 20, col: 0, before: 'c', after: 'd' },
    { row: 21, col: 2, before: 'e', after: 'f' },
  ]);
  undo.record([{ row: 30, col: 1, before: 'g', after: 'h' }]);
  expect(undo.undo()).toEqual([{ row: 30, col: 1, value: 'g' }]);
  // Two rows inserted above row 15: rows 20, 21 and 30 move down, row 10 stays.
  undo.moved({ type: 'rows_insert', index: 15, count: 2 });
  // Row 22 (was 20) removed; a column inserted left of column 1.
  undo.moved({ type: 'rows_remove', index: 22, count: 1 });
  undo.moved({ type: 'columns_insert', index: 1, count: 1 });
  expect(undo.redo()).toEqual([{ row: 31, col: 2, value: 'h' }]);
  expect(undo.undo()).toEqual([{ row: 31, col: 2, value: 'g' }]);
  expect(undo.undo()).toEqual([{ row: 22, col: 3, value: 'e' }]);
  // Column 0 removed: the first step's only cell, so the step is gone.
  undo.moved({ type: 'columns_remove', index: 0, count: 1 });
  expect(undo.canUndo()).toBe(false);
  expect(undo.redo()).toEqual([{ row: 22, col: 2, value: 'f' }]);
});

test('the stack is bounded: the oldest steps go past UNDO_STEPS_MAX steps or UNDO_CELLS_MAX cells; the newest stays', () => {
  const undo = new WindowedUndo();
  for (let i = 0; i <= UNDO_STEPS_MAX; i++) undo.record([{ row: i, col: 0, before: null, after: i }]);
  let steps = 0;
  let oldest = -1;
  for (let changes = undo.undo(); changes; changes = undo.undo()) {
    steps++;
    oldest = changes[0].row;
  }
  expect(steps).toBe(UNDO_STEPS_MAX);
  expect(oldest).toBe(1);

  const big = (row: number) => Array.from({ length: UNDO_CELLS_MAX / 2 + 1 }, (_, col) => ({ row, col, before: null, after: 1 }));
  undo.record(big(0));
  undo.record(big(1));
  expect(undo.undo()?.[0].row).toBe(1);
  expect(undo.canUndo()).toBe(false);
});
