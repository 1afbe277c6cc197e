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

/** The dialog's texts when it changes a chart already on the sheet (it is the Insert chart dialog, reused). */
export const EDIT_CHART_TEXTS = {
  menu: 'Edit chart',
  title: 'Edit chart',
  save: 'Save',
  insert: 'Insert',
  range: 'Range',
  badRange: 'Enter a range of cells such as A1:B10',
} as const;

const CELL = /^([A-Z]{1,3})([1-9]\d{0,6})$/;

/** 'A1:B4' (or one cell 'C3', any case, blanks around) as a range; null when it is not one. Corners in any order. */
export function parseRangeLabel(text: string): ChartRange | null {
  const parts = text.trim().toUpperCase().split(':').map((p) => p.trim());
  if (parts.length < 1 || parts.length > 2) return null;
  const cells = parts.map((p) => CELL.exec(p));
  if (cells.some((c) => c === null)) return null;
  const [a, b = a] = cells.map((c) => ({ col: columnIndex(c![1]!), row: Number(c![2]) - 1 }));
  return {
    start_row: Math.min(a!.row, b!.row),
    start_col: Math.min(a!.col, b!.col),
    end_row: Math.max(a!.row, b!.row),
    end_col: Math.max(a!.col, b!.col),
  };
}

/** 'A' → 0, 'Z' → 25, 'AA' → 26 (the inverse of columnLabel). */
function columnIndex(label: string): number {
  let n = 0;
  for (const ch of label) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}
