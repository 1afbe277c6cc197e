import { LIVE_SOURCE } from '../grid/grid-link.js';
import type { StructureMove } from '../windowed/moved-rows.js';
import { type ClearedCells, ownStep, REDO_SOURCE, UNDO_CELLS_MAX, UNDO_SOURCE, UNDO_STEP_CELLS_MAX, UNDO_STEPS_MAX, UndoStack, type UndoStep } from './undo-stack.js';

/** An undo or redo done (its inverse sent at once): the cells written, null when there was none. */
const undone = (stack: UndoStack) => {
  const inverse = stack.undo();
  stack.settled();
  return inverse?.cells ?? null;
};
const redone = (stack: UndoStack) => {
  const inverse = stack.redo();
  stack.settled();
  return inverse?.cells ?? null;
};

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
  const undo = new UndoStack();
  expect(undone(undo)).toBeNull();
  undo.record([{ row: 5, col: 0, before: 'old', after: 'new' }]);
  undo.record([
    { row: 100_000, col: 1, before: 1, after: 2 },
    { row: 100_001, col: 1, before: null, after: 3 },
  ]);
  expect(undone(undo)).toEqual([
    { row: 100_001, col: 1, value: null },
    { row: 100_000, col: 1, value: 1 },
  ]);
  expect(undone(undo)).toEqual([{ row: 5, col: 0, value: 'old' }]);
  expect(undo.canUndo()).toBe(false);
  expect(redone(undo)).toEqual([{ row: 5, col: 0, value: 'new' }]);
  expect(undo.canRedo()).toBe(true);
  undo.record([{ row: 6, col: 0, before: null, after: 'x' }]);
  expect(undo.canRedo()).toBe(false);
  expect(undone(undo)).toEqual([{ row: 6, col: 0, value: null }]);
  expect(undone(undo)).toEqual([{ row: 5, col: 0, value: 'old' }]);
});

test('rows and columns inserted or removed move the steps, undone ones too; a removed cell leaves its step, an empty step goes', () => {
  const undo = new UndoStack();
  undo.record([{ row: 10, col: 0, before: 'a', after: 'b' }]);
  undo.record([
    { row: 20, col: 0, before: 'c', after: 'd' },
    { row: 21, col: 2, before: 'e', after: 'f' },
  ]);
  undo.record([{ row: 30, col: 1, before: 'g', after: 'h' }]);
  expect(undone(undo)).toEqual([{ row: 30, col: 1, value: 'g' }]);
  // Two rows inserted above row 15: rows 20, 21 and 30 move down, row 10 stays.
  undo.moved({ type: 'rows_insert', index: 15, count: 2 });
  // Row 22 (was 20) removed; a column inserted left of column 1.
  undo.moved({ type: 'rows_remove', index: 22, count: 1 });
  undo.moved({ type: 'columns_insert', index: 1, count: 1 });
  expect(redone(undo)).toEqual([{ row: 31, col: 2, value: 'h' }]);
  expect(undone(undo)).toEqual([{ row: 31, col: 2, value: 'g' }]);
  expect(undone(undo)).toEqual([{ row: 22, col: 3, value: 'e' }]);
  // Column 0 removed: the first step's only cell, so the step is gone.
  undo.moved({ type: 'columns_remove', index: 0, count: 1 });
  expect(undo.canUndo()).toBe(false);
  expect(redone(undo)).toEqual([{ row: 22, col: 2, value: 'f' }]);
});

test('the stack is bounded: the oldest steps go past UNDO_STEPS_MAX steps or UNDO_CELLS_MAX cells; the newest stays', () => {
  const undo = new UndoStack();
  for (let i = 0; i <= UNDO_STEPS_MAX; i++) undo.record([{ row: i, col: 0, before: null, after: i }]);
  let steps = 0;
  let oldest = -1;
  for (let changes = undone(undo); changes; changes = undone(undo)) {
    steps++;
    oldest = changes[0].row;
  }
  expect(steps).toBe(UNDO_STEPS_MAX);
  expect(oldest).toBe(1);

  const big = (row: number) => Array.from({ length: UNDO_CELLS_MAX / 2 + 1 }, (_, col) => ({ row, col, before: null, after: 1 }));
  undo.record(big(0));
  undo.record(big(1));
  expect(undone(undo)?.[0].row).toBe(1);
  expect(undo.canUndo()).toBe(false);
});

