import { cellDate, cellNumber, CHART_MAX_POINTS, extractChartData } from './chart-data.js';

const firstColumn = (end_row: number, end_col: number, start_row = 0, start_col = 0) => ({
  range: { start_row, start_col, end_row, end_col },
  categories: 'first_column' as const,
});

describe('a cell as a chart value', () => {
  test('numbers, numbers written as text, percentages; blanks are gaps; other text is not a number', () => {
    expect(cellNumber(12.5)).toBe(12.5);
    expect(cellNumber(' 42 ')).toBe(42);
    expect(cellNumber('1,234.5')).toBe(1234.5);
    expect(cellNumber('-3e2')).toBe(-300);
    expect(cellNumber('12%')).toBeCloseTo(0.12);
    expect(cellNumber('')).toBeNull();
    expect(cellNumber('   ')).toBeNull();
    expect(cellNumber(null)).toBeNull();
    expect(cellNumber(undefined)).toBeNull();
    expect(cellNumber('n/a')).toBeUndefined();
    expect(cellNumber('12 apples')).toBeUndefined();
    expect(cellNumber('1,2,3')).toBeUndefined();
    expect(cellNumber('.')).toBeUndefined();
    expect(cellNumber(true)).toBeUndefined();
  });
  test('dates are ISO text; anything else is not one', () => {
    expect(cellDate('2024-03-01')).toBe(Date.parse('2024-03-01'));
    expect(cellDate('2024-03-01T10:30:00Z')).toBe(Date.parse('2024-03-01T10:30:00Z'));
    expect(cellDate('2024-13-45')).toBeNull();
    expect(cellDate('March 1')).toBeNull();
    expect(cellDate(20240301)).toBeNull();
  });
});

describe('series and categories from a range, categories from the first column', () => {
  const headers = ['Region', 'Amount', 'Cost'];
  test('a series per column after the first, named by its header; a point per row', () => {
    const grid = [
      ['North', 10, 4],
      ['South', 20, 5],
    ];
    const data = extractChartData(grid, headers, firstColumn(1, 2));
    expect(data.series).toEqual([
      { key: 's0', name: 'Amount' },
      { key: 's1', name: 'Cost' },
    ]);
    expect(data.points).toEqual([
      { category: 'North', x: null, s0: 10, s1: 4 },
      { category: 'South', x: null, s0: 20, s1: 5 },
    ]);
    expect(data.categoryKind).toBe('text');
    expect(data.skipped).toBe(0);
  });
  test('blanks are gaps; wholly blank rows (a whole-column selection’s tail) are not points', () => {
    const grid = [['North', 10, ''], ['South', null, 5], ['', '', ''], [], ['West', 7]];
    const data = extractChartData(grid, headers, firstColumn(9, 2));
    expect(data.points.map((p) => [p.category, p.s0, p.s1])).toEqual([
      ['North', 10, null],
      ['South', null, 5],
      ['West', 7, null],
    ]);
  });
  test('text in a number column is a gap, counted in skipped; numbers written as text count', () => {
    const grid = [
      ['North', '1,200', 'n/a'],
      ['South', 'pending', 3],
      ['East', ' 15 ', 2],
    ];
    const data = extractChartData(grid, headers, firstColumn(2, 2));
    expect(data.points.map((p) => [p.s0, p.s1])).toEqual([
      [1200, null],
      [null, 3],
      [15, 2],
    ]);
    expect(data.skipped).toBe(2);
  });
  test('dates as categories: kept as written, marked as dates, with their time for a time axis', () => {
    const grid = [
      ['2024-01-01', 5],
      ['2024-02-01', 8],
      ['', ''],
      ['2024-03-01', 13],
    ];
    const data = extractChartData(grid, ['Day', 'Visits'], firstColumn(3, 1));
    expect(data.categoryKind).toBe('date');
    expect(data.points.map((p) => p.category)).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
    expect(data.points.map((p) => p.x)).toEqual([Date.parse('2024-01-01'), Date.parse('2024-02-01'), Date.parse('2024-03-01')]);
  });
  test('a mix of dates and text is text; numbers as categories are numbers (a scatter’s x)', () => {
    expect(extractChartData([['2024-01-01', 1], ['Total', 2]], [], firstColumn(1, 1)).categoryKind).toBe('text');
    const xy = extractChartData([[1, 2], [1.5, 3], ['2', 4]], [], firstColumn(2, 1));
    expect(xy.categoryKind).toBe('number');
    expect(xy.points.map((p) => [p.x, p.s0])).toEqual([
      [1, 2],
      [1.5, 3],
      [2, 4],
    ]);
  });
  test('a range away from A1 reads its own cells and headers; unnamed headers become letters', () => {
    const grid = [
      ['x', 'x', 'x', 'x'],
      ['x', 'a', 1, 2],
      ['x', 'b', 3, 4],
    ];
    const data = extractChartData(grid, ['', 'Name'], firstColumn(2, 3, 1, 1));
    expect(data.series.map((s) => s.name)).toEqual(['C', 'D']);
    expect(data.points.map((p) => [p.category, p.s0, p.s1])).toEqual([
      ['a', 1, 2],
      ['b', 3, 4],
    ]);
  });
  test('one column: a single series, the row numbers as categories', () => {
    const data = extractChartData([[5], [7]], ['Amount'], firstColumn(1, 0));
    expect(data.series).toEqual([{ key: 's0', name: 'Amount' }]);
    expect(data.points.map((p) => [p.category, p.s0])).toEqual([
      ['1', 5],
      ['2', 7],
    ]);
  });
  test(`past ${CHART_MAX_POINTS} points the range is cut, and says how many were left out`, () => {
    const grid = Array.from({ length: CHART_MAX_POINTS + 5 }, (_, i) => [`p${i}`, i]);
    const data = extractChartData(grid, [], firstColumn(grid.length - 1, 1));
    expect(data.points).toHaveLength(CHART_MAX_POINTS);
    expect(data.truncated).toBe(5);
  });
});

