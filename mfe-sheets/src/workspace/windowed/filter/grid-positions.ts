import type { GridData } from '@tessera/contracts';
import type { WindowedSheet } from '../windowed-sheet.js';
import type { FilteredRows } from './filtered-rows.js';

/**
 * The windowed grid's positions (the rows as it counts them: the slab's base plus a slab row)
 * against the sheet's rows: the same rows without a filter; with one, the rows it shows (`view`,
 * set by useWindowedFilter), in order, so the slab, the scroll bar and the jumps go over them only.
 */
export function gridPositions(sheet: WindowedSheet, view: { readonly current: FilteredRows | null }) {
  /** The sheet's row at position `p`. */
  const rowOf = (p: number) => (view.current ? view.current.rowAt(p) : p);
  return {
    rowOf,
    /** Rows the grid counts: the sheet's, or those the filter shows. */
    shownRows: () => view.current?.length ?? sheet.rowCount,
    /** The position of sheet row `row`, or of the first row shown after it when the filter hides it. */
    positionAt: (row: number) => (view.current ? view.current.positionAtOrAfter(row) : row),
    /** The position of sheet row `row`; negative when the filter hides it. */
    positionOf: (row: number) => (view.current ? view.current.positionOf(row) : row),
    /** The windows of positions [first, last] read, and of `ahead` more either side (a filter's rows are no one span). */
    showPositions: (first: number, last: number, ahead = 0) => {
      const v = view.current;
      if (!v) return sheet.show(first, last, ahead);
      const now: number[] = [];
      const soon: number[] = [];
      for (let p = Math.max(0, first - ahead); p <= Math.min(last + ahead, v.length - 1); p++) (p >= first && p <= last ? now : soon).push(v.rowAt(p));
      sheet.showRows(now, soon);
    },
    /** The rows at positions [start, start + count) (a jump's scan): the sheet's span holding them read, those shown picked. */
    readPositions: async (start: number, count: number): Promise<GridData> => {
      const v = view.current;
      if (!v) return sheet.cells({ start, count });
      const end = Math.min(start + count, v.length);
      if (end <= start) return [];
      const first = v.rowAt(start);
      const rows = await sheet.cells({ start: first, count: v.rowAt(end - 1) - first + 1 });
      const out: GridData = [];
      for (let p = start; p < end; p++) out.push(rows[v.rowAt(p) - first] ?? []);
      return out;
    },
    /**
     * The sheet row a paste's `k`-th row goes to, from position `top` (the sheet's `end` rows before
     * it): with a filter on, the rows it shows; past the last of them, the rows after the sheet's end.
     */
    pastedRowAt: (top: number, k: number, end: number) => {
      const p = top + k;
      const v = view.current;
      if (!v) return p;
      return p < v.length ? v.rowAt(p) : (v.length > 0 ? Math.max(v.rowAt(v.length - 1) + 1, end) : end) + (p - v.length);
    },
  };
}
