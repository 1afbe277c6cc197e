import { isRowStructure, type GridData } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { alterGrid } from '../grid/grid-alter.js';
import type { StructureMove } from '../windowed/moved-rows.js';
import { cellsBlock, REDO_SOURCE, removedCells, type SortRowsAgain, UNDO_SOURCE, UndoStack, type UndoStep } from './undo-stack.js';

/**
 * The undo of a sheet loaded whole (SheetGrid): the same stack as the windowed grid's, so its
 * steps follow others' rows and columns (Handsontable's kept the indexes they were made at and
 * wrote an undo into someone else's cells once rows moved above it).
 */

const stacks = new WeakMap<GridData, UndoStack>();

/**
 * The user's steps on a sheet loaded whole, keyed by its rows array (one per load, as
 * Handsontable's stack was cleared on a load): others' ops move them while the grid is not shown too.
 */
export function gridUndo(data: GridData): UndoStack {
  let stack = stacks.get(data);
  if (!stack) {
    stack = new UndoStack();
    stacks.set(data, stack);
  }
  return stack;
}

/**
 * The user's steps made on the sheet before it was loaded whole into `data` (a windowed sheet switched
 * to whole when a formula came, issue 23): its steps are at absolute rows, as this grid's are.
 */
export function keepUndo(data: GridData, stack: UndoStack): void {
  // This grid writes the cells back itself (its own clears are cells, not cells_clear).
  stack.byCells();
  stacks.set(data, stack);
}

/** The cells holding a value that an own remove takes, read from the rows before it (the whole grid holds every cell). */
export function removedGridCells(data: GridData, move: StructureMove): UndoStep | null {
  return removedCells(move, data.length, (row) => data[row] ?? []);
}

/**
 * Undo (or redo) on the whole grid: rows or columns inserted or removed, then the cells written,
 * through the grid with Handsontable's own sources (sent like any edit, not steps themselves); the
 * cells written are selected and scrolled to, as Handsontable's undo did.
 */
export function undoInGrid(hot: Handsontable, stack: UndoStack, redo: boolean, onSort?: SortRowsAgain): void {
  // Steps one action made (UndoStack.together) go back, or come again, together.
  for (let more = true; more; ) more = undoStepInGrid(hot, stack, redo, onSort);
}

/** One step of undoInGrid; whether the next step goes with it. */
function undoStepInGrid(hot: Handsontable, stack: UndoStack, redo: boolean, onSort?: SortRowsAgain): boolean {
  const inverse = redo ? stack.redo() : stack.undo();
  if (!inverse) return false;
  const source = redo ? REDO_SOURCE : UNDO_SOURCE;
  try {
    const { structure, cells } = inverse;
    // A sort: the server puts the rows back (undo) or sorts them again (redo); the grid shows them once it has.
    if (inverse.sort) {
      onSort?.(inverse.sort.column, inverse.sort.direction, { undo: inverse.sort.undo });
      return false;
    }
    if (structure) alterGrid(hot, structure.type, structure.index, structure.count, source);
    if (cells.length > 0) {
      hot.setDataAtCell(
        cells.map(({ row, col, value }) => [row, col, value]),
        source,
      );
      const { top, bottom, left, right } = cellsBlock(cells);
      hot.selectCell(top, left, bottom, right, true);
    } else if (structure) {
      const rows = isRowStructure(structure.type);
      const at = Math.max(0, Math.min(structure.index, (rows ? hot.countRows() : hot.countCols()) - 1));
      hot.scrollViewportTo(rows ? { row: at } : { col: at });
    }
  } finally {
    stack.settled();
  }
  return inverse.more === true;
}
