import { FILTER_TEXTS, FREEZE_LIMITS, FREEZE_TEXTS, SORT_TEXTS, type SortDirection, VERSION_PREVIEW_TEXTS } from '@tessera/contracts';
import type { FrozenPanes } from '../freeze/sheet-freeze.js';
import { escapeHtml } from './grid-shape.js';
import type { StructureChange } from './SheetGrid.js';

const EDIT_MENU = ['row_above', 'row_below', '---------', 'col_left', 'col_right', '---------', 'remove_row', 'remove_col', '---------', 'undo', 'redo', '---------', 'copy', 'cut'];

/** A selected block of the grid (Handsontable's coordinates). */
interface SelectedRange {
  from: { row: number | null; col: number | null };
  to: { row: number | null; col: number | null };
}
interface MenuGrid {
  getSelectedRangeActive(): SelectedRange | undefined;
  selection: { isSelectedByRowHeader(): boolean; isSelectedByColumnHeader(): boolean; isSelectedByCorner?(): boolean };
}
type InsertAction = 'insert_row_above' | 'insert_row_below' | 'insert_col_start' | 'insert_col_end';
/** The whole grid, which alters its own rows (Handsontable's alter). */
interface AlteringGrid extends MenuGrid {
  alter(action: InsertAction, index: number, amount: number, source: string): void;
}

/** The selected block, clamped to the cells (a header click selects with -1), or null with none. */
function selectedBlock(grid: MenuGrid) {
  const range = grid.getSelectedRangeActive();
  if (!range || range.from.row === null || range.to.row === null || range.from.col === null || range.to.col === null) return null;
  return {
    top: Math.max(0, Math.min(range.from.row, range.to.row)),
    bottom: Math.max(range.from.row, range.to.row),
    left: Math.max(0, Math.min(range.from.col, range.to.col)),
    right: Math.max(range.from.col, range.to.col),
  };
}
type Block = NonNullable<ReturnType<typeof selectedBlock>>;

/**
 * The insert entries insert as many rows (columns) as are selected, as other spreadsheets do (20,000
 * rows selected: 'Insert 20,000 rows above'); Handsontable's own insert one whatever the selection.
 * `at`: where the new ones go (the grid's index); `from`: the row or column Handsontable's `action` names.
 */
const INSERTS = {
  row_above: { axis: 'row', at: (s: Block) => s.top, from: (s: Block) => s.top, action: 'insert_row_above', one: 'Insert row above', many: (n: string) => `Insert ${n} rows above` },
  row_below: { axis: 'row', at: (s: Block) => s.bottom + 1, from: (s: Block) => s.bottom, action: 'insert_row_below', one: 'Insert row below', many: (n: string) => `Insert ${n} rows below` },
  col_left: { axis: 'col', at: (s: Block) => s.left, from: (s: Block) => s.left, action: 'insert_col_start', one: 'Insert column left', many: (n: string) => `Insert ${n} columns left` },
  col_right: { axis: 'col', at: (s: Block) => s.right + 1, from: (s: Block) => s.right, action: 'insert_col_end', one: 'Insert column right', many: (n: string) => `Insert ${n} columns right` },
} as const;
type InsertKey = keyof typeof INSERTS;
const INSERT_KEYS = Object.keys(INSERTS) as InsertKey[];
const insertCount = (key: InsertKey, s: Block) => (INSERTS[key].axis === 'row' ? s.bottom - s.top + 1 : s.right - s.left + 1);

/** The entry's text for the grid's selection (Handsontable's own text for one). */
function insertName(key: InsertKey, grid: MenuGrid): string {
  const s = selectedBlock(grid);
  const count = s ? insertCount(key, s) : 1;
  return count > 1 ? INSERTS[key].many(count.toLocaleString('en-US')) : INSERTS[key].one;
}

/** The whole grid's insert entries: Handsontable's (when they are disabled or hidden stays its), for the selection's count. */
function wholeGridInserts(): Record<string, object> {
  const items: Record<string, object> = {};
  for (const key of INSERT_KEYS) {
    items[key] = {
      name(this: MenuGrid) {
        return insertName(key, this);
      },
      callback(this: AlteringGrid) {
        const s = selectedBlock(this);
        if (s) this.alter(INSERTS[key].action, INSERTS[key].from(s), insertCount(key, s), `ContextMenu.${key}`);
      },
    };
  }
  return items;
}

/**
 * Rows or columns inserted or removed by the menu of a grid that holds part of the sheet (the
 * windowed grid, issue 23): the same entries and texts as the whole grid's, which tell `onStructure`
 * the change in the grid's terms (the caller makes the rows absolute) instead of changing the rows held.
 */
