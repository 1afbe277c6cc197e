import { type ChartLegendPosition, type ChartRange, type ChartType, columnLabel } from '@tessera/contracts';

export const CHART_TYPE_LABELS: Record<ChartType, string> = {
  column: 'Column',
  bar: 'Bar',
  line: 'Line',
  area: 'Area',
  pie: 'Pie',
  scatter: 'Scatter',
  combo: 'Combo (columns + line)',
};

export const LEGEND_LABELS: Record<ChartLegendPosition, string> = { top: 'Top', bottom: 'Bottom', left: 'Left', right: 'Right', none: 'None' };

/** 'A1:B4' as a user reads a range. */
export const rangeLabel = (r: ChartRange) => `${columnLabel(r.start_col)}${r.start_row + 1}:${columnLabel(r.end_col)}${r.end_row + 1}`;
