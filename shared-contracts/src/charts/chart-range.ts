import type { StructureStep } from '../live/transform-position.js';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import type { ChartDefinition, ChartRange } from './chart.schema.js';

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
  const rows = step.type === 'rows_insert' || step.type === 'rows_remove';
  const insert = step.type === 'rows_insert' || step.type === 'columns_insert';
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
    if (chart.range === null) return chart;
    const range = moveChartRange(chart.range, step);
    if (range === chart.range) return chart;
    changed = true;
    return { ...chart, range };
  });
  return { charts: changed ? next : [...charts], changed };
}
