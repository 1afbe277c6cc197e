import { WINDOWED_READ_TEXTS, isRowStructure } from '@tessera/contracts';
import { movedCell, UNDO_STEP_CELLS_MAX } from '../undo/undo-stack.js';
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
 * is sent at once, not undoable, as before; so it is when the rows held say its cells pass
 * UNDO_STEP_CELLS_MAX (pastUndoBound). Rejects with the message to show; nothing sent then,
 * nor when `stopped` (read-only by then).
 */
export async function removeColumns(sheet: WindowedSheet, index: number, count: number, send: (index: number) => void, stopped: () => boolean): Promise<void> {
  if (sheet.ownMovesPending || pastUndoBound(sheet, index, count)) return send(index);
  let lost = false;
  const stop = sheet.subscribe((reset, move) => {
    if (!reset) return;
    // A sync, or an own op acknowledged: where the columns are now is not known.
    if (!move) lost = true;
    else if (!isRowStructure(move.type)) {
      const first = movedCell({ row: 0, col: index }, move);
      const last = movedCell({ row: 0, col: index + count - 1 }, move);
      if (!first || !last || last.col - first.col !== count - 1) lost = true;
      else index = first.col;
    }
  });
  let rows;
  try {
    // Those columns only, where they are at each attempt (others' column ops move them).
    rows = await sheet.cells(undefined, () => Array.from({ length: count }, (_, k) => index + k));
  } catch {
    throw new Error(WINDOWED_READ_TEXTS.unreadable);
  } finally {
    stop();
  }
  if (stopped()) return;
  if (lost || sheet.ownMovesPending) throw new Error(WINDOWED_READ_TEXTS.movedMeanwhile);
  sheet.removing({ type: 'columns_remove', index, count }, clearedCells(rows, Array.from({ length: count }, (_, k) => index + k)));
  send(index);
}

/**
 * Whether the cells a remove of columns `index`..`index + count - 1` takes would pass UNDO_STEP_CELLS_MAX
 * (the remove could not be undone), as the rows held tell: their share of those cells holding a
 * value, over every row of the sheet. Then the remove is sent at once rather than after every row
 * is read for nothing (a full column of a million rows: half a minute in Chromium).
 */
export function pastUndoBound(sheet: WindowedSheet, index: number, count: number): boolean {
  if (sheet.rowCount * count <= UNDO_STEP_CELLS_MAX) return false;
  let rows = 0;
  let values = 0;
  const last = sheet.windows.indexOf(Math.max(0, sheet.rowCount - 1));
  for (let i = 0; i <= last; i++) {
    for (const row of sheet.windows.peek(i) ?? []) {
      rows++;
      for (let col = index; col < index + count; col++) {
        const value = row[col];
        if (value !== null && value !== undefined && value !== '') values++;
      }
    }
  }
  return rows > 0 && (values / rows) * sheet.rowCount > UNDO_STEP_CELLS_MAX;
}
