import { applyOrder, type CellChange, type CellValue, type ClearBlock, type GridData, type StructureOperationType } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { gridUndo } from '../undo/grid-undo.js';
import { movedCell } from '../undo/undo-stack.js';
import { alterGrid } from './grid-alter.js';
import { cellKey, gridLink, LIVE_SOURCE, type PresenceMark } from './grid-link.js';

/**
 * Changes made by others, applied to a loaded sheet's rows: through its grid while one shows
 * them (the grid re-renders, the formula engine follows, the user's selection stays where it
 * is), else to the rows directly. They are marked LIVE_SOURCE, so the grid neither sends
 * them back nor puts them in the user's undo stack.
 */

function mounted(data: GridData): Handsontable | null {
  const hot = gridLink(data).hot;
  return hot && !hot.isDestroyed ? hot : null;
}

/** The cell whose editor is open, if any: its typing must not be broken by someone else's value. */
function editingKey(hot: Handsontable): string | null {
  const editor = hot.getActiveEditor();
  return editor?.isOpened() && editor.row !== null && editor.col !== null ? cellKey(editor.row, editor.col) : null;
}

function setStored(data: GridData, row: number, col: number, value: CellValue): void {
  while (data.length <= row) data.push([]);
  const cells = data[row];
  while (cells.length < col) cells.push(null);
  cells[col] = value;
}

export function applyRemoteCells(data: GridData, changes: readonly CellChange[]): void {
  const hot = mounted(data);
  if (!hot) {
    for (const { row, col, value } of changes) setStored(data, row, col, value);
    return;
  }
  const link = gridLink(data);
  const editing = editingKey(hot);
  const input: [number, number, CellValue][] = [];
  for (const { row, col, value } of changes) {
    const key = cellKey(row, col);
    // Held until the editor closes: a commit of the user's text then wins (it is sent after
    // this value, so the server keeps it too); a cancel shows this value.
    if (key === editing) link.deferred.set(key, { row, col, value });
    else {
      link.deferred.delete(key);
      input.push([row, col, value]);
    }
  }
  if (input.length > 0) hot.setDataAtCell(input, LIVE_SOURCE);
}

/**
 * Someone else's cleared blocks (a cells_clear) as the changes the whole grid shows: the cells in
 * them holding a value, but those `keep` says (own edits on their way). The whole grid holds at
 * most WINDOWED_SHEET_MIN_ROWS rows, so this list is bounded by the grid it empties.
 */
export function clearedChanges(data: GridData, blocks: readonly ClearBlock[], keep: (row: number, col: number) => boolean): CellChange[] {
  const changes: CellChange[] = [];
  for (const { rows, columns } of blocks) {
    for (let row = rows.start; row < Math.min(rows.start + rows.count, data.length); row++) {
      const cells = data[row];
      for (let col = columns.start; col < Math.min(columns.start + columns.count, cells.length); col++) {
        const value = cells[col];
        if (value !== null && value !== undefined && value !== '' && !keep(row, col)) changes.push({ row, col, value: null });
      }
    }
  }
  return changes;
}

/** After a key or a selection change: values held for a closed editor are applied now. */
export function applyDeferredCells(data: GridData): void {
  const link = gridLink(data);
  const hot = mounted(data);
  if (link.deferred.size === 0 || !hot || editingKey(hot) !== null) return;
  const held = [...link.deferred.values()];
  link.deferred.clear();
  hot.setDataAtCell(
    held.map(({ row, col, value }) => [row, col, value]),
    LIVE_SOURCE,
  );
}

/** The user committed these cells: their value is the one that counts now. */
export function dropDeferredCells(data: GridData, changes: readonly { row: number; col: number }[]): void {
  const link = gridLink(data);
  for (const { row, col } of changes) link.deferred.delete(cellKey(row, col));
}

/** Handsontable's editor, as far as it is moved here (its prepare() keeps an open editor open). */
interface MovableEditor {
  row: number | null;
  col: number | null;
  TD: HTMLTableCellElement;
  originalValue: unknown;
  isOpened(): boolean;
  cancelChanges(): void;
  prepare(row: number, col: number, prop: string | number, td: HTMLTableCellElement, value: unknown, cellProperties: Handsontable.CellProperties): void;
}

/**
 * An editor open while someone else's rows or columns moved its cell: it follows the cell, so the
 * text being typed is saved where that cell is now (Handsontable's editor keeps the row and column it
 * opened at, and its Enter wrote into whatever cell came there: 20,000 rows inserted above, into an
 * empty new row). Its cell removed, it closes without saving, as the cell is gone.
 */
