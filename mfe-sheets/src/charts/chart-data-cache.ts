import type { ChangedCellRef } from '../workspace/session/cell-change-log.js';
import { assembleChartData, type ChartData, type ChartGrid, type ChartLine, chartReader, type ChartReader, type ChartSource, type ComputedValue, readLines } from './chart-data.js';

/** A cell that changed (its value is read again from the grid, never taken from the change). */
export type ChangedCell = ChangedCellRef;

/**
 * A chart's data kept across edits: after an edit of a few cells only their lines are read
 * again (parsing 10,000 rows of text for one cell was most of a chart's own share of the update),
 * then the points are put together from the lines as read, as a whole read does (chart-data.ts:
 * the same reader, so the result is the same, truncation and counts included). The cells are read
 * from the grid, not from the change: a value held back for an open editor is read as the grid
 * has it, as a whole read would. Anything it cannot follow cell by cell is read whole: a sheet
 * with formulas (a formula's value follows cells outside its own), a cell that names a series,
 * or an unknown change (null: rows or columns moved, the sheet replaced).
 */
export class ChartDataCache {
  readonly grid: ChartGrid;
  readonly headers: readonly string[];
  readonly source: ChartSource;
  readonly computed: ComputedValue | null;
  private reader: ChartReader;
  private lines: (ChartLine | null)[];
  data: ChartData;

  constructor(grid: ChartGrid, headers: readonly string[], source: ChartSource, computed: ComputedValue | null = null) {
    this.grid = grid;
    this.headers = headers;
    this.source = source;
    this.computed = computed;
    this.reader = chartReader(grid, headers, source, computed);
    this.lines = readLines(this.reader);
    this.data = assembleChartData(this.reader.series, this.lines);
  }

  /** Reads what these cells change (null: anything may have changed); a new data object when the chart must redraw. */
  update(cells: readonly ChangedCell[] | null): ChartData {
    if (cells === null || this.computed !== null) return this.readAll();
    const touched = new Set<number>();
    for (const { row, col } of cells) {
      const line = this.reader.lineOf(row, col);
      if (line === 'names') return this.readAll();
      if (line >= 0) touched.add(line);
    }
    if (touched.size === 0) return this.data;
    const first = this.reader.firstLine;
    for (const line of touched) this.lines[line - first] = this.reader.readLine(line);
    this.data = assembleChartData(this.reader.series, this.lines);
    return this.data;
  }

  private readAll(): ChartData {
    this.reader = chartReader(this.grid, this.headers, this.source, this.computed);
    this.lines = readLines(this.reader);
    this.data = assembleChartData(this.reader.series, this.lines);
    return this.data;
  }
}
