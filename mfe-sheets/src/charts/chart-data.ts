import { type CellValue, type ChartCategorySource, type ChartRange, columnLabel } from '@tessera/contracts';
import { isFormula } from '../workspace/grid/grid-shape.js';

/**
 * What a chart draws, read from the sheet's cells (issue 20): one pure function, so the layer over
 * the grid and its tests agree. Values are numbers or gaps: a blank cell is a gap (the line breaks,
 * the bar is missing), a number written as text ("1,234.5", " 42 ", "12%") is its number, any other
 * text is a gap too and is counted in `skipped`, so the chart can say why a point is missing.
 * Categories are the cells' text; dates (ISO text such as 2024-03-01) are kept as written and
 * marked, so a scatter or line can place them in time. A formula cell is charted by its computed
 * value (asked of `computed`, the grid's formula engine), never by its text.
 */

/** Most points (rows, or columns read across) one chart draws: past them the range is cut. */
export const CHART_MAX_POINTS = 10_000;

export interface ChartSeries {
  /** The key of its values in each point ('s0', 's1'...). */
  key: string;
  name: string;
}

export interface ChartPoint {
  category: string;
  /** The category as a number where it is one (a date: its time in ms), for a scatter's x axis. */
  x: number | null;
  [seriesKey: string]: string | number | null;
}

export interface ChartData {
  series: ChartSeries[];
  points: ChartPoint[];
  /** 'date' when every non-blank category is a date, 'number' when each is a number, else 'text'. */
  categoryKind: 'text' | 'number' | 'date';
  /** Text cells where a number was expected (drawn as gaps). */
  skipped: number;
  /** Points left out past CHART_MAX_POINTS. */
  truncated: number;
}

const NUMBER_TEXT = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?(e[+-]?\d+)?%?$/i;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A cell as a number, null for a blank, undefined for text that is not a number. */
export function cellNumber(value: CellValue | undefined): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return undefined;
  const text = value.trim();
  if (text === '') return null;
  if (!NUMBER_TEXT.test(text) || !/\d/.test(text)) return undefined;
  const n = Number(text.replace(/,/g, '').replace(/%$/, ''));
  if (!Number.isFinite(n)) return undefined;
  return text.endsWith('%') ? n / 100 : n;
}

/** A cell as a date's time (ms), or null when it is not a date written as ISO text. */
export function cellDate(value: CellValue | undefined): number | null {
  if (typeof value !== 'string' || !DATE_TEXT.test(value.trim())) return null;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? null : time;
}

const cellText = (value: CellValue | undefined): string => (value === null || value === undefined ? '' : String(value).trim());

/** A formula cell's computed value, as the grid shows it (undefined: not computed, a gap). */
export type ComputedValue = (row: number, col: number) => CellValue | undefined;

/**
 * The cells a chart reads, by absolute row: a sheet's rows held whole, or (a windowed sheet, issue 23)
 * a function giving the rows of the chart's range kept for it (undefined: a row not there is blank).
 */
export type ChartGrid = readonly (readonly CellValue[])[] | ((row: number) => readonly CellValue[] | undefined);

/**
 * The rows [start, end) a chart reads of a sheet not held whole (a windowed one): at most its first
 * CHART_MAX_POINTS lines — first_column: rows, each a point; header_row: the categories' row and at
 * most CHART_MAX_POINTS series rows after it (its points are columns). A range longer than that draws
 * its first lines only, where a sheet held whole skips blank lines to find CHART_MAX_POINTS points.
 */
export function chartRowSpan(range: ChartRange, categories: ChartCategorySource): { start: number; end: number } {
  const most = categories === 'header_row' ? CHART_MAX_POINTS + 1 : CHART_MAX_POINTS;
  return { start: range.start_row, end: Math.min(range.end_row + 1, range.start_row + most) };
}

export interface ChartSource {
  range: ChartRange;
  categories: ChartCategorySource;
}

/** One line of a range as read: its point (x already set), the text cells it left out, what its category is. */
export interface ChartLine {
  point: ChartPoint;
  skipped: number;
  /** 'none': no category; else the category's kind. */
  label: 'none' | 'date' | 'number' | 'text';
}

/**
 * How a chart reads its range, line by line, so a whole read (extractChartData) and a read of a
 * few edited lines (chart-data-cache.ts) are the same code and cannot disagree.
 */
export interface ChartReader {
  series: ChartSeries[];
  /** Lines before this one name the series (header_row with several rows): not points. */
  firstLine: number;
  lineCount: number;
  /** The line's point, or null for a wholly blank line (not a point). */
  readLine(line: number): ChartLine | null;
  /** The line a cell belongs to; -1 outside the range; 'names' for a cell that names a series. */
  lineOf(row: number, col: number): number | 'names';
}

