import type { CellValue, GridData } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { filteredOut } from '../filter/grid-filter.js';

/**
 * Ctrl+Arrow, Ctrl+Home and Ctrl+End (with Shift: the selection extended), on both grids: they go
 * where a spreadsheet goes, Ctrl+Arrow to the edge of the data block in the column or row (blockEdge,
 * rowEdge), Ctrl+End to the last row and column, Ctrl+Home to A1. Handsontable's own go to the grid's
 * last cell whatever the data, and on a windowed sheet stop at the slab's edge (it holds some
 * thousands of the sheet's rows): there these go to absolute rows (rows not held are read), the slab
 * moved to show the cell.
 */

/** The key pressed: where it goes, and whether it extends the selection (Shift). */
export interface JumpKey {
  to: 'up' | 'down' | 'left' | 'right' | 'home' | 'end';
  extend: boolean;
}

/** The rows a jump reads: those held now, else `read` (a window's rows of `chunk`, from a multiple of it). */
export interface JumpRows {
  rowAt(row: number): CellValue[] | undefined;
  read(start: number, count: number): Promise<GridData>;
  chunk: number;
  /** A jump has rows to read (at most `rows` of them): `work` settles when it is done (rejects when a read failed). */
  reading?(rows: number, work: Promise<unknown>): void;
}

const empty = (value: CellValue | undefined) => value === null || value === undefined || value === '';

/**
 * Where Ctrl+Down (`step` 1) or Ctrl+Up (-1) goes from row `from` of column `col`, rows 0..`last`,
 * as spreadsheets do: from a filled cell whose neighbour is filled, to the block's last filled cell;
 * else to the next filled cell, or the sheet's edge when there is none. Rows not held are read a
 * window at a time (one kept: the scan goes one way). Null when `wanted` turns false meanwhile
 * (another key pressed, the sheet changed).
 */
export async function blockEdge(from: number, col: number, step: 1 | -1, last: number, rows: JumpRows, wanted: () => boolean): Promise<number | null> {
  // Told (rows.reading) once a read is needed: a scan of many windows takes seconds.
  const told: { done?(): void; failed?(error: unknown): void } = {};
  try {
    const target = await scan(from, col, step, last, rows, wanted, (row) => {
      if (told.done || !rows.reading) return;
      const work = new Promise<void>((done, failed) => Object.assign(told, { done, failed }));
      rows.reading(Math.abs((step > 0 ? last : 0) - row) + 1, work);
    });
    told.done?.();
    return target;
  } catch (error) {
    told.failed?.(error);
    throw error;
  }
}

/** blockEdge's scan; `reads(row)` before each window read (from `row`). */
async function scan(from: number, col: number, step: 1 | -1, last: number, rows: JumpRows, wanted: () => boolean, reads: (row: number) => void): Promise<number | null> {
  if (last < 0) return 0;
  let chunk: { index: number; rows: GridData } | null = null;
  // Sync for rows held; a read (awaited) only for a window not held.
  const filled = async (row: number): Promise<boolean | null> => {
    const held = rows.rowAt(row);
    if (held) return !empty(held[col]);
    const index = Math.floor(row / rows.chunk);
    if (chunk?.index !== index) {
      reads(row);
      const read = await rows.read(index * rows.chunk, rows.chunk);
      if (!wanted()) return null;
      chunk = { index, rows: read };
    }
    return !empty(chunk.rows[row - index * rows.chunk]?.[col]);
  };
  return lineEdge(from, step, last, filled);
}

/**
 * Where a Ctrl+Arrow goes along a line of cells 0..`last` (a column's rows, a row's columns) from
 * `from` one way: from a filled cell whose neighbour is filled, to the block's last filled cell;
 * else to the next filled cell, or the edge. `filled` null: the jump is given up (null).
 */
