import { type CellValue, columnFilterTest, type GridData } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import type { FormulaValues } from '../grid/formulas/formula-values.js';
import { shownValue } from '../grid/formulas/formula-renderer.js';
import { gridLink } from '../grid/grid-link.js';
import { type SheetFilter, sheetFilter } from './sheet-filter.js';

/**
 * The user's row filter drawn by a whole grid: the rows it leaves out are hidden with Handsontable's
 * HiddenRows plugin, never with its Filters plugin. A hidden row keeps its index (visual = physical =
 * the sheet's row): every place that maps the grid's rows to the sheet's (live ops, undo, paste,
 * charts, find, formulas) stays right while a filter is on, and the row headers keep the sheet's
 * numbers (hidden rows are only skipped). Filters would reorder the visual rows under all of them.
 *
 * The filter's range is the sheet's rows up to its last row with a value: the editor's spare rows
 * below stay shown, outside it (as in Google Sheets), so there is always a row to type into.
 */

interface HiddenRowsPlugin {
  enabled: boolean;
  isHidden(row: number): boolean;
  hideRows(rows: number[]): void;
  showRows(rows: number[]): void;
  getHiddenRows(): number[];
}

const hiddenRows = (hot: Handsontable) => hot.getPlugin('hiddenRows') as unknown as HiddenRowsPlugin;
/** The plugin while it draws a filter (it is turned on with the first one), else null. */
const activePlugin = (hot: Handsontable, data: GridData) => {
  const plugin = hiddenRows(hot);
  return plugin.enabled && sheetFilter(data).active ? plugin : null;
};

/** Rows up to the last one holding a value (a cell neither null nor ''). */
export function usedRows(data: GridData): number {
  for (let r = data.length - 1; r >= 0; r--) {
    const row = data[r];
    if (row && row.some((v) => v !== null && v !== undefined && v !== '')) return r + 1;
  }
  return 0;
}

/**
 * The filter prepared for many rows: does row `r` pass every filtered column (by the text it shows)?
 * `except`: that column's filter left out (the values list of its dialog counts the rows the other
 * columns' filters show, as Google Sheets' does).
 */
export function rowTest(data: GridData, formulas: FormulaValues | null, filter: SheetFilter, except?: number): (row: number) => boolean {
  const tests = [...filter.columns].filter(([col]) => col !== except).map(([col, f]) => [col, columnFilterTest(f)] as const);
  return (row) => {
    const cells = data[row];
    for (const [col, test] of tests) {
      if (!test(shownValue(formulas, cells?.[col], row, col) as CellValue | undefined)) return false;
    }
    return true;
  };
}

/**
 * Counts the rows shown of the filter's range and tells the filter (the bar). After every edit while
 * filtered: the hidden rows are counted by the index mapper's cached count of rows not hidden, less
 * those past the range (read one by one: the spare rows, few), not by listing every hidden row
 * (100,000 × 10 with 95,000 hidden: an edit took 16 ms instead of 7 that way).
 */
function count(hot: Handsontable, data: GridData, filter: SheetFilter): void {
  const rows = usedRows(data);
  let hidden = 0;
  const plugin = activePlugin(hot, data);
  if (plugin) {
    const total = hot.countRows();
    hidden = total - hot.rowIndexMapper.getNotHiddenIndexesLength();
    for (let r = rows; r < total && hidden > 0; r++) if (plugin.isHidden(r)) hidden--;
  }
  filter.counted(rows - hidden, rows);
}

/** Every row judged again (the filter changed, the rows were replaced or sorted): the rows that fail it hidden, the rest shown. */
export function applyFilter(hot: Handsontable, data: GridData, formulas: FormulaValues | null): void {
  const filter = sheetFilter(data);
  const plugin = hiddenRows(hot);
  const hide: number[] = [];
  filter.judgedBeforeValues = filter.active && formulas !== null && formulas.state === 'computing';
  if (filter.active) {
    const passes = rowTest(data, formulas, filter);
    const rows = Math.min(usedRows(data), hot.countRows());
    for (let r = 0; r < rows; r++) if (!passes(r)) hide.push(r);
  }
  hot.batch(() => {
    const before = plugin.getHiddenRows();
    if (before.length > 0) plugin.showRows(before);
    if (hide.length > 0) plugin.hideRows(hide);
  });
  count(hot, data, filter);
}

