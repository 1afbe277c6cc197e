import { z } from 'zod';
import { columnLabel } from '../sheets/sheet-name.js';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import {
  CHART_AXIS_TITLE_MAX_LENGTH,
  CHART_TITLE_MAX_LENGTH,
  ChartCategorySourceSchema,
  type ChartOptions,
  type ChartRange,
  ChartRangeSchema,
  ChartTypeSchema,
} from './chart.schema.js';

/**
 * A chart the AI asks for (issue 20): a Tessera chart — moved, edited and live like one made from
 * the toolbar — beside the code's Matplotlib figures. `target` 'sheet': over a range of the active
 * sheet, made by the ai-middleware through the api's chart route with the user's own token (so
 * the api's editor check decides, with its own texts); 'result': over the result grid, made on the
 * new sheet the chat panel creates of that grid (its range is in the result's cells).
 */
export const AI_CHART_TARGETS = ['sheet', 'result'] as const;
export const AiChartRequestSchema = z.strictObject({
  target: z.enum(AI_CHART_TARGETS),
  type: ChartTypeSchema,
  range: ChartRangeSchema,
  categories: ChartCategorySourceSchema,
  title: z.string().trim().max(CHART_TITLE_MAX_LENGTH),
  x_axis_title: z.string().trim().max(CHART_AXIS_TITLE_MAX_LENGTH),
  y_axis_title: z.string().trim().max(CHART_AXIS_TITLE_MAX_LENGTH),
});
export type AiChartRequest = z.infer<typeof AiChartRequestSchema>;

/** The chart of an AI reply: what was asked, and where it was made (sheet and chart ids), or why not. */
export const AiChartSchema = z.object({
  request: AiChartRequestSchema,
  sheet_id: z.string().optional(),
  chart_id: z.string().optional(),
  /** Not made: the api's own text (a viewer: 'You can only view this sheet'). */
  error: z.string().optional(),
});
export type AiChart = z.infer<typeof AiChartSchema>;

/** What the chart route is sent for an AI chart: a legend below, not stacked, its box beside its range (anchored, it moves with its cells). */
export function aiChartOptions(request: AiChartRequest): ChartOptions {
  const { target: _target, ...rest } = request;
  return {
    ...rest,
    legend: 'bottom',
    stacked: false,
    box: { row: request.range.start_row, col: Math.min(request.range.end_col + 1, SHEET_MAX_COLUMNS - 1), dx: 24, dy: 0, width: 480, height: 300 },
  };
}

/** 'A1:B10' (or 'B10:A1', one cell 'C3'), as a model writes a range; null when it is not one. */
export function parseA1Range(text: string): ChartRange | null {
  const corners = text.trim().toUpperCase().split(':');
  if (corners.length < 1 || corners.length > 2) return null;
  const cells = corners.map((corner) => /^([A-Z]{1,3})([1-9][0-9]{0,6})$/.exec(corner.trim()));
  if (cells.some((c) => c === null)) return null;
  const at = cells.map((c) => ({ col: columnIndex(c![1]), row: Number(c![2]) - 1 }));
  const [a, b] = [at[0], at[at.length - 1]];
  const range = { start_row: Math.min(a.row, b.row), start_col: Math.min(a.col, b.col), end_row: Math.max(a.row, b.row), end_col: Math.max(a.col, b.col) };
  if (range.end_row >= SHEET_MAX_ROWS || range.end_col >= SHEET_MAX_COLUMNS) return null;
  return range;
}

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The A1 label of a range ('A1:B10'), as the chat shows it. */
export const a1RangeLabel = (r: ChartRange): string => `${columnLabel(r.start_col)}${r.start_row + 1}:${columnLabel(r.end_col)}${r.end_row + 1}`;

export const AI_CHART_TEXTS = {
  /** The chat message's link to a chart the AI made. */
  show: (title: string) => `Show chart: ${title}`,
  untitled: 'Untitled chart',
  notMade: (reason: string) => `The chart was not made: ${reason}`,
} as const;
