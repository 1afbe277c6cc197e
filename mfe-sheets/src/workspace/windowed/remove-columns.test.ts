import { WHOLE_COLUMNS_TEXTS } from '@tessera/contracts';
import type { StructureMove } from './moved-rows.js';
import { removeColumns } from './remove-columns.js';
import type { WindowedSheet } from './windowed-sheet.js';

/** A sheet whose rows are read as `rows`, someone's `move` (if any) arriving while they are. */
function sheetWith(rows: unknown[][], move?: StructureMove | null) {
  const listeners = new Set<(reset: boolean, move?: StructureMove) => void>();
  const removing = jest.fn();
  const sheet = {
    ownMovesPending: false,
    subscribe: (listener: (reset: boolean, move?: StructureMove) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    cells: async () => {
      if (move !== undefined) for (const listener of listeners) listener(true, move ?? undefined);
      return rows;
    },
    removing,
  } as unknown as WindowedSheet;
  return { sheet, removing };
}

test("a column remove is sent once its cells are read, with them for its undo; another user's column inserted left meanwhile: it follows", async () => {
  const send = jest.fn();
  const { sheet, removing } = sheetWith([[null, 'a', 1], [null, 'b', 2], [null, 'c', null]], { type: 'columns_insert', index: 0, count: 1 });
  await removeColumns(sheet, 1, 1, send, () => false);
  expect(send).toHaveBeenCalledWith(2);
  expect(removing).toHaveBeenCalledWith({ type: 'columns_remove', index: 2, count: 1 }, [
    { row: 0, col: 2, before: 1, after: null },
    { row: 1, col: 2, before: 2, after: null },
  ]);
});

test('columns cut into by someone meanwhile, or a sync: nothing removed, the user is told', async () => {
  for (const move of [{ type: 'columns_remove', index: 1, count: 1 } as const, { type: 'columns_insert', index: 2, count: 1 } as const, null]) {
    const send = jest.fn();
    const { sheet } = sheetWith([['a', 1, 2]], move);
    await expect(removeColumns(sheet, 1, 2, send, () => false)).rejects.toThrow(WHOLE_COLUMNS_TEXTS.movedMeanwhile);
    expect(send).not.toHaveBeenCalled();
  }
});
