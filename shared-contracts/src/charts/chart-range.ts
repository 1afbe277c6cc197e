import { isInsertStructure, isRowStructure, type StructureStep } from '../live/transform-position.js';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import type { ChartBox, ChartDefinition, ChartRange } from './chart.schema.js';

/**
 * A chart's range anchored to its cells through rows and columns inserted or removed (one
 * definition: the api moves stored charts with each structure op, the client moves the charts
 * it shows with each op it applies, so both agree).
 * - An insert at or before the range's first row (column) moves the range; one inside it (after
 *   its first row, up to its last) grows it; one after it changes nothing.
 * - A removal before the range moves it back; one that takes part of it shrinks it.
 * - A removal that takes the whole range leaves none (null): the chart stays, with no range, and
 *   says its cells were deleted (moveCharts), as Sheets and Excel keep a chart whose data is gone.
 */
export function moveChartRange(range: ChartRange, step: StructureStep): ChartRange | null {
  const rows = isRowStructure(step.type);
  const insert = isInsertStructure(step.type);
  const limit = rows ? SHEET_MAX_ROWS : SHEET_MAX_COLUMNS;
  const start = rows ? range.start_row : range.start_col;
  const end = rows ? range.end_row : range.end_col;
  let nextStart: number;
  let nextEnd: number;
  if (insert) {
    nextStart = step.index <= start ? start + step.count : start;
    nextEnd = step.index <= end ? end + step.count : end;
    // Pushed past the sheet's bounds: what is left inside them stays charted.
    if (nextStart >= limit) return null;
    nextEnd = Math.min(nextEnd, limit - 1);
  } else {
    const after = step.index + step.count;
    nextStart = start < step.index ? start : start >= after ? start - step.count : step.index;
    nextEnd = end < step.index ? end : end >= after ? end - step.count : step.index - 1;
    if (nextEnd < nextStart) return null;
  }
  if (nextStart === start && nextEnd === end) return range;
  return rows ? { ...range, start_row: nextStart, end_row: nextEnd } : { ...range, start_col: nextStart, end_col: nextEnd };
}

/**
 * The charts through one structure op: moved, grown, shrunk, or left with no range (null) when
 * all their cells went; a chart with no range stays so. `changed` when any differs.
 */
export function moveCharts(charts: readonly ChartDefinition[], step: StructureStep): { charts: ChartDefinition[]; changed: boolean } {
  let changed = false;
  const next = charts.map((chart) => {
    const moved = moveChart(chart, step);
    if (moved !== chart) changed = true;
    return moved;
  });
  return { charts: changed ? next : [...charts], changed };
}

/** One chart through one structure op: its range and its box (the same object when nothing of it moved). */
export function moveChart(chart: ChartDefinition, step: StructureStep): ChartDefinition {
  const range = chart.range === null ? null : moveChartRange(chart.range, step);
  const box = moveChartBox(chart.box, step);
  return range === chart.range && box === chart.box ? chart : { ...chart, range, box };
}

/**
 * A chart's box through one structure op, anchored to its top-left cell (as Excel's "move but
 * don't size with cells"): rows (columns) inserted at or above (left of) that cell move it down
 * (right); removed above it, up; when its own row (column) is removed it goes to the row (column)
 * that takes that place, at the cell's edge. Its size never changes.
 */
export function moveChartBox(box: ChartBox, step: StructureStep): ChartBox {
  const rows = isRowStructure(step.type);
  const insert = isInsertStructure(step.type);
  const at = rows ? box.row : box.col;
  const limit = rows ? SHEET_MAX_ROWS : SHEET_MAX_COLUMNS;
  let next = at;
  let edge = false;
  if (insert) {
    if (step.index <= at) next = Math.min(limit - 1, at + step.count);
  } else if (at >= step.index + step.count) {
    next = at - step.count;
  } else if (at >= step.index) {
    next = Math.min(step.index, limit - 1);
    edge = true;
  }
  if (next === at && !edge) return box;
  return rows ? { ...box, row: next, ...(edge ? { dy: 0 } : {}) } : { ...box, col: next, ...(edge ? { dx: 0 } : {}) };
}

/**
 * The charts after one chart change (a live `chart` frame): `chart` replaces the chart of that id
 * (or is added after the others), null removes it. The same list the server stored.
 */
export function applyChartChange(charts: readonly ChartDefinition[], chartId: string, chart: ChartDefinition | null): ChartDefinition[] {
  const at = charts.findIndex((c) => c.id === chartId);
  if (chart === null) return at < 0 ? [...charts] : charts.filter((c) => c.id !== chartId);
  if (at < 0) return [...charts, chart];
  return charts.map((c, i) => (i === at ? chart : c));
}
