import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHART_TEXTS, type CellValue, type ChartDefinition, type ChartOptions } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { useState } from 'react';
import { ChartLayer, type ChartLayerProps } from './ChartLayer.js';

/** renderInShell wraps only the first render: later props go through this harness's state. */
let setLayerProps: (props: ChartLayerProps) => void = () => {};
function Harness(initial: ChartLayerProps) {
  const [props, setProps] = useState(initial);
  setLayerProps = setProps;
  return <ChartLayer {...props} />;
}
import { EDIT_CHART_TEXTS, parseRangeLabel, rangeLabel } from './chart-labels.js';
import { InsertChartDialog } from './InsertChartDialog.js';
import { testChart } from './testing-chart.js';
import { newChartBox, selectionRange } from './use-sheet-charts.js';
import { anchorAt, boxPosition, type ChartGeometry, NOMINAL_GEOMETRY } from './chart-geometry.js';

jest.setTimeout(30_000);

const chart = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a01' });

const barHeights = (frame: HTMLElement) =>
  [...frame.querySelectorAll('.recharts-bar-rectangle path')].map((p) => {
    // A bar is 'M x,y h w v h ...': its height is the v segment.
    const v = /v\s*(-?[\d.]+)/.exec(p.getAttribute('d') ?? '');
    return v ? Math.round(Math.abs(Number(v[1]))) : 0;
  });

describe('the chart layer', () => {
  test('draws the range’s values; after a cell edit (the grid edited in place, dataTick raised) the bar changes', async () => {
    const grid: CellValue[][] = [
      ['North', 10],
      ['South', 20],
      ['East', 40],
    ];
    const props = { charts: [chart], grid, headers: ['Region', 'Amount'], canEdit: true, onMove: jest.fn(), onDelete: jest.fn() };
    renderInShell(<Harness {...props} dataTick={0} />);
    const frame = await screen.findByTestId('chart-frame');
    await waitFor(() => expect(barHeights(frame)).toHaveLength(3), { timeout: 15_000 });
    const [north, south, east] = barHeights(frame);
    expect(north).toBeLessThan(south);
    expect(south).toBeLessThan(east);
    expect(within(frame).getByTestId('chart-title-text')).toHaveTextContent('Amount by region');

    grid[0][1] = 80;
    act(() => setLayerProps({ ...props, dataTick: 1 }));
    // North (now 80) is the tallest, twice East (40), whose bar shrank as the axis grew.
    await waitFor(() => {
      const [n, , e] = barHeights(frame);
      expect(n).toBeGreaterThan(north);
      expect(Math.abs(n - 2 * e)).toBeLessThanOrEqual(2);
    });
  });

  test('a sheet without charts renders nothing (and loads no chart code)', () => {
    const view = renderInShell(<ChartLayer charts={[]} grid={[]} headers={[]} dataTick={0} canEdit onMove={jest.fn()} onDelete={jest.fn()} />);
    expect(view.container.querySelector('[data-testid="chart-frame"]')).toBeNull();
  });

  test('an editor drags a chart by its title bar (the new box is sent on release); a viewer cannot, and has no resize handle or Delete', async () => {
    const onMove = jest.fn();
    const grid = [['a', 1]];
    renderInShell(<Harness charts={[chart]} grid={grid} headers={[]} dataTick={0} canEdit onMove={onMove} onDelete={jest.fn()} />);
    const handle = screen.getByTestId('chart-handle');
    act(() => {
      handle.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, clientX: 100, clientY: 100, button: 0 }));
      window.dispatchEvent(new MouseEvent('pointermove', { clientX: 150, clientY: 130 }));
      window.dispatchEvent(new MouseEvent('pointerup', { clientX: 150, clientY: 130 }));
    });
    // Drawn at D1 + (10, 10) on the nominal grid (420, 40); dropped 50 px right, 30 px down (470, 70): 60 px into D, 17 px into row 2.
    expect(screen.getByTestId('chart-frame')).toHaveStyle({ left: '420px', top: '40px' });
    expect(onMove).toHaveBeenCalledWith(chart, { ...chart.box, row: 1, col: 3, dx: 60, dy: 17 });
    expect(screen.getByTestId('chart-resize')).toBeInTheDocument();

    const viewerMove = jest.fn();
    act(() => setLayerProps({ charts: [chart], grid, headers: [], dataTick: 0, canEdit: false, onMove: viewerMove, onDelete: jest.fn() }));
    act(() => {
      handle.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, clientX: 100, clientY: 100, button: 0 }));
      window.dispatchEvent(new MouseEvent('pointermove', { clientX: 150, clientY: 130 }));
      window.dispatchEvent(new MouseEvent('pointerup', { clientX: 150, clientY: 130 }));
    });
    expect(viewerMove).not.toHaveBeenCalled();
    expect(screen.queryByTestId('chart-resize')).toBeNull();
    await userEvent.click(screen.getByTestId('chart-menu'));
    expect(await screen.findByTestId('chart-download-png')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-delete')).toBeNull();
  });
});

