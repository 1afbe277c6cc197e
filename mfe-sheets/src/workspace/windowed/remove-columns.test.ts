import { WINDOWED_READ_TEXTS } from '@tessera/contracts';
import type { StructureMove } from './moved-rows.js';
import { type ClearedCells, UNDO_STEP_CELLS_MAX, unpackCells } from '../undo/undo-stack.js';
import { removeColumns } from './remove-columns.js';
import type { WindowedSheet } from './windowed-sheet.js';

/** A sheet whose rows are read as `rows`, someone's `move` (if any) arriving while they are. */
function sheetWith(rows: unknown[][], move?: StructureMove | null, held: { rowCount: number; window: unknown[][] } | null = null) {
  const listeners = new Set<(reset: boolean, move?: StructureMove) => void>();
  const removing = jest.fn();
  // As sheet.cells: read again after a move, the columns asked for where they are then.
  const cells = jest.fn(async (_range: unknown, columns: () => readonly number[]) => {
    if (move !== undefined) for (const listener of listeners) listener(true, move ?? undefined);
    return rows.map((row) => columns().map((col) => row[col] ?? null));
  });
  const sheet = {
    ownMovesPending: false,
    rowCount: held?.rowCount ?? rows.length,
    windows: { indexOf: (row: number) => Math.floor(row / 5_000), peek: (index: number) => (index === 0 ? (held?.window ?? rows) : undefined) },
    subscribe: (listener: (reset: boolean, move?: StructureMove) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    cells,
    removing,
  } as unknown as WindowedSheet;
  return { sheet, removing, cells };
}

test("a column remove is sent once its cells are read, with them for its undo; another user's column inserted left meanwhile: it follows", async () => {
  const send = jest.fn();
  const { sheet, removing } = sheetWith([[null, 'a', 1], [null, 'b', 2], [null, 'c', null]], { type: 'columns_insert', index: 0, count: 1 });
  await removeColumns(sheet, 1, 1, send, () => false);
  expect(send).toHaveBeenCalledWith(2);
  expect(removing).toHaveBeenCalledWith({ type: 'columns_remove', index: 2, count: 1 }, expect.anything());
  // Packed (a whole column of a million rows is three arrays, not a million objects).
  expect(unpackCells(removing.mock.calls[0][1] as ClearedCells)).toEqual([
    { row: 0, col: 2, before: 1, after: null },
    { row: 1, col: 2, before: 2, after: null },
  ]);
});

test('columns cut into by someone meanwhile, or a sync: nothing removed, the user is told', async () => {
  for (const move of [{ type: 'columns_remove', index: 1, count: 1 } as const, { type: 'columns_insert', index: 2, count: 1 } as const, null]) {
    const send = jest.fn();
    const { sheet } = sheetWith([['a', 1, 2]], move);
    await expect(removeColumns(sheet, 1, 2, send, () => false)).rejects.toThrow(WINDOWED_READ_TEXTS.movedMeanwhile);
    expect(send).not.toHaveBeenCalled();
  }
});

test('columns whose cells would pass UNDO_STEP_CELLS_MAX by the rows held (it could not be undone) are removed at once, without reading every row', async () => {
  const rowCount = UNDO_STEP_CELLS_MAX;
  // Every held row has both columns filled: about twice the bound over the sheet.
  const dense = sheetWith([], undefined, { rowCount, window: Array.from({ length: 100 }, (_, r) => ['a', r, r]) });
  const send = jest.fn();
  await removeColumns(dense.sheet, 1, 2, send, () => false);
  expect(send).toHaveBeenCalledWith(1);
  expect(dense.cells).not.toHaveBeenCalled();
  expect(dense.removing).not.toHaveBeenCalled();
  // One held row in a hundred has a value there: read, undoable.
  const sparse = sheetWith([['a', 1, 2]], undefined, { rowCount, window: Array.from({ length: 100 }, (_, r) => ['a', r === 0 ? 1 : null, null]) });
  await removeColumns(sparse.sheet, 1, 2, send, () => false);
  expect(sparse.cells).toHaveBeenCalled();
  expect(sparse.removing).toHaveBeenCalled();
});
