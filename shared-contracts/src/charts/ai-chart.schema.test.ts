import { a1RangeLabel, AiChartRequestSchema, aiChartOptions, parseA1Range } from './ai-chart.schema.js';
import { ChartOptionsSchema } from './chart.schema.js';

describe('an AI chart request', () => {
  test('A1 ranges: corners in any order and case, one cell, columns past Z; what is not a range is null', () => {
    expect(parseA1Range('A1:B10')).toEqual({ start_row: 0, start_col: 0, end_row: 9, end_col: 1 });
    expect(parseA1Range(' c10:a2 ')).toEqual({ start_row: 1, start_col: 0, end_row: 9, end_col: 2 });
    expect(parseA1Range('AA3')).toEqual({ start_row: 2, start_col: 26, end_row: 2, end_col: 26 });
    for (const bad of ['', 'A0:B2', 'A1:B', '1:2', 'A1:B2:C3', 'ZZZZ1', 'A99999999']) expect(parseA1Range(bad)).toBeNull();
    expect(a1RangeLabel(parseA1Range('AB7:C2')!)).toBe('C2:AB7');
  });
  test('becomes the chart route’s body: a legend below, not stacked, its box anchored beside its range', () => {
    const request = AiChartRequestSchema.parse({
      target: 'result',
      type: 'column',
      range: { start_row: 0, start_col: 0, end_row: 3, end_col: 1 },
      categories: 'first_column',
      title: 'Total of Amount by Region',
      x_axis_title: 'Region',
      y_axis_title: 'Total of Amount',
    });
    const options = aiChartOptions(request);
    expect(ChartOptionsSchema.parse(options)).toEqual(options);
    expect(options).toMatchObject({ legend: 'bottom', stacked: false, box: { row: 0, col: 2, dx: 24, dy: 0 } });
    expect('target' in options).toBe(false);
  });
});