function followEditedCell(hot: Handsontable, editor: MovableEditor, row: number, col: number, type: StructureOperationType, index: number, count: number): void {
  const to = movedCell({ row, col }, { type, index, count });
  if (!to) {
    editor.cancelChanges();
    return;
  }
  if (to.row === row && to.col === col) return;
  editor.prepare(to.row, to.col, hot.colToProp(to.col), hot.getCell(to.row, to.col, true) ?? editor.TD, editor.originalValue, hot.getCellMeta(to.row, to.col));
}

/** Rows or columns inserted or removed by someone else, at stored indexes (the grid shows no sorting, so they are the grid's too). */
export function applyRemoteStructure(data: GridData, type: StructureOperationType, index: number, count: number): void {
  // Held values point at cells that move now: the sync that follows any mismatch repairs them.
  gridLink(data).deferred.clear();
  // The user's undo steps follow, whether the grid shows the rows or not (through it, its hooks leave others' ops to this).
  gridUndo(data).moved({ type, index, count });
  const hot = mounted(data);
  if (hot) {
    const editor = hot.getActiveEditor() as unknown as MovableEditor | undefined;
    const edited = editor?.isOpened() && editor.row !== null && editor.col !== null ? { row: editor.row, col: editor.col } : null;
    alterGrid(hot, type, index, count, LIVE_SOURCE);
    if (editor && edited) followEditedCell(hot, editor, edited.row, edited.col, type, index, count);
    return;
  }
  if (type === 'rows_insert') {
    // Not splice(at, 0, ...rows): past ~120,000 arguments a spread overflows the call stack.
    const below = data.splice(index);
    for (let r = 0; r < count; r++) data.push([]);
    for (const row of below) data.push(row);
  } else if (type === 'rows_remove') {
    data.splice(index, count);
  } else if (type === 'columns_insert') {
    const empty = new Array<CellValue>(count).fill(null);
    for (const row of data) if (row.length > index) row.splice(index, 0, ...empty);
  } else {
    for (const row of data) row.splice(index, count);
  }
}

/**
 * Rows sorted on the server (a rows_sort, anyone's): the row at `order[r]` is shown at r (rows past
 * the order stay), in the same array. The user's undo steps follow their rows after (LiveSheet onSorted: UndoStack.sorted).
 */
export function applyRemoteSort(data: GridData, order: readonly number[]): void {
  // Formulas moved with their rows as the server moved them (their relative references with them).
  const sorted = applyOrder(data, order);
  for (let r = 0; r < sorted.length; r++) data[r] = sorted[r];
  // Through updateData: the grid's afterUpdateData judges the user's row filter again (the hidden rows
  // are kept by index; rows reordered another way must reapply it: sheetFilter(data).reapply).
  replaceRows(data, data.slice());
}

/**
 * A `sync`: the rows become the server's, in the same array (the grid and the session keep
 * their hold on it). The selected cell stays selected when it still exists.
 */
export function replaceRows(data: GridData, rows: GridData): void {
  gridLink(data).deferred.clear();
  data.length = 0;
  for (const row of rows) data.push(row);
  const hot = mounted(data);
  if (!hot) return;
  const { row, col } = hot.getSelectedRangeLast()?.highlight ?? { row: null, col: null };
  hot.updateData(data);
  if (row !== null && col !== null && row >= 0 && col >= 0 && row < hot.countRows() && col < hot.countCols()) {
    hot.selectCell(row, col, row, col, false, false);
  }
}

/** Re-renders the column headers (their labels are read from the session's headers). */
export function refreshHeaders(data: GridData): void {
  mounted(data)?.render();
}

/** Other users' selected cells: drawn by the grid's renderer hook, in their colours. */
export function showPresence(data: GridData, marks: Map<string, PresenceMark>): void {
  const link = gridLink(data);
  link.presence = marks;
  mounted(data)?.render();
}

/** A cell another user selected: an inset outline in their colour, their name as its title (`row` as the session counts it). */
export function drawPresence(data: GridData, td: HTMLTableCellElement, row: number, col: number): void {
  const mark = gridLink(data).presence.get(cellKey(row, col));
  if (mark) {
    td.style.boxShadow = `inset 0 0 0 2px ${mark.color}`;
    td.dataset.presence = mark.name;
    td.title = mark.name;
  } else if (td.dataset.presence !== undefined) {
    // Cells are reused as the grid scrolls: clear what an earlier cell drew here.
    td.style.boxShadow = '';
    delete td.dataset.presence;
    td.removeAttribute('title');
  }
}

/** The grid's hooks of live collaboration (merged into SheetGrid's settings). */
export function liveGridHooks(data: GridData) {
  return {
    afterRenderer: (td: HTMLTableCellElement, row: number, col: number) => drawPresence(data, td, row, col),
    // An editor closes on a key (Enter, Escape, Tab) or a selection change: what was held for it shows now.
    afterDocumentKeyDown: () => applyDeferredCells(data),
    afterSelection: () => applyDeferredCells(data),
    afterDeselect: () => applyDeferredCells(data),
  };
}