describe('a chart whose cells were deleted (range null)', () => {
  test('stays over the sheet and says its cells were deleted (no bars); Edit chart opens with the range to type', async () => {
    const gone: ChartDefinition = { ...chart, range: null };
    const grid = [['North', 10]];
    renderInShell(<Harness charts={[gone]} grid={grid} headers={[]} dataTick={0} canEdit onMove={jest.fn()} onDelete={jest.fn()} />);
    const frame = await screen.findByTestId('chart-frame');
    expect(within(frame).getByTestId('chart-range-deleted')).toHaveTextContent(CHART_TEXTS.rangeDeleted);
    expect(within(frame).getByTestId('chart-title-text')).toHaveTextContent('Amount by region');
    expect(frame.querySelector('.recharts-bar-rectangle')).toBeNull();

    const onInsert = jest.fn();
    renderInShell(<InsertChartDialog range={{ start_row: 0, start_col: 0, end_row: 0, end_col: 0 }} box={gone.box} chart={gone} onInsert={onInsert} onCancel={jest.fn()} />);
    const dialog = await screen.findByTestId('insert-chart-dialog');
    expect(within(dialog).getByTestId('chart-range')).toHaveValue('');
    await userEvent.click(within(dialog).getByTestId('chart-insert'));
    expect(onInsert).not.toHaveBeenCalled();
    await userEvent.type(within(dialog).getByTestId('chart-range'), 'A1:B2');
    await userEvent.click(within(dialog).getByTestId('chart-insert'));
    expect(onInsert).toHaveBeenCalledWith(expect.objectContaining({ range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 }, box: gone.box }));
  });
});

describe('the Insert chart dialog', () => {
  test('sends the options chosen, with the swap of categories; says XLSX keeps the data but not the chart', async () => {
    const onInsert = jest.fn();
    const range = { start_row: 0, start_col: 0, end_row: 3, end_col: 1 };
    renderInShell(<InsertChartDialog range={range} box={chart.box} onInsert={onInsert} onCancel={jest.fn()} />);
    const dialog = await screen.findByTestId('insert-chart-dialog');
    expect(within(dialog).getByTestId('chart-xlsx-note')).toHaveTextContent(CHART_TEXTS.xlsxNote);
    expect(within(dialog).getByTestId('chart-range')).toHaveValue('A1:B4');
    expect(within(dialog).getByTestId('chart-categories')).toHaveTextContent(CHART_TEXTS.categoriesFirstColumn);
    await userEvent.click(within(dialog).getByTestId('chart-swap'));
    expect(within(dialog).getByTestId('chart-categories')).toHaveTextContent(CHART_TEXTS.categoriesHeaderRow);
    await userEvent.selectOptions(within(dialog).getByTestId('chart-type'), 'line');
    await userEvent.type(within(dialog).getByTestId('chart-title'), 'Trend');
    await userEvent.selectOptions(within(dialog).getByTestId('chart-legend'), 'right');
    await userEvent.click(within(dialog).getByTestId('chart-insert'));
    expect(onInsert).toHaveBeenCalledWith<[ChartOptions]>({
      type: 'line',
      range,
      categories: 'header_row',
      title: 'Trend',
      x_axis_title: '',
      y_axis_title: '',
      legend: 'right',
      stacked: false,
      box: chart.box,
    });
  });
});

