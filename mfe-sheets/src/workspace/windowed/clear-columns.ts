import type { CellChange, CellValue, ClearBlock, RowRange } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import type { ClearedCells } from '../undo/undo-stack.js';
import { inRuns, runsSpan } from './filter/filtered-rows.js';
import type { WindowedSheet } from './windowed-sheet.js';

/** Blocks sent as cells_clear operations (the session's clearCells): their ids, in order (none: not sent). */
export type SendClears = (blocks: ClearBlock[]) => readonly string[];

/** Columns `left`..`right` of the sheet. */
export interface ColumnSpan {
  left: number;
  right: number;
}

/** A selected block in Handsontable's coordinates (a header's row or column is -1). */
interface Range {
  from: { row: number | null; col: number | null };
  to: { row: number | null; col: number | null };
}

/**
 * The columns a selection made from the column headers (or the corner) means: whole columns of
 * the sheet, though the windowed grid holds a slab of its rows. Null when a block of the selection
 * is not whole columns (Handsontable's own Delete then clears the cells selected).
 */
export function wholeColumns(ranges: readonly Range[] | undefined, cols: number): ColumnSpan[] | null {
  if (!ranges || ranges.length === 0) return null;
  const spans: ColumnSpan[] = [];
  for (const { from, to } of ranges) {
    if (from.row === null || to.row === null || from.col === null || to.col === null) return null;
    if (Math.min(from.row, to.row) >= 0) return null;
    const left = Math.max(0, Math.min(from.col, to.col));
    const right = Math.min(cols - 1, Math.max(from.col, to.col));
    if (right >= left) spans.push({ left, right });
  }
  return spans.length > 0 ? spans : null;
}

/** The columns of `spans`, left to right, each once (overlapping blocks: a column Ctrl+clicked twice). */
export function spanColumns(spans: readonly ColumnSpan[]): number[] {
  const cols = new Set<number>();
  for (const { left, right } of spans) for (let col = left; col <= right; col++) cols.add(col);
  return [...cols].sort((a, b) => a - b);
}

/**
 * Whole columns cleared (Delete with their headers selected): every row of the sheet, not only the
 * slab's rows read so far. The sheet's cells of those columns only are read (sheet.cells: the
 * windows held, the others read, at the session's version with own edits), then cleared (clearCells). False when nothing was
 * cleared (none held a value, or `stopped`: read-only, or gone, once read); rejects when the rows
 * could not be read (rows moved on every read: the user may press Delete again).
 */
export async function clearColumns(
  sheet: WindowedSheet,
  spans: readonly ColumnSpan[],
  write: (changes: CellChange[]) => void,
  stopped: () => boolean,
  range?: RowRange,
  clear?: SendClears,
): Promise<boolean> {
  const cols = spanColumns(spans);
  const cleared = await cellsToClear(sheet, cols, range);
  return !stopped() && clearCells(sheet, cleared, write, clear && { blocks: clearBlocks(sheet, spans, range), clear });
}

/** Runs of rows past which a filtered clear goes out as a change per cell, not a cells_clear per run (each run's block is an operation). */
export const CLEAR_RUN_BLOCKS_MAX = 1_000;

/**
 * Whole columns cleared while a row filter is on: the rows it shows only (`runs`, flat [start,
 * count, …] ascending: filtered-rows.ts), as spreadsheets clear only the cells one sees of a filtered
 * selection. The columns' cells of the runs' span are read, those of rows shown cleared as one undo
 * step: a cells_clear per run and span (past CLEAR_RUN_BLOCKS_MAX, a change per cell).
 */
export async function clearShownColumns(
  sheet: WindowedSheet,
  spans: readonly ColumnSpan[],
  runs: readonly number[],
  write: (changes: CellChange[]) => void,
  stopped: () => boolean,
  clear?: SendClears,
): Promise<boolean> {
  if (runs.length < 2) return false;
  const all = await cellsToClear(sheet, spanColumns(spans), runsSpan(runs));
  if (stopped()) return false;
  return clearCells(sheet, shownCells(all, runs), write, runsClear(sheet, spans, runs, clear));
}

/** The cleared cells of rows in `runs` only. */
export function shownCells(cleared: ClearedCells, runs: readonly number[]): ClearedCells {
  const shown = inRuns(runs);
  const keep: number[] = [];
  for (let i = 0; i < cleared.rows.length; i++) if (shown(cleared.rows[i])) keep.push(i);
  return { rows: Int32Array.from(keep, (i) => cleared.rows[i]), cols: Int32Array.from(keep, (i) => cleared.cols[i]), before: keep.map((i) => cleared.before[i]) };
}

/** A filtered clear's operations: a cells_clear per run and span, or none past CLEAR_RUN_BLOCKS_MAX (a change per cell then). */
export function runsClear(sheet: WindowedSheet, spans: readonly ColumnSpan[], runs: readonly number[], clear?: SendClears) {
  return clear && (runs.length / 2) * spans.length <= CLEAR_RUN_BLOCKS_MAX ? { blocks: runBlocks(sheet, spans, runs), clear } : undefined;
}