test('steps one action made (together: the shown rows of a filtered selection removed run by run) are undone and redone as one, and count as one step', () => {
  const undo = new UndoStack();
  undo.record([{ row: 9, col: 0, before: 'x', after: 'y' }]);
  // Rows 1-2 and 5 removed (as Handsontable removes a filtered selection's runs: the last run first).
  undo.together(() => {
    undo.own({ type: 'rows_remove', index: 5, count: 1 }, () => [{ row: 5, col: 0, before: 'f', after: null }]);
    undo.own({ type: 'rows_remove', index: 1, count: 2 }, () => []);
  });
  // Each inverse goes out as the grid sends it (own: the other steps move), then is settled.
  const sent = (inverse: ReturnType<UndoStack['undo']>) => {
    if (inverse?.structure) undo.own(inverse.structure, () => []);
    undo.settled();
    return inverse;
  };
  expect(sent(undo.undo())).toEqual({ structure: { type: 'rows_insert', index: 1, count: 2 }, cells: [], more: true });
  expect(sent(undo.undo())).toEqual({ structure: { type: 'rows_insert', index: 5, count: 1 }, cells: [{ row: 5, col: 0, value: 'f' }] });
  expect(sent(undo.redo())).toEqual({ structure: { type: 'rows_remove', index: 5, count: 1 }, cells: [], more: true });
  expect(sent(undo.redo())).toEqual({ structure: { type: 'rows_remove', index: 1, count: 2 }, cells: [] });
  // Undone again, the edit before them is the next step, on its row.
  expect(sent(undo.undo())?.more).toBe(true);
  expect(sent(undo.undo())?.more).toBeUndefined();
  expect(undone(undo)).toEqual([{ row: 9, col: 0, value: 'x' }]);

  // An action of more runs than UNDO_STEPS_MAX is one step: kept whole, and the oldest steps go whole.
  const bounded = new UndoStack();
  bounded.record([{ row: 0, col: 0, before: null, after: 1 }]);
  for (let action = 0; action < UNDO_STEPS_MAX; action++) {
    bounded.together(() => {
      for (let run = 0; run < 2; run++) bounded.own({ type: 'rows_insert', index: 1000, count: 1 }, () => []);
    });
  }
  let actions = 0;
  while (bounded.canUndo()) {
    for (let inverse = bounded.undo(); ; inverse = bounded.undo()) {
      bounded.settled();
      if (!inverse?.more) break;
    }
    actions++;
  }
  expect(actions).toBe(UNDO_STEPS_MAX);
  const big = new UndoStack();
  big.together(() => {
    for (let run = 0; run < UNDO_STEPS_MAX + 5; run++) big.own({ type: 'rows_insert', index: 0, count: 1 }, () => []);
  });
  let runs = 0;
  for (let inverse = big.undo(); inverse; inverse = inverse.more ? big.undo() : null) {
    big.settled();
    runs++;
  }
  expect(runs).toBe(UNDO_STEPS_MAX + 5);
});

test('one step past UNDO_STEP_CELLS_MAX cells (several whole columns of a million rows) cannot be undone: the history before it goes too, as for a remove too large', () => {
  const undo = new UndoStack();
  undo.record([{ row: 0, col: 0, before: null, after: 1 }]);
  undo.record(Array.from({ length: UNDO_STEP_CELLS_MAX + 1 }, (_, row) => ({ row, col: 1, before: row, after: null })));
  expect(undo.canUndo()).toBe(false);
  expect(undone(undo)).toBeNull();
  // A whole column of the largest sheet (a Delete of it: past UNDO_CELLS_MAX) is a step, the only one kept.
  undo.record([{ row: 0, col: 0, before: null, after: 1 }]);
  undo.record(Array.from({ length: UNDO_STEP_CELLS_MAX }, (_, row) => ({ row, col: 1, before: row, after: null })));
  expect(undone(undo)).toHaveLength(UNDO_STEP_CELLS_MAX);
  expect(undo.canUndo()).toBe(false);
});

