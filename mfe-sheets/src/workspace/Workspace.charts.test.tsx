import { act, screen, waitFor } from '@testing-library/react';
import type { ChartDefinition, Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

// Issue 20: a chart over the sheet plots formula cells by their computed values (never their text).
jest.setTimeout(30_000);

let api: SheetTestApi;
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

const chart: ChartDefinition = {
  id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a02',
  type: 'column',
  range: { start_row: 0, start_col: 0, end_row: 2, end_col: 1 },
  categories: 'first_column',
  title: 'Amount by region',
  x_axis_title: '',
  y_axis_title: '',
  legend: 'none',
  stacked: false,
  box: { x: 10, y: 10, width: 400, height: 300 },
};

const withChart = (sheet: Sheet): Sheet => ({ ...sheet, metadata: { ...sheet.metadata, charts: [chart] } as Sheet['metadata'] });

const barHeights = (frame: HTMLElement) =>
  [...frame.querySelectorAll('.recharts-bar-rectangle path')].map((p) => {
    const v = /v\s*(-?[\d.]+)/.exec(p.getAttribute('d') ?? '');
    return v ? Math.abs(Number(v[1])) : 0;
  });

test('a formula cell in a chart’s range is drawn at its computed value, and follows the cells it depends on', async () => {
  // East is =B1+B2: 30 now, the tallest bar, as tall as North and South together.
  const sheet = withChart(makeSheet('Regions', [['North', 10], ['South', 20], ['East', '=B1+B2']], ['Region', 'Amount']));
  api = await startSheetApi([sheet]);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice', { tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  const frame = await screen.findByTestId('chart-frame');
  await waitFor(() => expect(barHeights(frame)).toHaveLength(3), { timeout: 15_000 });
  const [north, south, east] = barHeights(frame);
  expect(north).toBeLessThan(south);
  expect(Math.abs(east - (north + south))).toBeLessThanOrEqual(2);

  // North becomes 40: East (the formula) becomes 60 and stays the sum; North now outgrows South.
  act(() => currentGrid().setDataAtCell(0, 1, 40));
  await waitFor(() => {
    const [n, s, e] = barHeights(frame);
    expect(n).toBeGreaterThan(s);
    expect(Math.abs(e - (n + s))).toBeLessThanOrEqual(2);
  });
  // The stored cell keeps its formula.
  await waitFor(() => expect(api.sheets.get(sheet.id)?.data[2]).toEqual(['East', '=B1+B2']));
});

test('a formula typed into a plain sheet’s chart range is charted by its value once the engine computes it', async () => {
  const sheet = withChart(makeSheet('Plain', [['North', 10], ['South', 20], ['East', 5]], ['Region', 'Amount']));
  api = await startSheetApi([sheet]);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice', { tab: 'data' })} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'off');
  const frame = await screen.findByTestId('chart-frame');
  await waitFor(() => expect(barHeights(frame)).toHaveLength(3), { timeout: 15_000 });

  act(() => currentGrid().setDataAtCell(2, 1, '=B1*3'));
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  // East is 30: three times North, the tallest.
  await waitFor(() => {
    const heights = barHeights(screen.getByTestId('chart-frame'));
    expect(heights).toHaveLength(3);
    const [n, s, e] = heights;
    expect(e).toBeGreaterThan(s);
    expect(Math.abs(e - 3 * n)).toBeLessThanOrEqual(2);
  });
});
