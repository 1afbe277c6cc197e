import { z } from 'zod';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';

/**
 * Charts on a sheet (issue 20). A chart is part of its sheet: kept in the sheet's metadata
 * (`metadata.charts`), versioned, restored and duplicated with it. Its range is anchored to the
 * cells (chart-range.ts moves it through row and column inserts and removes).
 */

/** Most charts one sheet holds: every open of the sheet renders them all. */
export const SHEET_MAX_CHARTS = 20;
export const CHART_TITLE_MAX_LENGTH = 200;
export const CHART_AXIS_TITLE_MAX_LENGTH = 100;
/** Bounds of a chart's box over the grid, in CSS pixels. */
export const CHART_MIN_SIZE = 160;
export const CHART_MAX_SIZE = 4000;
export const CHART_MAX_OFFSET = 1_000_000;

export const CHART_TYPES = ['column', 'bar', 'line', 'area', 'pie', 'scatter', 'combo'] as const;
export const ChartTypeSchema = z.enum(CHART_TYPES);
export type ChartType = z.infer<typeof ChartTypeSchema>;

/**
 * Where the categories come from. first_column: each row of the range is a point, its first cell
 * the category, every other column a series (named by the sheet's header of that column).
 * header_row: the range read across — its first row holds the categories, every other row is a
 * series named by its first cell. Swapping one for the other transposes the chart.
 */
export const CHART_CATEGORY_SOURCES = ['first_column', 'header_row'] as const;
export const ChartCategorySourceSchema = z.enum(CHART_CATEGORY_SOURCES);
export type ChartCategorySource = z.infer<typeof ChartCategorySourceSchema>;

export const CHART_LEGEND_POSITIONS = ['top', 'bottom', 'left', 'right', 'none'] as const;
export const ChartLegendPositionSchema = z.enum(CHART_LEGEND_POSITIONS);
export type ChartLegendPosition = z.infer<typeof ChartLegendPositionSchema>;

const Row = z.number().int().min(0).max(SHEET_MAX_ROWS - 1);
const Col = z.number().int().min(0).max(SHEET_MAX_COLUMNS - 1);

/** The cells charted, inclusive, 0-based (grid rows, not counting the header line). */
export const ChartRangeSchema = z
  .strictObject({ start_row: Row, start_col: Col, end_row: Row, end_col: Col })
  .refine((r) => r.end_row >= r.start_row && r.end_col >= r.start_col, { error: 'A chart range ends at or after its start' });
export type ChartRange = z.infer<typeof ChartRangeSchema>;

/**
 * The nominal grid the Sheets remote draws (a row-number column 50 px wide, a header line 30 px
 * high, columns 120 px wide, rows 23 px high): how a chart box stored in pixels before boxes were
 * anchored to cells is read (legacyChartBox), and where a client without a laid-out grid places one.
 */
export const CHART_NOMINAL_GRID = { rowHeaderWidth: 50, columnHeaderHeight: 30, columnWidth: 120, rowHeight: 23 } as const;

/**
 * A box stored before boxes were anchored (`{x, y, width, height}`: pixels from the grid's top
 * left, headers included) as the cell under its top-left corner and the offset into it, on the
 * nominal grid: it shows where it showed, and moves with its cells from then on. Anything else is
 * returned as it came (the anchored schema judges it).
 */
export function legacyChartBox(box: unknown): unknown {
  if (typeof box !== 'object' || box === null || !('x' in box) || !('y' in box) || 'row' in box || 'col' in box) return box;
  const { x, y, ...rest } = box as { x: unknown; y: unknown };
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return box;
  const g = CHART_NOMINAL_GRID;
  const left = Math.max(0, Math.round(x) - g.rowHeaderWidth);
  const top = Math.max(0, Math.round(y) - g.columnHeaderHeight);
  const col = Math.min(SHEET_MAX_COLUMNS - 1, Math.floor(left / g.columnWidth));
  const row = Math.min(SHEET_MAX_ROWS - 1, Math.floor(top / g.rowHeight));
  return { ...rest, row, col, dx: Math.min(CHART_MAX_OFFSET, left - col * g.columnWidth), dy: Math.min(CHART_MAX_OFFSET, top - row * g.rowHeight) };
}

/**
 * The chart's box over the grid, anchored to a cell as in Excel and Sheets: its top-left corner is
 * `dx`, `dy` pixels into the cell (`row`, `col`), so rows or columns inserted above or left of it
 * move it with its cells (chart-range.ts); its size is in pixels. A box in the older pixel form
 * (`x`, `y`) is read as the cell under it (legacyChartBox).
 */