test("own row inserts and removes are steps: undone (a remove's cells put back) and redone where their rows are now", () => {
  const undo = new UndoStack();
  /** An own op, as the sheet sends it: the steps move, then it is a step. */
  const own = (move: StructureMove, removed: UndoStep | null = []) => undo.own(move, () => removed);
  undo.record([{ row: 50, col: 0, before: 'a', after: 'b' }]);
  own({ type: 'rows_insert', index: 10, count: 2 });
  // Someone inserts 3 rows at the top: both steps move down.
  undo.moved({ type: 'rows_insert', index: 0, count: 3 });
  expect(undo.undo()).toEqual({ structure: { type: 'rows_remove', index: 13, count: 2 }, cells: [] });
  // Its inverse goes out (the sheet moves the steps, it is no step); it does not move itself.
  own({ type: 'rows_remove', index: 13, count: 2 });
  undo.settled();
  expect(undone(undo)).toEqual([{ row: 53, col: 0, value: 'a' }]);
  expect(redone(undo)).toEqual([{ row: 53, col: 0, value: 'b' }]);
  expect(undo.redo()).toEqual({ structure: { type: 'rows_insert', index: 13, count: 2 }, cells: [] });
  own({ type: 'rows_insert', index: 13, count: 2 });
  undo.settled();
  expect(undone(undo)).toEqual([]);

  // A remove of rows 60–61, with their cells; someone removes row 0 and inserts a column at the left.
  own({ type: 'rows_remove', index: 60, count: 2 }, [
    { row: 60, col: 0, before: 'x', after: null },
    { row: 61, col: 1, before: 7, after: null },
  ]);
  undo.moved({ type: 'rows_remove', index: 0, count: 1 });
  undo.moved({ type: 'columns_insert', index: 0, count: 1 });
  expect(undo.undo()).toEqual({
    structure: { type: 'rows_insert', index: 59, count: 2 },
    cells: [
      { row: 59, col: 1, value: 'x' },
      { row: 60, col: 2, value: 7 },
    ],
  });
  own({ type: 'rows_insert', index: 59, count: 2 });
  undo.settled();
  expect(undo.redo()).toEqual({ structure: { type: 'rows_remove', index: 59, count: 2 }, cells: [] });
});

test("a step whose inserted rows someone cuts into goes; a remove whose cells are not all known cannot be undone and ends the history", () => {
  const undo = new UndoStack();
  undo.own({ type: 'rows_insert', index: 10, count: 3 }, () => []);
  undo.moved({ type: 'rows_remove', index: 11, count: 1 });
  expect(undo.canUndo()).toBe(false);

  undo.record([{ row: 1, col: 0, before: null, after: 1 }]);
  undo.own({ type: 'columns_remove', index: 0, count: 1 }, () => null);
  expect(undo.canUndo()).toBe(false);
  expect(undo.canRedo()).toBe(false);
});

test("an own remove keeps the earlier edits' cells it takes: the remove undone, then the edit, restores both (the edit's step is not skipped)", () => {
  const undo = new UndoStack();
  /** An undo or redo whose own op goes out (the sheet moves the steps through own()) before it is settled. */
  const back = (redo: boolean) => {
    const inverse = redo ? undo.redo() : undo.undo();
    if (inverse?.structure) undo.own(inverse.structure, () => []);
    undo.settled();
    return inverse;
  };
  undo.record([{ row: 0, col: 0, before: 'old', after: 'first' }]);
  undo.record([
    { row: 3, col: 2, before: 'a', after: 'b' },
    { row: 5, col: 1, before: null, after: 'c' },
  ]);
  // Column 2 removed by the user, with the edited cell; then someone inserts a row at the top.
  undo.own({ type: 'columns_remove', index: 2, count: 1 }, () => [{ row: 3, col: 2, before: 'b', after: null }]);
  undo.moved({ type: 'rows_insert', index: 0, count: 1 });
  expect(back(false)).toEqual({ structure: { type: 'columns_insert', index: 2, count: 1 }, cells: [{ row: 4, col: 2, value: 'b' }] });
  expect(back(false)).toEqual({ cells: [
    { row: 4, col: 2, value: 'a' },
    { row: 6, col: 1, value: null },
  ] });
  // Redone: the column removed again takes the cell again; undone again, it is back.
  expect(back(true)).toEqual({ cells: [
    { row: 6, col: 1, value: 'c' },
    { row: 4, col: 2, value: 'b' },
  ] });
  expect(back(true)).toEqual({ structure: { type: 'columns_remove', index: 2, count: 1 }, cells: [] });
  back(false);
  expect(back(false)?.cells).toEqual([
    { row: 4, col: 2, value: 'a' },
    { row: 6, col: 1, value: null },
  ]);
  expect(back(false)?.cells).toEqual([{ row: 1, col: 0, value: 'old' }]);

  // An edit whose only cell is in rows the user removed, which someone else then removes for good: nothing left of it.
  const other = new UndoStack();
  other.record([{ row: 0, col: 0, before: 1, after: 2 }]);
  other.record([{ row: 9, col: 0, before: 'x', after: 'y' }]);
  other.own({ type: 'rows_remove', index: 9, count: 1 }, () => [{ row: 9, col: 0, before: 'y', after: null }]);
  other.moved({ type: 'columns_remove', index: 0, count: 1 });
  expect(other.undo()).toEqual({ structure: { type: 'rows_insert', index: 9, count: 1 }, cells: [] });
  other.settled();
  expect(other.undo()).toBeNull();
});