async function lineEdge(from: number, step: 1 | -1, last: number, filled: (at: number) => boolean | null | Promise<boolean | null>): Promise<number | null> {
  const edge = step > 0 ? last : 0;
  const start = Math.max(0, Math.min(from, last));
  if (start === edge) return edge;
  const here = await filled(start);
  const next = here === null ? null : await filled(start + step);
  if (here === null || next === null) return null;
  let at = start + step;
  if (here && next) {
    // To the block's last filled cell.
    for (; at !== edge; at += step) {
      const further = await filled(at + step);
      if (further === null) return null;
      if (!further) break;
    }
    return at;
  }
  // To the next filled cell, or the edge.
  for (; at !== edge; at += step) {
    const now = await filled(at);
    if (now === null) return null;
    if (now) break;
  }
  return at;
}

/** Where Ctrl+Right (`step` 1) or Ctrl+Left (-1) goes from column `from` of `cells` (a row held; columns 0..`last`). */
export function rowEdge(cells: readonly CellValue[], from: number, step: 1 | -1, last: number): Promise<number> {
  if (last < 0) return Promise.resolve(0);
  return lineEdge(from, step, last, (col) => !empty(cells[col])) as Promise<number>;
}

/**
 * The keys taken from Handsontable's (registered before its own, which then do not run): `jump` is
 * called with the key while cells are selected (not whole rows or columns by their headers).
 * Returns the function that removes them.
 */
export function addJumpKeys(hot: Handsontable, jump: (key: JumpKey) => void): () => void {
  const grid = hot.getShortcutManager().getContext('grid');
  if (!grid) return () => {};
  const group = 'tesseraJumpKeys';
  const key = (to: JumpKey['to'], extend: boolean, name: string) => ({
    keys: [extend ? ['Control/Meta', 'Shift', name] : ['Control/Meta', name]],
    captureCtrl: true,
    callback: () => {
      jump({ to, extend });
      return false;
    },
  });
  grid.addShortcuts(
    (['down', 'up', 'left', 'right', 'end', 'home'] as const).flatMap((to) => {
      const name = { down: 'ArrowDown', up: 'ArrowUp', left: 'ArrowLeft', right: 'ArrowRight', end: 'End', home: 'Home' }[to];
      return [key(to, false, name), key(to, true, name)];
    }),
    {
      group,
      runOnlyIf: () => {
        const range = hot.getSelectedRangeActive();
        return !!range && !range.highlight.isHeader() && !hot.selection.isSelectedByRowHeader() && !hot.selection.isSelectedByColumnHeader() && !hot.selection.isSelectedByCorner();
      },
      position: 'before',
      relativeToGroup: 'gridDefault',
    },
  );
  return () => grid.removeShortcutsByGroup(group);
}

/** What a jump needs of the windowed grid. */
export interface JumpGrid {
  hot: Handsontable;
  /** The slab's first absolute row, and its length. */
  base(): number;
  length(): number;
  rowCount(): number;
  colCount(): number;
  rows: JumpRows;
  /** The slab moved, if need be, so that absolute row `row` is well inside it and shown. */
  show(row: number): void;
  /** The selection, at absolute rows (it may reach past the slab: its rows there are not in Handsontable's). */
  report(row: number, col: number, row2: number, col2: number): void;
  /**
   * Row `row` when it is shown, else the nearest shown one from it going `toward` (a row the user's
   * filter hides is no place to land: Ctrl+End, Ctrl+Home, Ctrl+Up/Down to the sheet's edge). Without
   * it, every row is shown.
   */
  shownRow?(row: number, toward: 1 | -1): number;
}