function structureItems(onStructure: (change: StructureChange) => void): Record<string, object> {
  const item = (change: (s: Block) => StructureChange) => ({
    callback(this: MenuGrid) {
      const s = selectedBlock(this);
      if (s) onStructure(change(s));
    },
    // Handsontable's own test is the rows held against maxRows: the grid holds a slab of the sheet.
    disabled(this: MenuGrid) {
      const s = selectedBlock(this);
      return !s || s.bottom < 0 || s.right < 0;
    },
  });
  const removeRows = item((s) => ({ axis: 'row', index: s.top, amount: -(s.bottom - s.top + 1) }));
  const removeColumns = item((s) => ({ axis: 'col', index: s.left, amount: -(s.right - s.left + 1) }));
  const items: Record<string, object> = {
    // As Handsontable's: a whole column selected removes no rows, a whole row no columns. Here also
    // all selected (the corner, Ctrl+A) removes no rows: the grid's rows are a slab of the sheet, and
    // the rows it holds are not what the user selected.
    remove_row: {
      ...removeRows,
      disabled(this: MenuGrid) {
        return this.selection.isSelectedByColumnHeader() || this.selection.isSelectedByCorner?.() === true || removeRows.disabled.call(this);
      },
    },
    remove_col: {
      ...removeColumns,
      disabled(this: MenuGrid) {
        return (this.selection.isSelectedByRowHeader() && this.selection.isSelectedByCorner?.() !== true) || removeColumns.disabled.call(this);
      },
    },
  };
  for (const key of INSERT_KEYS) {
    const entry = item((s) => ({ axis: INSERTS[key].axis, index: INSERTS[key].at(s), amount: insertCount(key, s) }));
    items[key] = {
      ...entry,
      name(this: MenuGrid) {
        return insertName(key, this);
      },
      // As Handsontable's: whole rows selected insert no columns (every column is selected), whole columns no rows.
      disabled(this: MenuGrid) {
        const across = INSERTS[key].axis === 'col' ? this.selection.isSelectedByRowHeader() : this.selection.isSelectedByColumnHeader();
        return across || entry.disabled.call(this);
      },
    };
  }
  return items;
}

/** Rows sorted by a column (a live rows_sort): the column is the selection's first (right-clicking a header selects its column). */
export type SortRows = (column: number, direction: SortDirection) => void;

/** 'Sort sheet A → Z' and 'Sort sheet Z → A', by the selected column. */
function sortItems(onSort: SortRows): Record<string, object> {
  const item = (name: string, direction: SortDirection) => ({
    name,
    callback(this: MenuGrid) {
      const s = selectedBlock(this);
      if (s) onSort(s.left, direction);
    },
    disabled(this: MenuGrid) {
      return selectedBlock(this) === null;
    },
  });
  return { sort_asc: item(SORT_TEXTS.ascending, 'asc'), sort_desc: item(SORT_TEXTS.descending, 'desc') };
}

/**
 * 'Filter by this column…' (the user's own row filter, filter/): `open` opens its dialog for the
 * selection's first column; `together` makes one undo step of the steps an action makes.
 */
export type MenuFilter = { open(column: number): void; together?(run: () => void): void };

/** A whole grid that may hide rows (the row filter draws with HiddenRows). */
interface FilteringGrid {
  getSelectedRange(): { from: { row: number | null }; to: { row: number | null } }[] | undefined;
  getPlugin(name: 'hiddenRows'): { enabled: boolean; isHidden(row: number): boolean };
  alter(action: 'remove_row', groups: [number, number][], amount: number | undefined, source: string): void;
}

/**
 * 'Remove rows' over a selection that spans rows the filter hides removes only the rows shown, as
 * Google Sheets and Excel delete only the visible rows of a filtered selection (what one cannot see
 * one does not mean to delete). The rows shown go in groups of adjacent rows: Handsontable removes
 * each in turn, each a rows_remove of its own; `together` makes their undo steps one.
 */
function shownRowsRemove(together: (run: () => void) => void = (run) => run()): Record<string, object> {
  return {
    remove_row: {
      callback(this: FilteringGrid) {
        const plugin = this.getPlugin('hiddenRows');
        const rows = new Set<number>();
        for (const range of this.getSelectedRange() ?? []) {
          if (range.from.row === null || range.to.row === null) continue;
          const top = Math.max(0, Math.min(range.from.row, range.to.row));
          const bottom = Math.max(range.from.row, range.to.row);
          for (let r = top; r <= bottom; r++) if (!plugin.enabled || !plugin.isHidden(r)) rows.add(r);
        }
        const groups: [number, number][] = [];
        for (const row of [...rows].sort((a, b) => a - b)) {
          const last = groups.at(-1);
          if (last && last[0] + last[1] === row) last[1]++;
          else groups.push([row, 1]);
        }
        if (groups.length > 0) together(() => this.alter('remove_row', groups, undefined, 'ContextMenu.removeRow'));
      },
    },
  };
}