/** Cells emptied, packed as a whole-column Delete or Cut records them: [row, col, before] each. */
const cleared = (cells: [number, number, string | number][]): ClearedCells => ({
  rows: Int32Array.from(cells, ([row]) => row),
  cols: Int32Array.from(cells, ([, col]) => col),
  before: cells.map(([, , before]) => before),
});

test('cells emptied, recorded packed (a whole column cleared): undone with their values, redone empty, moved with the columns and rows others insert or remove', () => {
  const undo = new UndoStack();
  undo.record(cleared([[0, 2, 'a'], [7, 2, 3], [900_000, 2, 'z']]));
  // A column inserted right of them: they stay; undo writes each value back where it was (the last cell first, as a step's).
  undo.moved({ type: 'columns_insert', index: 5, count: 1 });
  expect(undone(undo)).toEqual([{ row: 900_000, col: 2, value: 'z' }, { row: 7, col: 2, value: 3 }, { row: 0, col: 2, value: 'a' }]);
  expect(redone(undo)).toEqual([{ row: 0, col: 2, value: null }, { row: 7, col: 2, value: null }, { row: 900_000, col: 2, value: null }]);
  // A column inserted left of them and row 7 removed: the others go back one column right, row 900,000 one row up.
  undo.moved({ type: 'columns_insert', index: 0, count: 1 });
  undo.moved({ type: 'rows_remove', index: 7, count: 1 });
  expect(undone(undo)).toEqual([{ row: 899_999, col: 3, value: 'z' }, { row: 0, col: 3, value: 'a' }]);
  // Their column removed by someone: nothing left to undo.
  redone(undo);
  undo.moved({ type: 'columns_remove', index: 3, count: 1 });
  expect(undo.canUndo()).toBe(false);
  // Past UNDO_STEP_CELLS_MAX cells: not undoable, the history ends (as for a step of objects).
  undo.record([{ row: 0, col: 0, before: null, after: 1 }]);
  const many = { rows: new Int32Array(UNDO_STEP_CELLS_MAX + 1), cols: new Int32Array(UNDO_STEP_CELLS_MAX + 1), before: new Array(UNDO_STEP_CELLS_MAX + 1).fill(1) };
  undo.record(many);
  expect(undo.canUndo()).toBe(false);
});

test("an own remove of rows takes packed cleared cells of an earlier step with it: undoing the remove, then the clear, restores every cell", () => {
  const undo = new UndoStack();
  undo.record(cleared([[4, 1, 'x'], [10, 1, 'y']]));
  undo.own({ type: 'rows_remove', index: 4, count: 1 }, () => [{ row: 4, col: 0, before: 'k', after: null }]);
  const back = undo.undo();
  expect(back).toEqual({ structure: { type: 'rows_insert', index: 4, count: 1 }, cells: [{ row: 4, col: 0, value: 'k' }] });
  undo.own(back!.structure!, () => []);
  undo.settled();
  expect(undone(undo)?.sort((a, b) => a.row - b.row)).toEqual([{ row: 4, col: 1, value: 'x' }, { row: 10, col: 1, value: 'y' }]);
});