describe('the same dialog, changing a chart on the sheet', () => {
  test("starts from the chart's options; a new type, title and range are saved, the box stays where the chart is", async () => {
    const onInsert = jest.fn();
    const placed = { ...chart, title: 'Old title', legend: 'top' as const, box: { row: 1, col: 5, dx: 0, dy: 17, width: 420, height: 260 } };
    renderInShell(<InsertChartDialog range={placed.range} box={chart.box} chart={placed} onInsert={onInsert} onCancel={jest.fn()} />);
    const dialog = await screen.findByTestId('insert-chart-dialog');
    expect(within(dialog).getByText(EDIT_CHART_TEXTS.title)).toBeInTheDocument();
    expect(within(dialog).getByTestId('chart-range')).toHaveValue('A1:B3');
    expect(within(dialog).getByTestId('chart-title')).toHaveValue('Old title');
    expect(within(dialog).getByTestId('chart-legend')).toHaveValue('top');
    await userEvent.selectOptions(within(dialog).getByTestId('chart-type'), 'bar');
    await userEvent.clear(within(dialog).getByTestId('chart-title'));
    await userEvent.type(within(dialog).getByTestId('chart-title'), 'New title');
    await userEvent.clear(within(dialog).getByTestId('chart-range'));
    await userEvent.type(within(dialog).getByTestId('chart-range'), 'a2:b5');
    await userEvent.click(within(dialog).getByTestId('chart-insert'));
    expect(within(dialog).getByTestId('chart-insert')).toHaveTextContent(EDIT_CHART_TEXTS.save);
    expect(onInsert).toHaveBeenCalledWith<[ChartOptions]>({
      type: 'bar',
      range: { start_row: 1, start_col: 0, end_row: 4, end_col: 1 },
      categories: 'first_column',
      title: 'New title',
      x_axis_title: '',
      y_axis_title: '',
      legend: 'top',
      stacked: false,
      box: placed.box,
    });
  });

  test('a range that is not one is refused in the dialog, with what to type, and nothing is sent', async () => {
    const onInsert = jest.fn();
    renderInShell(<InsertChartDialog range={chart.range} box={chart.box} chart={chart} onInsert={onInsert} onCancel={jest.fn()} />);
    const dialog = await screen.findByTestId('insert-chart-dialog');
    await userEvent.clear(within(dialog).getByTestId('chart-range'));
    await userEvent.type(within(dialog).getByTestId('chart-range'), 'B2:nowhere');
    await userEvent.click(within(dialog).getByTestId('chart-insert'));
    expect(within(dialog).getByText(EDIT_CHART_TEXTS.badRange)).toBeInTheDocument();
    expect(onInsert).not.toHaveBeenCalled();
  });
});

describe('a range typed as A1:B4', () => {
  test('reads corners in any order and any case, one cell, and columns past Z; refuses what is not a range', () => {
    expect(parseRangeLabel('A1:B4')).toEqual({ start_row: 0, start_col: 0, end_row: 3, end_col: 1 });
    expect(parseRangeLabel(' c10 : a2 ')).toEqual({ start_row: 1, start_col: 0, end_row: 9, end_col: 2 });
    expect(parseRangeLabel('AA3')).toEqual({ start_row: 2, start_col: 26, end_row: 2, end_col: 26 });
    for (const bad of ['', 'A0:B2', 'A1:B', '1:2', 'A1:B2:C3', 'A1-B2']) expect(parseRangeLabel(bad)).toBeNull();
    expect(rangeLabel(parseRangeLabel('AB7:C2')!)).toBe('C2:AB7');
  });
});

describe('a grid selection as a chart range', () => {
  test('corners in any order; a whole column (header click: -1) is cut to the stored rows', () => {
    const size = { rows: 10, cols: 3 };
    expect(selectionRange(4, 2, 1, 0, size)).toEqual({ start_row: 1, start_col: 0, end_row: 4, end_col: 2 });
    expect(selectionRange(-1, 1, 999, 1, size)).toEqual({ start_row: 0, start_col: 1, end_row: 9, end_col: 1 });
    expect(selectionRange(20, 0, 25, 1, size)).toBeNull();
  });
});

describe('where a new chart goes', () => {
  test('anchored beside its range, level with its first row, so the cells it charts stay visible; each next one a step further', () => {
    const range = { start_row: 4, start_col: 0, end_row: 9, end_col: 1 };
    const first = newChartBox(0, range);
    expect(first).toEqual({ row: 4, col: 2, dx: 24, dy: 0, width: 480, height: 300 });
    const second = newChartBox(1, range);
    expect([second.row, second.col]).toEqual([4, 2]);
    expect(second.dx).toBeGreaterThan(first.dx);
    expect(second.dy).toBeGreaterThan(first.dy);
  });
});

describe('a box anchored to a cell, on the grid', () => {
  // Columns 100 px and rows 20 px, after a 40 px row-number column and a 25 px header line; row 2 is 60 px high.
  const geometry: ChartGeometry = {
    left: (col) => 40 + 100 * col,
    top: (row) => 25 + 20 * row + (row > 2 ? 40 : 0),
  };
  test('is drawn at its cell’s corner plus its offset, and a drop anchors it to the cell under its corner', () => {
    const box = { row: 3, col: 2, dx: 7, dy: 5, width: 400, height: 300 };
    expect(boxPosition(box, geometry)).toEqual({ x: 247, y: 130 });
    expect(anchorAt(247, 130, geometry)).toEqual({ row: 3, col: 2, dx: 7, dy: 5 });
    // Inside the tall row 2 (65..125).
    expect(anchorAt(41, 100, geometry)).toEqual({ row: 2, col: 0, dx: 1, dy: 35 });
    // Over the headers: on the first cell's edge.
    expect(anchorAt(3, 4, geometry)).toEqual({ row: 0, col: 0, dx: 0, dy: 0 });
  });
  test('the nominal grid is the one a box stored in pixels is read on', () => {
    expect(boxPosition({ row: 2, col: 2, dx: 24, dy: 0, width: 480, height: 300 }, NOMINAL_GEOMETRY)).toEqual({ x: 314, y: 76 });
  });
});
