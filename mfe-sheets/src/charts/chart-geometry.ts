import { CHART_MAX_OFFSET, CHART_NOMINAL_GRID, type ChartBox, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';

/**
 * Where the grid's cells are, in the chart layer's pixels (from the grid's top-left corner,
 * headers included, before scrolling): a chart's box is anchored to a cell (row, col + offset,
 * see ChartBoxSchema), drawn at that cell's corner and dropped onto the cell under its corner.
 */
export interface ChartGeometry {
  /** The left edge of column `col`. */
  left(col: number): number;
  /** The top edge of row `row`. */
  top(row: number): number;
}

const usable = (n: number | undefined, fallback: number) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback);

/** The nominal grid (a column 120 px, a row 23 px): where no grid is laid out (a test, a preview not yet mounted). */
export const NOMINAL_GEOMETRY: ChartGeometry = {
  left: (col) => CHART_NOMINAL_GRID.rowHeaderWidth + col * CHART_NOMINAL_GRID.columnWidth,
  top: (row) => CHART_NOMINAL_GRID.columnHeaderHeight + row * CHART_NOMINAL_GRID.rowHeight,
};

/**
 * The grid as Handsontable lays it out: its header sizes and each column's and row's size (a column
 * or row resized by hand included), summed up to the anchor. Without an instance, the nominal grid.
 */
export function chartGeometry(hot: Handsontable | null): ChartGeometry {
  if (!hot || hot.isDestroyed) return NOMINAL_GEOMETRY;
  const view = hot.view as unknown as { getRowHeaderWidth?(): number; getColumnHeaderHeight?(): number } | undefined;
  const headerWidth = usable(view?.getRowHeaderWidth?.(), CHART_NOMINAL_GRID.rowHeaderWidth);
  const headerHeight = usable(view?.getColumnHeaderHeight?.(), CHART_NOMINAL_GRID.columnHeaderHeight);
  return {
    left(col) {
      let x = headerWidth;
      for (let c = 0; c < col; c++) x += usable(hot.getColWidth(c), CHART_NOMINAL_GRID.columnWidth);
      return x;
    },
    top(row) {
      let y = headerHeight;
      for (let r = 0; r < row; r++) y += usable(hot.getRowHeight(r), CHART_NOMINAL_GRID.rowHeight);
      return y;
    },
  };
}

/** The pixel position of a box's top-left corner. */
export function boxPosition(box: ChartBox, geometry: ChartGeometry): { x: number; y: number } {
  return { x: geometry.left(box.col) + box.dx, y: geometry.top(box.row) + box.dy };
}

/**
 * The cell under the point (x, y) and the offset into it: where a box dropped there is anchored.
 * A point above or left of the first cell (over the headers) is on its edge.
 */
export function anchorAt(x: number, y: number, geometry: ChartGeometry): Pick<ChartBox, 'row' | 'col' | 'dx' | 'dy'> {
  const col = indexAt(x, geometry.left, SHEET_MAX_COLUMNS);
  const row = indexAt(y, geometry.top, SHEET_MAX_ROWS);
  return {
    row,
    col,
    dx: Math.min(CHART_MAX_OFFSET, Math.max(0, Math.round(x - geometry.left(col)))),
    dy: Math.min(CHART_MAX_OFFSET, Math.max(0, Math.round(y - geometry.top(row)))),
  };
}

/** The last index whose edge is at or before `at` (edges grow with the index). */
function indexAt(at: number, edge: (i: number) => number, count: number): number {
  // Doubling then halving: a few dozen edge reads, wherever the point is.
  let hi = 1;
  while (hi < count && edge(hi) <= at) hi *= 2;
  let lo = 0;
  hi = Math.min(hi, count - 1);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (edge(mid) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The geometry of whatever grid shows `rows` when asked (read at each call: the grid mounts later, rows are resized). */
export function linkedGeometry(hotOf: () => Handsontable | null): ChartGeometry {
  return {
    left: (col) => chartGeometry(hotOf()).left(col),
    top: (row) => chartGeometry(hotOf()).top(row),
  };
}

/**
 * The geometry of a windowed grid (issue 23): Handsontable holds the slab of rows from absolute row
 * `base`, and the layer moves by the slab's scroll, so row `row` is at the slab's row `row - base`;
 * rows above or below the slab are placed at the nominal row height from its edges (a chart anchored
 * there is off screen, and comes into place when the slab holds its row).
 */
export function slabGeometry(hotOf: () => Handsontable | null, base: number, slabRows: () => number): ChartGeometry {
  return {
    left: (col) => chartGeometry(hotOf()).left(col),
    top: (row) => {
      const inSlab = chartGeometry(hotOf());
      const rows = slabRows();
      if (row < base) return inSlab.top(0) - (base - row) * CHART_NOMINAL_GRID.rowHeight;
      if (row - base > rows) return inSlab.top(rows) + (row - base - rows) * CHART_NOMINAL_GRID.rowHeight;
      return inSlab.top(row - base);
    },
  };
}