test('a sort: later cell steps follow their rows, a row insert before it goes with every step before it, an own sort becomes a step undone by its version and redone by sorting again', () => {
  const stack = new UndoStack();
  stack.record([{ row: 0, col: 0, before: 'old', after: 'a' }]);
  stack.own({ type: 'rows_insert', index: 1, count: 1 }, () => []);
  stack.record([{ row: 2, col: 1, before: null, after: 'typed' }]);
  // order [2, 0, 1]: row 2 is now row 0 (inverse [1, 2, 0]).
  stack.sorted([1, 2, 0], { step: { version: 7, column: 1, direction: 'asc' } });
  expect(stack.undo()).toEqual({ cells: [], sort: { column: 1, direction: 'asc', undo: 7 } });
  stack.settled();
  expect(stack.undo()).toEqual({ cells: [{ row: 0, col: 1, value: null }] });
  stack.settled();
  // The insert and the edit before it went (rows no longer together).
  expect(stack.undo()).toBeNull();
  expect(stack.redo()).toEqual({ cells: [{ row: 0, col: 1, value: 'typed' }] });
  stack.settled();
  expect(stack.redo()).toEqual({ cells: [], sort: { column: 1, direction: 'asc' } });
  stack.settled();
  stack.sorted([0, 1, 2], { redone: 9 });
  expect(stack.undo()).toEqual({ cells: [], sort: { column: 1, direction: 'asc', undo: 9 } });
});

test('a sort whose order is not known here (past SORT_ORDER_SENT_MAX_ROWS rows): every step goes but the sorts', () => {
  const stack = new UndoStack();
  stack.record([{ row: 0, col: 0, before: 'old', after: 'a' }]);
  stack.sorted(null, { step: { version: 3, column: 0, direction: 'desc' } });
  stack.clearButSorts();
  expect(stack.undo()).toEqual({ cells: [], sort: { column: 0, direction: 'desc', undo: 3 } });
  stack.settled();
  expect(stack.undo()).toBeNull();
});

