import type { ChartDefinition } from '@tessera/contracts';

/** A column chart of A1:B3 titled 'Amount by region' for tests, with what a test changes. */
export function testChart(overrides: Partial<ChartDefinition> & Pick<ChartDefinition, 'id'>): ChartDefinition {
  return {
    type: 'column',
    range: { start_row: 0, start_col: 0, end_row: 2, end_col: 1 },
    categories: 'first_column',
    title: 'Amount by region',
    x_axis_title: '',
    y_axis_title: '',
    legend: 'none',
    stacked: false,
    box: { row: 0, col: 3, dx: 10, dy: 10, width: 400, height: 300 },
    ...overrides,
  };
}