/** A grid that holds every row of its sheet (the whole grid, `rows` its data): nothing to read or move. */
export function wholeJumpGrid(hot: Handsontable, rows: () => GridData): JumpGrid {
  return {
    hot,
    base: () => 0,
    length: () => hot.countRows(),
    rowCount: () => hot.countRows(),
    colCount: () => hot.countCols(),
    // Spare rows past the data (minRows) are empty ones; so are the rows the user's filter hides (a jump
    // goes to a cell one sees, as in Google Sheets: typing there must not land in a hidden row).
    rows: {
      rowAt: (row) => {
        const data = rows();
        return filteredOut(data)?.(row) ? [] : (data[row] ?? []);
      },
      read: async () => [],
      chunk: 1,
    },
    // Handsontable scrolls to the cell it selects and reports the selection itself (afterSelectionEnd).
    show: () => {},
    report: () => {},
    shownRow: (row, toward) => {
      const hidden = filteredOut(rows());
      if (!hidden) return row;
      const count = hot.countRows();
      for (let r = row; r >= 0 && r < count; r += toward) if (!hidden(r)) return r;
      // Nothing shown that way: the other way (every row that way hidden, the edge among them).
      for (let r = row; r >= 0 && r < count; r -= toward) if (!hidden(r)) return r;
      return row;
    },
  };
}

/**
 * The jumps of one grid: each key press goes to its cell (after reading rows, for Ctrl+Up/Down past
 * those held), a newer press overtaking an older one still reading. With Shift, the selection goes
 * from its anchor, at its absolute row (kept while the slab moved away from it), to there.
 */
export function jumper(grid: JumpGrid): (key: JumpKey) => void {
  let generation = 0;
  /** The last selection made here: its anchor's absolute row, and what Handsontable was given. */
  let made: { anchor: number; anchorCol: number; selected: number[]; base: number } | null = null;
  return (key) => {
    const h = grid.hot;
    const range = h.getSelectedRangeActive();
    if (!range) return;
    const base = grid.base();
    const selected = h.getSelectedLast();
    const same = made && selected && made.base === base && made.selected.every((v, i) => v === selected[i]);
    const anchor = same && made ? made.anchor : base + (range.from.row ?? 0);
    const anchorCol = same && made ? made.anchorCol : (range.from.col ?? 0);
    // The moving corner (with Shift), else the active cell (the anchor, which may be outside the slab).
    const corner = key.extend ? range.to : range.highlight;
    const row = !key.extend && same ? anchor : base + (corner.row ?? 0);
    const col = !key.extend && same ? anchorCol : (corner.col ?? 0);
    const last = grid.rowCount() - 1;
    const mine = ++generation;
    const go = (reached: number, targetCol: number) => {
      if (mine !== generation || h.isDestroyed) return;
      // A hidden row reached (the sheet's edge, past the rows shown): the nearest one shown back from it.
      const target = grid.shownRow ? grid.shownRow(reached, key.to === 'end' || key.to === 'down' ? -1 : 1) : reached;
      grid.show(target);
      const b = grid.base();
      const inSlab = (r: number) => Math.max(0, Math.min(r - b, grid.length() - 1));
      const to = [inSlab(target), targetCol] as const;
      const from = key.extend ? [inSlab(anchor), anchorCol] : to;
      h.selectCell(from[0], from[1], to[0], to[1], true);
      made = key.extend ? { anchor, anchorCol, selected: [from[0], from[1], to[0], to[1]], base: b } : null;
      if (key.extend) grid.report(Math.min(anchor, target), Math.min(anchorCol, targetCol), Math.max(anchor, target), Math.max(anchorCol, targetCol));
    };
    if (key.to === 'end') return go(Math.max(0, last), Math.max(0, grid.colCount() - 1));
    if (key.to === 'home') return go(0, 0);
    if (key.to === 'left' || key.to === 'right') {
      // Along the row (held: its cell is selected; a placeholder row goes to the edge).
      void rowEdge(grid.rows.rowAt(row) ?? [], col, key.to === 'right' ? 1 : -1, grid.colCount() - 1).then((target) => go(row, target));
      return;
    }
    void blockEdge(row, col, key.to === 'down' ? 1 : -1, last, grid.rows, () => mine === generation)
      .then((target) => target !== null && go(target, col))
      // A read that failed: the jump is not made (the status line says why: rows.reading; the user can press again).
      .catch(() => undefined);
  };
}
