import type { StructureStep } from '../live/transform-position.js';
import { SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import { applyChartChange, moveChartBox, moveChartRange, moveCharts } from './chart-range.js';
import {
  type ChartDefinition,
  ChartBoxSchema,
  ChartDefinitionSchema,
  ChartOptionsSchema,
  chartsOf,
  CreateChartBodySchema,
  UpdateChartBodySchema,
  SHEET_MAX_CHARTS,
  SheetChartsSchema,
} from './chart.schema.js';

const rowsInsert = (index: number, count: number): StructureStep => ({ type: 'rows_insert', index, count });
const rowsRemove = (index: number, count: number): StructureStep => ({ type: 'rows_remove', index, count });
const colsInsert = (index: number, count: number): StructureStep => ({ type: 'columns_insert', index, count });
const colsRemove = (index: number, count: number): StructureStep => ({ type: 'columns_remove', index, count });

/** Rows 2..5, columns 1..3 (B3:D6 as a user sees it). */
const range = { start_row: 2, start_col: 1, end_row: 5, end_col: 3 };
const rowsOf = (r: ReturnType<typeof moveChartRange>) => r && [r.start_row, r.end_row];
const colsOf = (r: ReturnType<typeof moveChartRange>) => r && [r.start_col, r.end_col];

const options = {
  type: 'column' as const,
  range,
  categories: 'first_column' as const,
  title: 'Sales',
  x_axis_title: 'Region',
  y_axis_title: 'Amount',
  legend: 'bottom' as const,
  stacked: false,
  box: { row: 0, col: 5, dx: 10, dy: 4, width: 480, height: 300 },
};
const chart = (id: string, r = range): ChartDefinition => ({ ...options, id, range: r });

describe('a chart range through row inserts', () => {
  test('inserting rows above it moves it down', () => {
    expect(rowsOf(moveChartRange(range, rowsInsert(0, 3)))).toEqual([5, 8]);
  });
  test('inserting at its first row moves it (the new rows are above the data)', () => {
    expect(rowsOf(moveChartRange(range, rowsInsert(2, 1)))).toEqual([3, 6]);
  });
  test('inserting inside it grows it', () => {
    expect(rowsOf(moveChartRange(range, rowsInsert(3, 2)))).toEqual([2, 7]);
    expect(rowsOf(moveChartRange(range, rowsInsert(5, 1)))).toEqual([2, 6]);
  });
  test('inserting just below it changes nothing (the same object comes back)', () => {
    expect(moveChartRange(range, rowsInsert(6, 4))).toBe(range);
  });
  test('columns stay as they were when rows move', () => {
    expect(colsOf(moveChartRange(range, rowsInsert(0, 3)))).toEqual([1, 3]);
  });
  test('pushed past the last row of a sheet: it keeps what is inside, or is gone', () => {
    const low = { ...range, start_row: SHEET_MAX_ROWS - 3, end_row: SHEET_MAX_ROWS - 1 };
    expect(rowsOf(moveChartRange(low, rowsInsert(SHEET_MAX_ROWS - 2, 5)))).toEqual([SHEET_MAX_ROWS - 3, SHEET_MAX_ROWS - 1]);
    expect(moveChartRange(low, rowsInsert(0, 10))).toBeNull();
  });
});

describe('a chart range through row removes', () => {
  test('removing rows above it moves it up', () => {
    expect(rowsOf(moveChartRange(range, rowsRemove(0, 2)))).toEqual([0, 3]);
  });
  test('removing rows inside it shrinks it', () => {
    expect(rowsOf(moveChartRange(range, rowsRemove(3, 2)))).toEqual([2, 3]);
  });
  test('removing across its top edge shrinks it and moves it up', () => {
    // Rows 1..3 go: row 1 was above, 2..3 inside; 4..5 are left and become 1..2.
    expect(rowsOf(moveChartRange(range, rowsRemove(1, 3)))).toEqual([1, 2]);
  });
  test('removing across its bottom edge shrinks it', () => {
    expect(rowsOf(moveChartRange(range, rowsRemove(4, 10)))).toEqual([2, 3]);
  });
  test('removing rows below it changes nothing', () => {
    expect(moveChartRange(range, rowsRemove(6, 3))).toBe(range);
  });
  test('removing every row of it leaves no range', () => {
    expect(moveChartRange(range, rowsRemove(2, 4))).toBeNull();
    expect(moveChartRange(range, rowsRemove(0, 100))).toBeNull();
  });
});

describe('a chart range through column inserts and removes', () => {
  test('inserting columns left of it moves it right; inside grows it; right of it nothing', () => {
    expect(colsOf(moveChartRange(range, colsInsert(0, 2)))).toEqual([3, 5]);
    expect(colsOf(moveChartRange(range, colsInsert(1, 1)))).toEqual([2, 4]);
    expect(colsOf(moveChartRange(range, colsInsert(2, 3)))).toEqual([1, 6]);
    expect(moveChartRange(range, colsInsert(4, 1))).toBe(range);
  });
  test('removing columns left of it moves it left; inside shrinks it; all of it leaves no range', () => {
    expect(colsOf(moveChartRange(range, colsRemove(0, 1)))).toEqual([0, 2]);
    expect(colsOf(moveChartRange(range, colsRemove(2, 1)))).toEqual([1, 2]);
    expect(colsOf(moveChartRange(range, colsRemove(0, 2)))).toEqual([0, 1]);
    expect(moveChartRange(range, colsRemove(1, 3))).toBeNull();
  });
  test('rows stay as they were when columns move', () => {
    expect(rowsOf(moveChartRange(range, colsRemove(0, 1)))).toEqual([2, 5]);
  });
});

describe('the charts of a sheet through a structure op', () => {
  const a = chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01');
  const b = chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a02', { start_row: 20, start_col: 0, end_row: 30, end_col: 1 });
  test('each is moved on its own; an untouched one is kept as it was', () => {
    const { charts, changed } = moveCharts([a, b], rowsInsert(10, 5));
    expect(changed).toBe(true);
    expect(charts[0]).toBe(a);
    expect(rowsOf(charts[1].range)).toEqual([25, 35]);
  });
  test('a chart whose whole range is removed stays, with no range (it says its cells were deleted); the others move', () => {
    const { charts, changed } = moveCharts([a, b], rowsRemove(2, 4));
    expect(changed).toBe(true);
    expect(charts.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(charts[0]).toEqual({ ...a, range: null });
    expect(rowsOf(charts[1].range)).toEqual([16, 26]);
    // And stays so through later ops: rows inserted where it was do not bring it back.
    const later = moveCharts(charts, rowsInsert(0, 3));
    expect(later.charts[0].range).toBeNull();
    expect(ChartDefinitionSchema.parse(charts[0]).range).toBeNull();
  });
  test('nothing touched: not changed', () => {
    expect(moveCharts([a, b], colsInsert(50, 1)).changed).toBe(false);
  });
});

describe('the chart contract', () => {
  test('a dialog body parses; the id is the server’s', () => {
    expect(CreateChartBodySchema.parse(options)).toEqual(options);
    expect(CreateChartBodySchema.safeParse({ ...options, id: 'x' }).success).toBe(false);
  });
  test('a new chart needs a range; a change may keep a chart whose cells were deleted (range null)', () => {
    expect(CreateChartBodySchema.safeParse({ ...options, range: null }).success).toBe(false);
    expect(UpdateChartBodySchema.parse({ ...options, range: null, base_version: 3 })).toEqual({ ...options, range: null, base_version: 3 });
  });
  test('a range that ends before it starts, an unknown type or a tiny box is refused', () => {
    expect(ChartOptionsSchema.safeParse({ ...options, range: { ...range, end_row: 1 } }).success).toBe(false);
    expect(ChartOptionsSchema.safeParse({ ...options, type: 'radar' }).success).toBe(false);
    expect(ChartOptionsSchema.safeParse({ ...options, box: { ...options.box, width: 3 } }).success).toBe(false);
    expect(ChartOptionsSchema.safeParse({ ...options, title: 'x'.repeat(201) }).success).toBe(false);
  });
  test(`a sheet holds at most ${SHEET_MAX_CHARTS} charts`, () => {
    const many = Array.from({ length: SHEET_MAX_CHARTS + 1 }, (_, i) => chart(`7b0e3f4c-1c1d-4a39-9a43-${String(i).padStart(12, '0')}`));
    expect(SheetChartsSchema.safeParse(many.slice(0, SHEET_MAX_CHARTS)).success).toBe(true);
    expect(SheetChartsSchema.safeParse(many).success).toBe(false);
  });
  test('chartsOf reads metadata.charts and leaves out what does not parse', () => {
    const one = chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01');
    expect(chartsOf({ charts: [one, { nonsense: true }] })).toEqual([ChartDefinitionSchema.parse(one)]);
    expect(chartsOf({})).toEqual([]);
    expect(chartsOf(undefined)).toEqual([]);
  });
});

describe('a chart change as a live frame brings it', () => {
  const a = chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01');
  const b = chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a02');
  test('a new chart is added after the others; a changed one replaced in place; null removes it', () => {
    expect(applyChartChange([a], b.id, b)).toEqual([a, b]);
    expect(applyChartChange([a, b], a.id, { ...a, title: 'New' })).toEqual([{ ...a, title: 'New' }, b]);
    expect(applyChartChange([a, b], a.id, null)).toEqual([b]);
    expect(applyChartChange([b], a.id, null)).toEqual([b]);
  });
});

describe('a chart box anchored to its top-left cell', () => {
  /** Top-left corner 10 px into C5 (row 4, column 2). */
  const box = { row: 4, col: 2, dx: 10, dy: 6, width: 480, height: 300 };
  test('rows inserted above (or at) its cell move it down with the cell; below it, nothing', () => {
    expect(moveChartBox(box, rowsInsert(0, 3))).toEqual({ ...box, row: 7 });
    expect(moveChartBox(box, rowsInsert(4, 1))).toEqual({ ...box, row: 5 });
    expect(moveChartBox(box, rowsInsert(5, 10))).toBe(box);
  });
  test('rows removed above move it up; its own row removed puts it at the edge of the row that takes its place', () => {
    expect(moveChartBox(box, rowsRemove(0, 2))).toEqual({ ...box, row: 2 });
    expect(moveChartBox(box, rowsRemove(3, 4))).toEqual({ ...box, row: 3, dy: 0 });
    expect(moveChartBox(box, rowsRemove(5, 4))).toBe(box);
  });
  test('columns the same way, left of it; its size never changes', () => {
    expect(moveChartBox(box, colsInsert(1, 2))).toEqual({ ...box, col: 4 });
    expect(moveChartBox(box, colsRemove(0, 1))).toEqual({ ...box, col: 1 });
    expect(moveChartBox(box, colsRemove(2, 1))).toEqual({ ...box, col: 2, dx: 0 });
    expect(moveChartBox(box, colsInsert(3, 1))).toBe(box);
  });
  test('pushed past the last row it stays on the last one', () => {
    expect(moveChartBox({ ...box, row: SHEET_MAX_ROWS - 2 }, rowsInsert(0, 5)).row).toBe(SHEET_MAX_ROWS - 1);
  });
  test('moveCharts moves the box with the range, and a chart with no range still moves its box', () => {
    const c = { ...chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01'), box };
    const moved = moveCharts([c, { ...c, range: null }], rowsInsert(0, 2));
    expect(moved.changed).toBe(true);
    expect(moved.charts.map((m) => [m.range?.start_row ?? null, m.box.row])).toEqual([
      [4, 6],
      [null, 6],
    ]);
  });
  test('a box stored in pixels before boxes were anchored is read as the cell under its top-left corner, on the nominal grid', () => {
    // 314 px from the left edge: past the 50 px row numbers, 264 px = column C (2 × 120) + 24; 76 px down: 30 px header, 46 = row 3 (2 × 23) + 0.
    expect(ChartBoxSchema.parse({ x: 314, y: 76, width: 480, height: 300 })).toEqual({ row: 2, col: 2, dx: 24, dy: 0, width: 480, height: 300 });
    expect(ChartBoxSchema.parse({ x: 0, y: 0, width: 480, height: 300 })).toEqual({ row: 0, col: 0, dx: 0, dy: 0, width: 480, height: 300 });
    const stored = { ...chart('7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01'), box: { x: 10, y: 20, width: 480, height: 300 } };
    expect(chartsOf({ charts: [stored] })[0].box).toEqual({ row: 0, col: 0, dx: 0, dy: 0, width: 480, height: 300 });
    // Neither form: refused.
    expect(ChartBoxSchema.safeParse({ x: 10, row: 1, width: 480, height: 300 }).success).toBe(false);
    expect(ChartBoxSchema.safeParse({ x: 'a', y: 1, width: 480, height: 300 }).success).toBe(false);
  });
});