describe('a clear sent as cells_clear operations (a whole column of a windowed sheet): undone and redone by the server', () => {
  const column = (col: number, rows: number) => ({ rows: { start: 0, count: rows }, columns: { start: col, count: 1 } });

  test('once the server gave its clears their versions, undo sends a cells_clear_undo of each (no cell); redo clears the blocks again and takes the new versions', () => {
    const undo = new UndoStack();
    undo.record(cleared([[0, 1, 'a'], [999_999, 1, 'b'], [5, 3, 'c']]), { ids: ['c1', 'c2'], blocks: [column(1, 1_000_000), column(3, 1_000_000)] });
    // Their acks on their way: undone now, it would go cell by cell (the grid waits for them).
    undo.clearApplied('c1', 7);
    expect(undo.versionsPending()).toBe(true);
    undo.clearApplied('c2', 8);
    expect(undo.versionsPending()).toBe(false);
    const back = undo.undo();
    expect(back).toEqual({ cells: [], clearUndo: { versions: [8, 7], blocks: [column(1, 1_000_000), column(3, 1_000_000)] } });
    undo.settled();
    // Someone inserts two rows at the top meanwhile: the server moves the cells; the blocks here follow.
    undo.moved({ type: 'rows_insert', index: 0, count: 2 });
    const again = undo.redo();
    expect(again).toEqual({ cells: [], clear: [{ rows: { start: 2, count: 1_000_000 }, columns: { start: 1, count: 1 } }, { rows: { start: 2, count: 1_000_000 }, columns: { start: 3, count: 1 } }] });
    undo.clearsSent(['c3', 'c4']);
    undo.settled();
    // Undone before the new clears were applied: their versions are not known yet, the cells go back one by one (where they are now).
    undo.clearApplied('c3', 12);
    expect(undo.undo()?.cells).toEqual([{ row: 7, col: 3, value: 'c' }, { row: 1_000_001, col: 1, value: 'b' }, { row: 2, col: 1, value: 'a' }]);
    undo.settled();
    // Redone (cleared again as blocks), then applied: undone by version.
    expect(undo.redo()?.clear).toHaveLength(2);
    undo.clearsSent(['c5', 'c6']);
    undo.settled();
    undo.clearApplied('c5', 20);
    undo.clearApplied('c6', 21);
    expect(undo.undo()?.clearUndo?.versions).toEqual([21, 20]);
  });

  test("rows others remove under it leave it undoable by version (the server drops those cells too); a step without clears, and the whole grid's after a switch, keep the cells", () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'typed' }]);
    undo.record(cleared([[0, 1, 'a'], [10, 1, 'b'], [20, 1, 'c']]), { ids: ['c1'], blocks: [column(1, 30)] });
    undo.clearApplied('c1', 4);
    undo.moved({ type: 'rows_remove', index: 10, count: 1 });
    expect(undo.undo()).toEqual({ cells: [], clearUndo: { versions: [4], blocks: [column(1, 29)] } });
    undo.settled();
    // Its cells moved with the rows, packed: redone by blocks, undone by cells once switched to whole.
    expect(undo.redo()?.clear).toEqual([column(1, 29)]);
    undo.clearsSent(['c2']);
    undo.settled();
    undo.clearApplied('c2', 6);
    undo.byCells();
    expect(undone(undo)).toEqual([{ row: 19, col: 1, value: 'c' }, { row: 0, col: 1, value: 'a' }]);
    expect(redone(undo)).toEqual([{ row: 0, col: 1, value: null }, { row: 19, col: 1, value: null }]);
    expect(undone(undo)).toEqual([{ row: 19, col: 1, value: 'c' }, { row: 0, col: 1, value: 'a' }]);
    expect(undone(undo)).toEqual([{ row: 0, col: 0, value: null }]);
  });

  test('an own remove that takes some of its cells, undone: the cells come back in rows the server inserted new, so the clear is undone by cells', () => {
    const undo = new UndoStack();
    undo.record(cleared([[4, 1, 'x'], [10, 1, 'y']]), { ids: ['c1'], blocks: [column(1, 20)] });
    undo.clearApplied('c1', 3);
    undo.own({ type: 'rows_remove', index: 4, count: 1 }, () => []);
    const back = undo.undo();
    undo.own(back!.structure!, () => []);
    undo.settled();
    expect(undone(undo)?.sort((a, b) => a.row - b.row)).toEqual([{ row: 4, col: 1, value: 'x' }, { row: 10, col: 1, value: 'y' }]);
  });

  test('a sort with its order known moves its blocks with the rows: a block of some rows it scatters is redone cell by cell', () => {
    const undo = new UndoStack();
    undo.record(cleared([[0, 1, 'a'], [1, 1, 'b']]), { ids: ['c1'], blocks: [{ rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } }] });
    undo.clearApplied('c1', 3);
    // Rows 0 and 1 go to 0 and 2 (row 2 to 1).
    undo.sorted(Int32Array.from([0, 2, 1]));
    expect(undo.undo()?.clearUndo).toEqual({ versions: [3], blocks: null });
    undo.settled();
    expect(redone(undo)).toEqual([{ row: 0, col: 1, value: null }, { row: 2, col: 1, value: null }]);
    // Redone cell by cell: no clear names it, undone by cells.
    expect(undone(undo)).toEqual([{ row: 2, col: 1, value: 'b' }, { row: 0, col: 1, value: 'a' }]);
  });
  test('an undo the server refused (its history before the clear no longer kept): the step is back to be undone, by its cells (held here), then redone by its blocks', () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'typed' }]);
    undo.record(cleared([[0, 1, 'a'], [9, 1, 'b']]), { ids: ['c1'], blocks: [column(1, 10)] });
    undo.clearApplied('c1', 5);
    expect(undo.undo()?.clearUndo?.versions).toEqual([5]);
    undo.settled();
    undo.clearUndoRefused(5);
    expect(undo.canRedo()).toBe(false);
    expect(undone(undo)).toEqual([{ row: 9, col: 1, value: 'b' }, { row: 0, col: 1, value: 'a' }]);
    expect(undo.redo()?.clear).toEqual([column(1, 10)]);
    undo.clearsSent(['c2']);
    undo.settled();
    // A refusal of a version no step names changes nothing.
    undo.clearUndoRefused(99);
    expect(undone(undo)).toEqual([{ row: 9, col: 1, value: 'b' }, { row: 0, col: 1, value: 'a' }]);
  });
  test("a sort whose order is not known here (a million rows) or a sync: the last clears the server can undo stay, undone by version only, redone only by blocks of every row; what the server refuses then goes", () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'typed' }]);
    undo.record(cleared([[2, 1, 'a']]), { ids: ['part'], blocks: [{ rows: { start: 2, count: 3 }, columns: { start: 1, count: 1 } }] });
    undo.clearApplied('part', 3);
    undo.record(cleared([[0, 2, 'b'], [9, 2, 'c']]), { ids: ['whole'], blocks: [column(2, 10)] });
    undo.clearApplied('whole', 4);
    undo.sorted(null, undefined, 10);
    // The edit before them goes (its cells' rows are not known); both clears stay.
    expect(undo.undo()?.clearUndo).toEqual({ versions: [4], blocks: [column(2, 10)] });
    undo.settled();
    expect(undo.undo()?.clearUndo).toEqual({ versions: [3], blocks: null });
    undo.settled();
    expect(undo.canUndo()).toBe(false);
    // A sync (the rows read again): the undone whole column can be cleared again, the part of rows cannot (its rows are not together any more).
    undo.clearButSorts(10);
    expect(undo.redo()?.clear).toEqual([column(2, 10)]);
    undo.clearsSent(['again']);
    undo.settled();
    expect(undo.canRedo()).toBe(false);
    // Undone before its ack: not by cells (their places are not known): nothing to undo.
    expect(undo.undo()).toBeNull();
    expect(undo.canUndo()).toBe(false);
  });

  test("a refused undo of a clear whose places are unknown here: the step goes (it cannot be undone by cells)", () => {
    const undo = new UndoStack();
    undo.record(cleared([[0, 1, 'a']]), { ids: ['c1'], blocks: [column(1, 5)] });
    undo.clearApplied('c1', 2);
    undo.sorted(null, undefined, 5);
    expect(undo.undo()?.clearUndo?.versions).toEqual([2]);
    undo.settled();
    undo.clearUndoRefused(2);
    expect(undo.canUndo()).toBe(false);
    expect(undo.canRedo()).toBe(false);
  });
});

