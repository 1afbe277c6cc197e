import { VERSION_PREVIEW_TEXTS } from '@tessera/contracts';
import type { StructureChange } from './SheetGrid.js';

const EDIT_MENU = ['row_above', 'row_below', '---------', 'col_left', 'col_right', '---------', 'remove_row', 'remove_col', '---------', 'undo', 'redo', '---------', 'copy', 'cut'];

/** A selected block of the grid (Handsontable's coordinates). */
interface SelectedRange {
  from: { row: number | null; col: number | null };
  to: { row: number | null; col: number | null };
}
interface MenuGrid {
  getSelectedRangeActive(): SelectedRange | undefined;
}

/**
 * Rows or columns inserted or removed by the menu of a grid that holds part of the sheet (the
 * windowed grid, issue 23): the same entries and texts as Handsontable's own (their names are kept,
 * only what they do is replaced), which tell `onStructure` the change in the grid's terms (the
 * caller makes the rows absolute) instead of changing the rows held.
 */
function structureItems(onStructure: (change: StructureChange) => void): Record<string, object> {
  const selected = (grid: MenuGrid) => {
    const range = grid.getSelectedRangeActive();
    if (!range || range.from.row === null || range.to.row === null || range.from.col === null || range.to.col === null) return null;
    return {
      top: Math.max(0, Math.min(range.from.row, range.to.row)),
      bottom: Math.max(range.from.row, range.to.row),
      left: Math.max(0, Math.min(range.from.col, range.to.col)),
      right: Math.max(range.from.col, range.to.col),
    };
  };
  const item = (change: (s: NonNullable<ReturnType<typeof selected>>) => StructureChange) => ({
    callback(this: MenuGrid) {
      const s = selected(this);
      if (s) onStructure(change(s));
    },
    // Handsontable's own test is the rows held against maxRows: the grid holds a slab of the sheet.
    disabled(this: MenuGrid) {
      const s = selected(this);
      return !s || s.bottom < 0 || s.right < 0;
    },
  });
  return {
    row_above: item((s) => ({ axis: 'row', index: s.top, amount: 1 })),
    row_below: item((s) => ({ axis: 'row', index: s.bottom + 1, amount: 1 })),
    col_left: item((s) => ({ axis: 'col', index: s.left, amount: 1 })),
    col_right: item((s) => ({ axis: 'col', index: s.right + 1, amount: 1 })),
    remove_row: item((s) => ({ axis: 'row', index: s.top, amount: -(s.bottom - s.top + 1) })),
    remove_col: item((s) => ({ axis: 'col', index: s.left, amount: -(s.right - s.left + 1) })),
  };
}

/** Undo and redo kept by the grids themselves instead of Handsontable's UndoRedo (undo/undo-stack.ts). */
export interface MenuHistory {
  undo(): void;
  redo(): void;
  canUndo(): boolean;
  canRedo(): boolean;
}

/** The Undo and Redo entries with Handsontable's texts, doing `history`'s (Handsontable's hide them without its UndoRedo). */
function historyItems(history: MenuHistory): Record<string, object> {
  return {
    undo: { callback: () => history.undo(), disabled: () => !history.canUndo(), hidden: () => false },
    redo: { callback: () => history.redo(), disabled: () => !history.canRedo(), hidden: () => false },
  };
}

/**
 * The context menu's items: the editing ones (or only Copy when read-only), then 'Cell history'
 * when asked for. `onStructure`: rows and columns are inserted and removed by it (structureItems);
 * `history`: Undo and Redo do its (historyItems).
 */
export function contextMenu(readOnly: boolean, onCellHistory: ((row: number, col: number) => void) | null, onStructure?: (change: StructureChange) => void, history?: MenuHistory) {
  const keys = readOnly ? ['copy'] : EDIT_MENU;
  if (!onCellHistory && ((!onStructure && !history) || readOnly)) return keys;
  const own = readOnly ? {} : { ...(onStructure ? structureItems(onStructure) : {}), ...(history ? historyItems(history) : {}) };
  const items: Record<string, object> = {};
  // Separators need keys of their own in the object form.
  keys.forEach((key, i) => (items[key === '---------' ? `separator_${i}` : key] = key === '---------' ? { name: '---------' } : (own[key] ?? {})));
  if (!onCellHistory) return { items };
  items.separator_history = { name: '---------' };
  items.cell_history = {
    name: VERSION_PREVIEW_TEXTS.cellHistory,
    // Called with the grid as `this`: right-clicking a cell selects it first, so the selection names the cell.
    callback(this: { getSelectedLast(): number[] | undefined }) {
      const [row, col] = this.getSelectedLast() ?? [];
      if (row !== undefined && col !== undefined && row >= 0 && col >= 0) onCellHistory(row, col);
    },
  };
  return { items };
}