/**
 * Rows changed by someone else (their values, or inserted by them) judged again: one that stops
 * passing is hidden, one that starts passing is shown. Grist's way rather than Google Sheets' (whose
 * filter stays as it was until reapplied): the bar's 'Showing X of Y' then always means the rows that
 * pass now, and a user filtering 'Status is open' never acts on a row a colleague just closed. The
 * user's own edits and inserts are not judged: the row stays under their cursor until the filter
 * is applied again (a row vanishing while one types into it is worse than one that no longer passes).
 */
export function refilterRows(hot: Handsontable, data: GridData, formulas: FormulaValues | null, rows: Iterable<number>): void {
  const filter = sheetFilter(data);
  const plugin = activePlugin(hot, data);
  if (!plugin) return;
  const passes = rowTest(data, formulas, filter);
  const range = Math.min(usedRows(data), hot.countRows());
  const hide: number[] = [];
  const show: number[] = [];
  // The row the user is typing in stays: their text goes where they see it (the value is held for the editor anyway: live-grid).
  const editor = hot.getActiveEditor();
  const editing = editor?.isOpened() ? editor.row : null;
  for (const row of new Set(rows)) {
    if (row < 0 || row >= hot.countRows()) continue;
    const pass = row >= range || row === editing || passes(row);
    const hidden = plugin.isHidden(row);
    if (pass && hidden) show.push(row);
    else if (!pass && !hidden) hide.push(row);
  }
  if (show.length > 0 || hide.length > 0) {
    hot.batch(() => {
      if (show.length > 0) plugin.showRows(show);
      if (hide.length > 0) plugin.hideRows(hide);
    });
  }
  count(hot, data, filter);
}

/** Rows moved or cells changed without being judged (the user's own): only the bar's count follows. */
export function recount(hot: Handsontable, data: GridData): void {
  const filter = sheetFilter(data);
  if (filter.active) count(hot, data, filter);
}

/**
 * Is row `row` of `data` left out by the user's filter (hidden in its grid)? Null when no filter is
 * on, so a caller walking many rows asks once. Find passes these rows over, as Google Sheets' find
 * skips filtered-out rows: a match the grid cannot show would be selected out of sight.
 */
export function filteredOut(data: GridData): ((row: number) => boolean) | null {
  const hot = gridLink(data).hot;
  const plugin = hot && !hot.isDestroyed ? activePlugin(hot, data) : null;
  if (!plugin) return null;
  return (row) => plugin.isHidden(row);
}

/**
 * Handsontable change sources that write a range the user selected (Cut, paste, fill): they skip
 * hidden rows. Delete is 'edit' writing null (emptySelectedCells); an editor's 'edit' writes text
 * ('' when emptied) into the one cell it was opened on, kept even if someone else's edit has hidden
 * its row meanwhile (the user meant that cell).
 */
const RANGE_SOURCES = new Set(['CopyPaste.cut', 'CopyPaste.paste', 'Autofill.fill']);
const isRangeChange = (source: string, value: unknown) => RANGE_SOURCES.has(source) || (source === 'edit' && value === null);

/**
 * beforeChange: a Delete, Cut, paste or fill over a selection that spans hidden rows changes only the
 * rows shown, as Google Sheets and Excel do (what one cannot see one does not mean to clear). Paste and
 * fill already skip hidden rows (HiddenRows' skipRowOnPaste: the values go to the next rows shown);
 * this also holds Delete and Cut, which Handsontable applies to every row of the range. Undo, redo
 * and others' changes reach hidden rows as they must.
 */
export function dropHiddenRowChanges(hot: Handsontable, data: GridData, changes: (Handsontable.CellChange | null)[], source: string): void {
  const plugin = source === 'edit' || RANGE_SOURCES.has(source) ? activePlugin(hot, data) : null;
  if (!plugin) return;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (change && isRangeChange(source, change[3]) && plugin.isHidden(change[0])) changes[i] = null;
  }
}