/** A block per run and span of columns. */
function runBlocks(sheet: WindowedSheet, spans: readonly ColumnSpan[], runs: readonly number[]): ClearBlock[] {
  const blocks: ClearBlock[] = [];
  for (let k = 0; k + 1 < runs.length; k += 2) blocks.push(...clearBlocks(sheet, spans, { start: runs[k], count: runs[k + 1] }));
  return blocks;
}

/**
 * The blocks a clear of whole columns (every row of the sheet, or `range`'s rows) is sent as: one
 * cells_clear per span of columns, cut to the sheet's rows and columns (the grid shows spare ones
 * past them, which the server does not hold).
 */
export function clearBlocks(sheet: WindowedSheet, spans: readonly ColumnSpan[], range?: RowRange): ClearBlock[] {
  const start = Math.max(0, range?.start ?? 0);
  const end = Math.min(sheet.rowCount, range ? start + range.count : sheet.rowCount);
  if (end <= start) return [];
  const blocks: ClearBlock[] = [];
  for (const { left, right } of spans) {
    const last = Math.min(right, sheet.colCount - 1);
    if (last >= left) blocks.push({ rows: { start, count: end - start }, columns: { start: left, count: last - left + 1 } });
  }
  return blocks;
}

/**
 * The cells of `cols` holding a value (`range`: those rows only, a Shift-selected range of rows longer
 * than the slab; else every row), read and packed. Its own function: the million rows read are
 * garbage once it returns, before the changes and the operations are made of what it found.
 */
async function cellsToClear(sheet: WindowedSheet, cols: readonly number[], range?: RowRange): Promise<ClearedCells> {
  const { values } = await sheet.columns(range, () => cols);
  return clearedOfColumns(values, cols, range?.start);
}

/**
 * The cells holding a value in `values` (column form, as sheet.columns gives them: values[k] is
 * column cols[k] of each row from row `first`): cleared, as one step (before: the value), a column at
 * a time, packed (a million cells of a whole column are three arrays, not a million objects).
 */
export function clearedOfColumns(values: readonly (readonly CellValue[])[], cols: readonly number[], first = 0): ClearedCells {
  const held = (value: CellValue | undefined) => value !== null && value !== undefined && value !== '';
  let count = 0;
  for (const column of values) for (const value of column) if (held(value)) count++;
  const cleared: ClearedCells = { rows: new Int32Array(count), cols: new Int32Array(count), before: [] };
  let i = 0;
  for (let k = 0; k < cols.length; k++) {
    const column = values[k] ?? [];
    for (let row = 0; row < column.length; row++) {
      if (!held(column[row])) continue;
      cleared.rows[i] = first + row;
      cleared.cols[i] = cols[k];
      cleared.before.push(column[row]);
      i++;
    }
  }
  return cleared;
}

/**
 * `cleared` sent empty and recorded as one undo step (packed); false when it holds no cell. With
 * `blocks`, as those blocks (one small cells_clear each: the server empties them, whatever their
 * rows) instead of a change per cell through `write`.
 */
export function clearCells(sheet: WindowedSheet, cleared: ClearedCells, write: (changes: CellChange[]) => void, blocks?: { blocks: ClearBlock[]; clear: SendClears }): boolean {
  const count = cleared.rows.length;
  if (count === 0) return false;
  if (blocks && blocks.blocks.length > 0) {
    const ids = blocks.clear(blocks.blocks);
    // The step keeps its clears: undone by the server once it gave them their versions (UndoStack.clearApplied).
    sheet.undo.record(cleared, ids.length === blocks.blocks.length ? { ids, blocks: blocks.blocks } : undefined);
    return true;
  }
  const changes: CellChange[] = [];
  for (let i = 0; i < count; i++) changes.push({ row: cleared.rows[i], col: cleared.cols[i], value: null });
  write(changes);
  sheet.undo.record(cleared);
  return true;
}

/**
 * Delete and Backspace with whole columns selected do `clear` (the whole sheet's columns) instead
 * of Handsontable's emptying of the rows the grid holds. Returns their removal.
 */
export function addClearColumnKeys(hot: Handsontable, columns: () => ColumnSpan[] | null, clear: (spans: ColumnSpan[]) => void): () => void {
  const grid = hot.getShortcutManager().getContext('grid');
  if (!grid) return () => {};
  const group = 'tesseraClearColumns';
  grid.addShortcuts(
    [
      {
        keys: [['Delete'], ['Backspace']],
        callback: () => {
          const spans = columns();
          if (spans) clear(spans);
          // Handsontable's own emptying (of the slab's rows only) is not run.
          return false;
        },
      },
    ],
    // Before Handsontable's Delete (its editor group); only while whole columns are selected.
    { group, runOnlyIf: () => columns() !== null, position: 'before', relativeToGroup: 'editorManager.handlingEditor' },
  );
  return () => grid.removeShortcutsByGroup(group);
}