describe("a remove sent on a windowed sheet (its cells not read): undone by the server, an insert naming the remove's version", () => {
  /** An undo or redo whose own op goes out as `id` (the sheet moves the steps through own()) before it is settled. */
  const sent = (undo: UndoStack, redo: boolean, id: string) => {
    const inverse = redo ? undo.redo() : undo.undo();
    if (inverse?.structure) undo.own(inverse.structure, { id });
    undo.settled();
    return inverse;
  };

  test('undoable whatever its size, once its version came: the insert where its columns are now, no cells; redo removes again and is undone by the new version', () => {
    const undo = new UndoStack();
    undo.record([{ row: 999_999, col: 3, before: null, after: 'typed' }]);
    // A million-row column taken: no cells held, nothing read.
    undo.own({ type: 'columns_remove', index: 3, count: 1 }, { id: 'rm1' });
    // Its ack on its way: undone now there would be nothing to send (the grid waits for it).
    expect(undo.versionsPending()).toBe(true);
    undo.removeApplied('rm1', 7);
    expect(undo.versionsPending()).toBe(false);
    // Someone inserts two columns at the left meanwhile: its place follows.
    undo.moved({ type: 'columns_insert', index: 0, count: 2 });
    expect(sent(undo, false, 'ins1')).toEqual({ structure: { type: 'columns_insert', index: 5, count: 1 }, cells: [], structureUndo: 7 });
    // The typed cell it took is back in its step (the server put it back with the column): undone next, where it is now.
    expect(undo.canUndo()).toBe(true);
    expect(sent(undo, true, 'rm2')).toEqual({ structure: { type: 'columns_remove', index: 5, count: 1 }, cells: [] });
    // Undone before the new remove's ack: it waits; then by the new version.
    expect(undo.versionsPending()).toBe(true);
    undo.removeApplied('rm2', 12);
    expect(sent(undo, false, 'ins2')).toEqual({ structure: { type: 'columns_insert', index: 5, count: 1 }, cells: [], structureUndo: 12 });
    expect(undone(undo)).toEqual([{ row: 999_999, col: 5, value: null }]);
  });

  test("a filter's rows removed run by run (one action): one undo inserts each run again, each naming its own remove", () => {
    const undo = new UndoStack();
    undo.together(() => {
      undo.own({ type: 'rows_remove', index: 40, count: 2 }, { id: 'a' });
      undo.own({ type: 'rows_remove', index: 10, count: 1 }, { id: 'b' });
    });
    undo.removeApplied('a', 3);
    expect(undo.versionsPending()).toBe(true);
    undo.removeApplied('b', 4);
    expect(undo.versionsPending()).toBe(false);
    expect(sent(undo, false, 'x')).toEqual({ structure: { type: 'rows_insert', index: 10, count: 1 }, cells: [], structureUndo: 4, more: true });
    expect(sent(undo, false, 'y')).toEqual({ structure: { type: 'rows_insert', index: 40, count: 2 }, cells: [], structureUndo: 3 });
    expect(undo.canUndo()).toBe(false);
    expect(sent(undo, true, 'a2')).toEqual({ structure: { type: 'rows_remove', index: 40, count: 2 }, cells: [], more: true });
    expect(sent(undo, true, 'b2')).toEqual({ structure: { type: 'rows_remove', index: 10, count: 1 }, cells: [] });
    undo.removeApplied('a2', 8);
    undo.removeApplied('b2', 9);
    expect(undo.undo()?.structureUndo).toBe(9);
  });

  test('an undo the server refuses (the sheet replaced since, its history no longer kept): the step goes, neither undone again nor redone; the steps before it stay', () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'typed' }]);
    undo.own({ type: 'columns_remove', index: 2, count: 1 }, { id: 'rm' });
    undo.removeApplied('rm', 5);
    expect(sent(undo, false, 'ins')?.structureUndo).toBe(5);
    expect(undo.canRedo()).toBe(true);
    undo.removeUndoRefused(5);
    expect(undo.canRedo()).toBe(false);
    expect(undone(undo)).toEqual([{ row: 0, col: 0, value: null }]);
  });

  test('a refused remove (no version ever comes) is passed over by undo', () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'typed' }]);
    undo.own({ type: 'rows_remove', index: 2, count: 1 }, { id: 'rm' });
    expect(undone(undo)).toEqual([{ row: 0, col: 0, value: null }]);
  });

  test("a sort whose order is not known here (a million rows) or a sync: a column remove stays (no sort moves a column; the server moves its cells with their rows), a row remove goes", () => {
    const undo = new UndoStack();
    undo.own({ type: 'rows_remove', index: 4, count: 1 }, { id: 'rows' });
    undo.removeApplied('rows', 3);
    undo.record([{ row: 7, col: 2, before: null, after: 'typed' }]);
    undo.own({ type: 'columns_remove', index: 2, count: 1 }, { id: 'cols' });
    undo.removeApplied('cols', 5);
    undo.sorted(null, undefined, 100);
    expect(undo.undo()).toEqual({ structure: { type: 'columns_insert', index: 2, count: 1 }, cells: [], structureUndo: 5 });
    undo.settled();
    // The edit it took (its row not known now) and the row remove before it went.
    expect(undo.canUndo()).toBe(false);
    undo.clearButSorts(100);
    expect(undo.redo()).toEqual({ structure: { type: 'columns_remove', index: 2, count: 1 }, cells: [] });
  });

  test('switched to whole (keepUndo: the grid writes cells itself): such a remove cannot be undone there, nor the steps before it; one undone cannot be redone', () => {
    const undo = new UndoStack();
    undo.record([{ row: 0, col: 0, before: null, after: 'first' }]);
    undo.own({ type: 'columns_remove', index: 2, count: 1 }, { id: 'rm' });
    undo.removeApplied('rm', 5);
    undo.record([{ row: 1, col: 0, before: null, after: 'after' }]);
    undo.byCells();
    expect(undone(undo)).toEqual([{ row: 1, col: 0, value: null }]);
    expect(undone(undo)).toBeNull();

    const other = new UndoStack();
    other.own({ type: 'columns_remove', index: 2, count: 1 }, { id: 'rm' });
    other.removeApplied('rm', 5);
    sent(other, false, 'ins');
    other.byCells();
    expect(other.canRedo()).toBe(false);
  });
});
