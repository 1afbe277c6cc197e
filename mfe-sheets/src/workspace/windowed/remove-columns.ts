import { WHOLE_COLUMNS_TEXTS } from '@tessera/contracts';
import { movedCell } from '../undo/undo-stack.js';
import { clearedCells } from './clear-columns.js';
import type { WindowedSheet } from './windowed-sheet.js';

/**
 * Columns `index`..`index + count - 1` removed by the user (the menu's 'remove_col') on a windowed
 * sheet, undoably: the grid holds a few windows of rows, so the cells the remove takes are read
 * first from every row of the sheet (sheet.cells, as Delete reads them), handed to the sheet for
 * the remove's undo step (WindowedSheet.removing), and then the remove is sent (`send`, at the
 * columns' index then), at once after the read: the cells read are those the remove takes. Others'
 * column inserts and removes arriving meanwhile move the columns (the remove follows them; one that
 * cuts into them, or a sync, leaves nothing removed); others' cell changes reach the cells read
 * (sheet.cells). With own ops not yet on the server (the rows held are of before them) the remove
 * is sent at once, not undoable, as before. Rejects with the message to show; nothing sent then,
 * nor when `stopped` (read-only by then).
 */
export async function removeColumns(sheet: WindowedSheet, index: number, count: number, send: (index: number) => void, stopped: () => boolean): Promise<void> {
  if (sheet.ownMovesPending) return send(index);
  let lost = false;
  const stop = sheet.subscribe((reset, move) => {
    if (!reset) return;
    // A sync, or an own op acknowledged: where the columns are now is not known.
    if (!move) lost = true;
    else if (move.type === 'columns_insert' || move.type === 'columns_remove') {
      const first = movedCell({ row: 0, col: index }, move);
      const last = movedCell({ row: 0, col: index + count - 1 }, move);
      if (!first || !last || last.col - first.col !== count - 1) lost = true;
      else index = first.col;
    }
  });
  let rows;
  try {
    rows = await sheet.cells();
  } catch {
    throw new Error(WHOLE_COLUMNS_TEXTS.unreadable);
  } finally {
    stop();
  }
  if (stopped()) return;
  if (lost || sheet.ownMovesPending) throw new Error(WHOLE_COLUMNS_TEXTS.movedMeanwhile);
  sheet.removing({ type: 'columns_remove', index, count }, clearedCells(rows, [{ left: index, right: index + count - 1 }]));
  send(index);
}