/**
 * The reader of a chart's range in `grid` (rows of cells; missing cells are blank).
 * first_column: a point per row, its category the first cell, a series per other column, named by
 * the sheet's header. header_row: read across — the range's first row holds the categories, each
 * other row is a series named by its first cell. A one-column (one-row) range is a single series
 * whose categories are the row numbers (column letters). Formula cells are read through `computed`
 * (without it they are gaps: their text is not a value).
 */
export function chartReader(
  grid: ChartGrid,
  headers: readonly string[],
  source: ChartSource,
  computed: ComputedValue | null = null,
): ChartReader {
  const { range } = source;
  const rowAt = typeof grid === 'function' ? grid : (r: number) => grid[r];
  const at = (r: number, c: number): CellValue | undefined => {
    const raw = rowAt(r)?.[c];
    if (!isFormula(raw)) return raw;
    return computed ? computed(r, c) : undefined;
  };
  const across = source.categories === 'header_row';
  // In the chart's terms: "lines" are the points, "lanes" the series.
  const lineCount = across ? range.end_col - range.start_col + 1 : range.end_row - range.start_row + 1;
  const laneCount = across ? range.end_row - range.start_row + 1 : range.end_col - range.start_col + 1;
  const value = (line: number, lane: number) => (across ? at(range.start_row + lane, range.start_col + line) : at(range.start_row + line, range.start_col + lane));
  const single = laneCount === 1;
  // With more than one lane, the first holds the categories; with a header row, the first line names the series.
  const firstLane = single ? 0 : 1;
  const firstLine = across && !single ? 1 : 0;
  const series: ChartSeries[] = [];
  for (let lane = firstLane; lane < laneCount; lane++) {
    const name = across
      ? cellText(at(range.start_row + lane, range.start_col)) || `Row ${range.start_row + lane + 1}`
      : headers[range.start_col + lane] || columnLabel(range.start_col + lane);
    series.push({ key: `s${series.length}`, name });
  }
  const readLine = (line: number): ChartLine | null => {
    const rawCategory = single ? undefined : value(line, 0);
    const category = single ? (across ? columnLabel(range.start_col + line) : String(range.start_row + line + 1)) : cellText(rawCategory);
    const point: ChartPoint = { category, x: null };
    let any = category !== '';
    let skipped = 0;
    for (const [i, s] of series.entries()) {
      const n = cellNumber(value(line, firstLane + i));
      if (n === undefined) skipped++;
      else if (n !== null) any = true;
      point[s.key] = n ?? null;
    }
    // Blank lines (a whole-column selection's empty tail) are not points.
    if (!any) return null;
    let label: ChartLine['label'] = 'none';
    if (category !== '') {
      label = 'text';
      const date = single ? null : cellDate(rawCategory);
      const n = single ? Number(category) : cellNumber(rawCategory);
      if (date !== null) {
        label = 'date';
        point.x = date;
      } else if (typeof n === 'number') {
        label = 'number';
        point.x = n;
      }
    }
    return { point, skipped, label };
  };
  const lineOf = (row: number, col: number): number | 'names' => {
    if (row < range.start_row || row > range.end_row || col < range.start_col || col > range.end_col) return -1;
    const line = across ? col - range.start_col : row - range.start_row;
    // Read across, the first column's cells name the series.
    return line < firstLine ? 'names' : line;
  };
  return { series, firstLine, lineCount, readLine, lineOf };
}

/** The chart's data from its lines as read (null: a blank line): the first CHART_MAX_POINTS points, and the counts. */
export function assembleChartData(series: ChartSeries[], lines: readonly (ChartLine | null)[]): ChartData {
  const points: ChartPoint[] = [];
  let skipped = 0;
  let truncated = 0;
  let dates = 0;
  let numbers = 0;
  let labelled = 0;
  for (const line of lines) {
    if (!line) continue;
    if (points.length >= CHART_MAX_POINTS) {
      truncated++;
      continue;
    }
    skipped += line.skipped;
    if (line.label !== 'none') {
      labelled++;
      if (line.label === 'date') dates++;
      else if (line.label === 'number') numbers++;
    }
    points.push(line.point);
  }
  const categoryKind = labelled > 0 && dates === labelled ? 'date' : labelled > 0 && numbers === labelled ? 'number' : 'text';
  return { series, points, categoryKind, skipped, truncated };
}

/** Every line of the range as read (null: blank), the lines before `firstLine` left out. */
export function readLines(reader: ChartReader): (ChartLine | null)[] {
  const lines: (ChartLine | null)[] = [];
  for (let line = reader.firstLine; line < reader.lineCount; line++) lines.push(reader.readLine(line));
  return lines;
}

/** The series and points of a chart's range in `grid`: every line read (see chartReader). */
export function extractChartData(
  grid: ChartGrid,
  headers: readonly string[],
  source: ChartSource,
  computed: ComputedValue | null = null,
): ChartData {
  const reader = chartReader(grid, headers, source, computed);
  return assembleChartData(reader.series, readLines(reader));
}
