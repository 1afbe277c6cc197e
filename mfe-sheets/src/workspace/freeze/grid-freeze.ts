import type Handsontable from 'handsontable/base';
import type { MenuFreeze } from '../grid/context-menu.js';
import { headerLabel } from '../grid/grid-shape.js';
import type { SheetFreeze } from './sheet-freeze.js';

/**
 * The user's freeze as a grid draws it: Handsontable's fixedColumnsStart and fixedRowsTop, which only
 * keep the first columns and rows in overlays. Never its ManualColumnFreeze plugin: that one freezes a
 * column by moving it to the start (the column index mapper's visual order), and every place that
 * maps the grid's columns to the sheet's (edits, paste, undo, live ops, formulas) takes visual =
 * physical. `rows`: false on a windowed grid, whose first rows are its slab's, not the sheet's.
 */
export function frozenSettings(freeze: SheetFreeze | null | undefined, rows: boolean): { fixedColumnsStart: number; fixedRowsTop: number } {
  return { fixedColumnsStart: freeze?.cols ?? 0, fixedRowsTop: rows ? (freeze?.rows ?? 0) : 0 };
}

/**
 * Where Handsontable 18.1.1 keeps the fixed counts it lowers itself when rows or columns inside them
 * are removed (core alter: `tableMeta.fixedRowsTop -= …`, `tableMeta._fixedColumnsStart -= …`). Written
 * there, on the table's settings object, they shadow the global settings that updateSettings writes:
 * after such a remove, updateSettings no longer changed them (a freeze set later did not show).
 */
const SHADOWING_KEYS = ['fixedRowsTop', '_fixedColumnsStart'] as const;

/** The grid made to draw the freeze as it is now (nothing done when it already does: updateSettings lays the grid out again). */
export function applyFreeze(hot: Handsontable, freeze: SheetFreeze | null | undefined, rows: boolean): void {
  if (hot.isDestroyed) return;
  const want = frozenSettings(freeze, rows);
  const now = hot.getSettings();
  if ((now.fixedColumnsStart ?? 0) === want.fixedColumnsStart && (now.fixedRowsTop ?? 0) === want.fixedRowsTop) return;
  const own = now as unknown as Record<string, unknown>;
  for (const key of SHADOWING_KEYS) if (Object.hasOwn(own, key)) delete own[key];
  hot.updateSettings(want);
}

/** The context menu's freeze entries on `freeze` (contextMenu's MenuFreeze); `rowsUnavailable`: the disabled row entry's text. */
export function menuFreeze(freeze: SheetFreeze, headers: { current: string[] }, rowsUnavailable?: string): MenuFreeze {
  return {
    frozen: () => ({ rows: freeze.rows, cols: freeze.cols }),
    set: (next) => freeze.set(next),
    label: (col) => headerLabel(headers.current, col),
    ...(rowsUnavailable === undefined ? {} : { rowsUnavailable }),
  };
}