describe('categories from the header row (the swap)', () => {
  test('the first row holds the categories; each other row is a series named by its first cell', () => {
    const grid = [
      ['', 'Q1', 'Q2', 'Q3'],
      ['North', 10, '', 30],
      ['South', 'tbd', 25, 35],
    ];
    const data = extractChartData(grid, [], { range: { start_row: 0, start_col: 0, end_row: 2, end_col: 3 }, categories: 'header_row' });
    expect(data.series).toEqual([
      { key: 's0', name: 'North' },
      { key: 's1', name: 'South' },
    ]);
    expect(data.points.map((p) => [p.category, p.s0, p.s1])).toEqual([
      ['Q1', 10, null],
      ['Q2', null, 25],
      ['Q3', 30, 35],
    ]);
    expect(data.skipped).toBe(1);
  });
  test('swapping the same range transposes the chart', () => {
    const grid = [
      ['', 'Q1', 'Q2'],
      ['North', 1, 2],
      ['South', 3, 4],
    ];
    const range = { start_row: 0, start_col: 0, end_row: 2, end_col: 2 };
    const down = extractChartData(grid, ['Region', 'Q1', 'Q2'], { range: { ...range, start_row: 1 }, categories: 'first_column' });
    const across = extractChartData(grid, [], { range, categories: 'header_row' });
    expect(down.points.map((p) => [p.category, p.s0, p.s1])).toEqual([
      ['North', 1, 2],
      ['South', 3, 4],
    ]);
    expect(across.points.map((p) => [p.category, p.s0, p.s1])).toEqual([
      ['Q1', 1, 3],
      ['Q2', 2, 4],
    ]);
  });
});

describe('formula cells', () => {
  const grid = [
    ['North', 10],
    ['South', '=B1*2'],
    ['Total', '=SUM(B1:B2)'],
  ];
  test('are charted by their computed values (asked only for formula cells), never by their text', () => {
    const asked: string[] = [];
    const values: Record<string, number | string> = { '1:1': 20, '2:1': 30 };
    const data = extractChartData(grid, ['Region', 'Amount'], firstColumn(2, 1), (row, col) => {
      asked.push(`${row}:${col}`);
      return values[`${row}:${col}`];
    });
    expect(data.points.map((p) => [p.category, p.s0])).toEqual([
      ['North', 10],
      ['South', 20],
      ['Total', 30],
    ]);
    expect(asked.sort()).toEqual(['1:1', '2:1']);
    expect(data.skipped).toBe(0);
  });

  test('a formula’s error is text in a number column (a gap, counted); without an engine a formula is a gap, not its text', () => {
    const failing = extractChartData(grid, [], firstColumn(2, 1), (row) => (row === 1 ? '#DIV/0!' : 30));
    expect(failing.points.map((p) => p.s0)).toEqual([10, null, 30]);
    expect(failing.skipped).toBe(1);
    const plain = extractChartData(grid, [], firstColumn(2, 1));
    expect(plain.points.map((p) => p.s0)).toEqual([10, null, null]);
  });
});
