import { VERSION_PREVIEW_TEXTS } from '@tessera/contracts';

const EDIT_MENU = ['row_above', 'row_below', '---------', 'col_left', 'col_right', '---------', 'remove_row', 'remove_col', '---------', 'undo', 'redo', '---------', 'copy', 'cut'];

/** The context menu's items: the editing ones (or only Copy when read-only), then 'Cell history' when asked for. */
export function contextMenu(readOnly: boolean, onCellHistory: ((row: number, col: number) => void) | null) {
  const keys = readOnly ? ['copy'] : EDIT_MENU;
  if (!onCellHistory) return keys;
  const items: Record<string, object> = {};
  // Separators need keys of their own in the object form.
  keys.forEach((key, i) => (items[key === '---------' ? `separator_${i}` : key] = key === '---------' ? { name: '---------' } : {}));
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