export const ChartBoxSchema = z.preprocess(
  legacyChartBox,
  z.strictObject({
    row: Row,
    col: Col,
    dx: z.number().int().min(0).max(CHART_MAX_OFFSET),
    dy: z.number().int().min(0).max(CHART_MAX_OFFSET),
    width: z.number().int().min(CHART_MIN_SIZE).max(CHART_MAX_SIZE),
    height: z.number().int().min(CHART_MIN_SIZE).max(CHART_MAX_SIZE),
  }),
);
export type ChartBox = z.infer<typeof ChartBoxSchema>;

/** What a user chooses in the Insert chart dialog (and may change later). */
export const ChartOptionsSchema = z.strictObject({
  type: ChartTypeSchema,
  range: ChartRangeSchema,
  categories: ChartCategorySourceSchema,
  title: z.string().trim().max(CHART_TITLE_MAX_LENGTH),
  x_axis_title: z.string().trim().max(CHART_AXIS_TITLE_MAX_LENGTH),
  y_axis_title: z.string().trim().max(CHART_AXIS_TITLE_MAX_LENGTH),
  legend: ChartLegendPositionSchema,
  /** Columns, bars and areas stacked on each other (ignored by line, pie and scatter). */
  stacked: z.boolean(),
  box: ChartBoxSchema,
});
export type ChartOptions = z.infer<typeof ChartOptionsSchema>;

/**
 * A chart as stored in the sheet's metadata. Its range is null once every one of its cells was
 * removed: the chart stays (as in Sheets or Excel), says that its cells were deleted and keeps its
 * options, until an editor gives it a new range or deletes it.
 */
export const ChartDefinitionSchema = ChartOptionsSchema.extend({ id: z.uuid({ error: 'Invalid chart id' }), range: ChartRangeSchema.nullable() });
export type ChartDefinition = z.infer<typeof ChartDefinitionSchema>;

export const SheetChartsSchema = z.array(ChartDefinitionSchema).max(SHEET_MAX_CHARTS);

/**
 * A chart write's options with the sheet version its author saw them at (`base_version`, as a
 * live operation has): the server moves the range through the row and column inserts and removes
 * committed since (as it moves a live op's cells), so a chart written from a view that had not yet
 * received another user's insert still charts the same cells. Without it the range is taken as current.
 */
const ChartWriteBodySchema = ChartOptionsSchema.extend({ base_version: z.number().int().min(1).optional() });
/** POST {api}/sheets/:id/charts. */
export const CreateChartBodySchema = ChartWriteBodySchema;
export type CreateChartBody = z.infer<typeof ChartWriteBodySchema>;
/** PUT {api}/sheets/:id/charts/:chartId: the whole new definition (the id stays); range null keeps a chart whose cells were deleted so (a move, a new title). */
export const UpdateChartBodySchema = ChartWriteBodySchema.extend({ range: ChartRangeSchema.nullable() });
export type UpdateChartBody = z.infer<typeof UpdateChartBodySchema>;

/** The answer of a chart change: the sheet's charts and version after it (and, on create, the new chart). */
export const ChartsResultSchema = z.object({ version: z.number().int(), charts: SheetChartsSchema, chart: ChartDefinitionSchema.optional() });
export type ChartsResult = z.infer<typeof ChartsResultSchema>;

/** The charts in a sheet's metadata; anything stored that does not parse is left out, not shown broken. */
export function chartsOf(metadata: Record<string, unknown> | undefined | null): ChartDefinition[] {
  const list = metadata?.charts;
  if (!Array.isArray(list)) return [];
  return list.flatMap((c) => {
    const parsed = ChartDefinitionSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
}

export const CHART_TEXTS = {
  insert: 'Insert chart',
  dialogTitle: 'Insert chart',
  xlsxNote: 'XLSX export keeps the data but not the charts.',
  tooMany: `A sheet holds at most ${SHEET_MAX_CHARTS} charts`,
  notFound: 'Chart not found',
  /** Shown in a chart whose cells were all removed (its range is null). */
  rangeDeleted: 'The cells this chart showed were deleted. Choose a new range in Edit chart, or delete the chart.',
  /** A chart made on an older version whose cells were all removed since. */
  rangeGone: 'The chart was not saved: its cells were removed by someone else first',
  noRange: 'Select a range of cells to chart',
  delete: 'Delete',
  downloadPng: 'Download PNG',
  downloadSvg: 'Download SVG',
  swap: 'Swap rows and columns',
  categoriesFirstColumn: 'Categories from the first column',
  categoriesHeaderRow: 'Categories from the header row',
} as const;
