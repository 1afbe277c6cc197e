import type { CellValue, ChartCategorySource } from '@tessera/contracts';
import { CHART_MAX_POINTS, type ChartSource, extractChartData } from './chart-data.js';
import { type ChangedCell, ChartDataCache } from './chart-data-cache.js';

type Grid = CellValue[][];

/** A deterministic stream of numbers, so every run checks the same edits. */
function random(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
}

/** Every kind of cell a chart reads: numbers, numbers as text, blanks, text in a number column, dates, percentages. */
const VALUES: CellValue[] = [12, -3.5, 0, ' 42 ', '1,234.5', '12%', null, '', '   ', 'n/a', 'North', '2024-03-01', '2024-03-01T10:30:00Z', true, 7];

function set(grid: Grid, row: number, col: number, value: CellValue) {
  while (grid.length <= row) grid.push([]);
  grid[row]![col] = value;
}

/** The cache after these cells changed, and a whole read of the grid as it is now: they must be equal. */
function expectSame(cache: ChartDataCache, grid: Grid, headers: string[], source: ChartSource, cells: ChangedCell[] | null) {
  const updated = cache.update(cells);
  expect(updated).toEqual(extractChartData(grid, headers, source));
  return updated;
}

describe('a chart’s data kept across edits equals the range read whole', () => {
  const headers = ['Day', 'Amount', 'Cost'];

  test.each<[string, ChartCategorySource, { start_row: number; end_row: number; start_col: number; end_col: number }]>([
    ['categories in the first column, two series', 'first_column', { start_row: 1, end_row: 60, start_col: 0, end_col: 2 }],
    ['one column (categories: row numbers)', 'first_column', { start_row: 0, end_row: 40, start_col: 1, end_col: 1 }],
    ['read across (a header row), series named by their first cell', 'header_row', { start_row: 0, end_row: 3, start_col: 0, end_col: 40 }],
    ['one row read across (categories: column letters)', 'header_row', { start_row: 2, end_row: 2, start_col: 1, end_col: 30 }],
  ])('%s: after single cells, blanks, text in number columns, dates, whole lines blanked and filled, edits outside', (_, categories, range) => {
    const source: ChartSource = { range, categories };
    const next = random(7);
    const grid: Grid = Array.from({ length: 70 }, (_, r) => Array.from({ length: 45 }, (_, c) => (c === 0 ? `Day ${r}` : r * 10 + c)));
    const cache = new ChartDataCache(grid, headers, source);
    expect(cache.data).toEqual(extractChartData(grid, headers, source));
    for (let step = 0; step < 400; step++) {
      const cells: ChangedCell[] = [];
      // Mostly one cell (a typed value), sometimes a few (a paste), sometimes a whole line blanked.
      const kind = next(10);
      if (kind < 7) {
        const row = next(72);
        const col = next(46);
        set(grid, row, col, VALUES[next(VALUES.length)]!);
        cells.push({ row, col });
      } else if (kind < 9) {
        for (let i = next(5); i >= 0; i--) {
          const row = next(72);
          const col = next(46);
          set(grid, row, col, VALUES[next(VALUES.length)]!);
          cells.push({ row, col });
        }
      } else {
        const line = next(70);
        for (let c = 0; c < 46; c++) {
          if (categories === 'first_column') set(grid, line, c, null);
          else set(grid, c % 5, line, null);
          cells.push(categories === 'first_column' ? { row: line, col: c } : { row: c % 5, col: line });
        }
      }
      expectSame(cache, grid, headers, source, cells);
    }
  });

  test('read across, a series renamed (its first cell) or its name blanked: the names follow', () => {
    const source: ChartSource = { range: { start_row: 0, end_row: 2, start_col: 0, end_col: 4 }, categories: 'header_row' };
    const grid: Grid = [['', 'Q1', 'Q2', 'Q3', 'Q4'], ['North', 1, 2, 3, 4], ['South', 5, 6, 7, 8]];
    const cache = new ChartDataCache(grid, headers, source);
    grid[1]![0] = 'East';
    expect(expectSame(cache, grid, headers, source, [{ row: 1, col: 0 }]).series.map((s) => s.name)).toEqual(['East', 'South']);
    grid[2]![0] = null;
    expect(expectSame(cache, grid, headers, source, [{ row: 2, col: 0 }]).series.map((s) => s.name)).toEqual(['East', 'Row 3']);
  });

  test('rows inserted and removed (anything may have changed) are read whole', () => {
    const source: ChartSource = { range: { start_row: 0, end_row: 30, start_col: 0, end_col: 1 }, categories: 'first_column' };
    const grid: Grid = Array.from({ length: 30 }, (_, r) => [`R${r}`, r]);
    const cache = new ChartDataCache(grid, headers, source);
    grid.splice(3, 0, ['new', 999], ['new 2', 'text']);
    expectSame(cache, grid, headers, source, null);
    grid.splice(10, 4);
    expectSame(cache, grid, headers, source, null);
    grid[5]![1] = -1;
    expectSame(cache, grid, headers, source, [{ row: 5, col: 1 }]);
  });

  test('past CHART_MAX_POINTS: a line filled before the cut pushes the last point out, a line blanked lets one in', () => {
    const source: ChartSource = { range: { start_row: 0, end_row: CHART_MAX_POINTS + 4, start_col: 0, end_col: 1 }, categories: 'first_column' };
    const grid: Grid = Array.from({ length: CHART_MAX_POINTS + 5 }, (_, r) => [String(r), r % 3 === 0 ? 'n/a' : r]);
    grid[10] = [null, null];
    const cache = new ChartDataCache(grid, headers, source);
    expect(cache.data.truncated).toBe(4);
    grid[10] = ['ten', 10];
    expect(expectSame(cache, grid, headers, source, [{ row: 10, col: 0 }, { row: 10, col: 1 }]).truncated).toBe(5);
    grid[20] = ['', ''];
    grid[30]![1] = 'text';
    expect(expectSame(cache, grid, headers, source, [{ row: 20, col: 0 }, { row: 20, col: 1 }, { row: 30, col: 1 }]).truncated).toBe(4);
  });

  test('an edit outside the range keeps the same data (nothing redraws); one inside gives new data', () => {
    const source: ChartSource = { range: { start_row: 0, end_row: 9, start_col: 0, end_col: 1 }, categories: 'first_column' };
    const grid: Grid = Array.from({ length: 20 }, (_, r) => [`R${r}`, r, r]);
    const cache = new ChartDataCache(grid, headers, source);
    const before = cache.data;
    grid[15]![1] = 5;
    grid[3]![2] = 5;
    expect(cache.update([{ row: 15, col: 1 }, { row: 3, col: 2 }])).toBe(before);
    grid[3]![1] = 'n/a';
    const after = cache.update([{ row: 3, col: 1 }]);
    expect(after).not.toBe(before);
    expect(after.skipped).toBe(1);
    expect(after.points[3]!.s0).toBeNull();
  });

  test('formula values follow cells outside themselves: with them every update reads the whole range', () => {
    const source: ChartSource = { range: { start_row: 0, end_row: 2, start_col: 0, end_col: 1 }, categories: 'first_column' };
    const grid: Grid = [['a', '=C1*2'], ['b', 2], ['c', 3]];
    let c1 = 1;
    const computed = (row: number, col: number) => (row === 0 && col === 1 ? c1 * 2 : undefined);
    const cache = new ChartDataCache(grid, headers, source, computed);
    expect(cache.data.points[0]!.s0).toBe(2);
    c1 = 21;
    grid[0]![2] = 21;
    expect(cache.update([{ row: 0, col: 2 }]).points[0]!.s0).toBe(42);
  });
});