function filterItems(filter: MenuFilter, wholeGrid: boolean): Record<string, object> {
  return {
    ...(wholeGrid ? shownRowsRemove(filter.together) : {}),
    filter_column: {
      name: FILTER_TEXTS.menu,
      callback(this: MenuGrid) {
        const s = selectedBlock(this);
        if (s) filter.open(s.left);
      },
      disabled(this: MenuGrid) {
        return selectedBlock(this) === null;
      },
    },
  };
}

/**
 * 'Freeze up to column X', 'Freeze up to row N' and 'Unfreeze': the user's own frozen rows and columns
 * (freeze/), which the grid draws with fixedColumnsStart / fixedRowsTop (no index moves).
 * `rowsUnavailable`: rows cannot be frozen on this grid (a windowed sheet's slab): the row entry is
 * shown disabled with this text, and only the columns count as frozen here.
 */
export interface MenuFreeze {
  frozen(): FrozenPanes;
  set(next: Partial<FrozenPanes>): void;
  /** Column `col`'s header label, as the grid shows it. */
  label(col: number): string;
  rowsUnavailable?: string;
}

/**
 * One 'Freeze up to …' entry: up to the selection's last column (`cols`) or row (`rows`). A whole
 * row selected has no column entry, a whole column no row entry.
 */
function freezeItem(freeze: MenuFreeze, axis: 'cols' | 'rows'): object {
  const count = (s: Block) => (axis === 'cols' ? s.right : s.bottom) + 1;
  const limit = axis === 'cols' ? FREEZE_LIMITS.columns : FREEZE_LIMITS.rows;
  const name = (s: Block) => {
    if (axis === 'rows') return count(s) > limit ? FREEZE_TEXTS.rowsTooMany(count(s)) : FREEZE_TEXTS.rows(count(s));
    // Handsontable writes entry names as HTML: the header label is user text.
    const label = freeze.label(s.right);
    return escapeHtml(count(s) > limit ? FREEZE_TEXTS.columnsTooMany(label) : FREEZE_TEXTS.columns(label));
  };
  return {
    name(this: MenuGrid) {
      const s = selectedBlock(this);
      return s ? name(s) : '';
    },
    callback(this: MenuGrid) {
      const s = selectedBlock(this);
      if (s) freeze.set({ [axis]: count(s) });
    },
    disabled(this: MenuGrid) {
      const s = selectedBlock(this);
      return !s || count(s) > limit;
    },
    hidden(this: MenuGrid) {
      return selectedBlock(this) === null || (axis === 'cols' ? this.selection.isSelectedByRowHeader() : this.selection.isSelectedByColumnHeader());
    },
  };
}

/** The entries of MenuFreeze. */
function freezeItems(freeze: MenuFreeze): Record<string, object> {
  return {
    freeze_columns: freezeItem(freeze, 'cols'),
    freeze_rows: freeze.rowsUnavailable ? { name: freeze.rowsUnavailable, disabled: () => true } : freezeItem(freeze, 'rows'),
    unfreeze: {
      name: FREEZE_TEXTS.unfreeze,
      callback: () => freeze.set({ rows: 0, cols: 0 }),
      disabled: () => {
        const { rows: r, cols: c } = freeze.frozen();
        return c === 0 && (r === 0 || freeze.rowsUnavailable !== undefined);
      },
    },
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
 * when asked for. `onStructure`: rows and columns are inserted and removed by it (structureItems), else
 * by the grid, as many inserted as are selected (wholeGridInserts);
 * `history`: Undo and Redo do its (historyItems).
 */
export function contextMenu(
  readOnly: boolean,
  onCellHistory: ((row: number, col: number) => void) | null,
  onStructure?: (change: StructureChange) => void,
  history?: MenuHistory,
  onSort?: SortRows,
  filter?: MenuFilter,
  freeze?: MenuFreeze,
) {
  // Sorting is an edit: a viewer's menu has none (the server refuses a viewer's sort anyway). A filter
  // or a freeze is no edit (only this user's view changes): a viewer filters and freezes too.
  const editKeys = readOnly ? ['copy'] : onSort ? [...EDIT_MENU, '---------', 'sort_asc', 'sort_desc'] : EDIT_MENU;
  const filterKeys = filter ? [...editKeys, '---------', 'filter_column'] : editKeys;
  const keys = freeze ? [...filterKeys, '---------', 'freeze_columns', 'freeze_rows', 'unfreeze'] : filterKeys;
  if (!onCellHistory && readOnly && !filter && !freeze) return keys;
  const own = {
    ...(readOnly ? {} : { ...(onStructure ? structureItems(onStructure) : wholeGridInserts()), ...(history ? historyItems(history) : {}), ...(onSort ? sortItems(onSort) : {}) }),
    ...(filter ? filterItems(filter, !onStructure && !readOnly) : {}),
    ...(freeze ? freezeItems(freeze) : {}),
  };
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
