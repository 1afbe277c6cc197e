import { act, screen, waitFor, within } from '@testing-library/react';
import type { Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import { testChart } from '../charts/testing-chart.js';
import Workspace from './Workspace.js';

// Issue 20: a chart over the sheet plots formula cells by their computed values (never their text).
// Each renders the whole Workspace with the grid and a chart (and HyperFormula): slow on a loaded machine.
jest.setTimeout(60_000);

let api: SheetTestApi;
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

const chart = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a02' });

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

test('a narrow sheet shows its charts in a strip beside the grid (stacked, not dragged); wide again, over the grid', async () => {
  const sheet = withChart(makeSheet('Regions', [['North', 10], ['South', 20]], ['Region', 'Amount']));
  api = await startSheetApi([sheet]);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice', { tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  await screen.findByTestId('chart-frame');
  expect(screen.getByTestId('chart-layer')).toContainElement(screen.getByTestId('chart-frame'));

  const resizeTo = (width: number) => {
    Object.defineProperty(screen.getByTestId('workspace'), 'clientWidth', { configurable: true, value: width });
    act(() => void window.dispatchEvent(new Event('resize')));
  };
  resizeTo(480);
  const strip = await screen.findByTestId('chart-strip');
  expect(screen.queryByTestId('chart-layer')).toBeNull();
  expect(strip).toContainElement(screen.getByTestId('chart-frame'));
  expect(screen.getByTestId('sheet-grid')).toBeInTheDocument();
  // Half the area: the grid keeps the other half.
  expect(strip.style.width || getComputedStyle(strip).width).toBe('240px');
  // In the strip a chart is not moved or resized (its place over the grid is kept for a wider window).
  expect(within(strip).queryByTestId('chart-resize')).toBeNull();
  const before = api.requests.length;
  act(() => {
    within(strip).getByTestId('chart-handle').dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, clientX: 10, clientY: 10, button: 0 }));
    window.dispatchEvent(new MouseEvent('pointermove', { clientX: 80, clientY: 90 }));
    window.dispatchEvent(new MouseEvent('pointerup', { clientX: 80, clientY: 90 }));
  });
  await waitFor(() => expect(barHeights(within(strip).getByTestId('chart-frame'))).toHaveLength(2), { timeout: 15_000 });
  expect(api.requests.slice(before).filter((r) => r.path.includes('/charts'))).toEqual([]);

  // A laptop window with the chat panel open (about 600 px for the sheet) keeps the charts over the grid.
  resizeTo(620);
  await waitFor(() => expect(screen.queryByTestId('chart-strip')).toBeNull());
  expect(screen.getByTestId('chart-layer')).toContainElement(screen.getByTestId('chart-frame'));
});

test("a chat message's 'Show chart' (chart-focus) scrolls the grid to the chart's cell and outlines that chart; one for another sheet does nothing", async () => {
  const far = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a09', title: 'Far down', box: { row: 60, col: 0, dx: 0, dy: 0, width: 300, height: 200 } });
  const rows = Array.from({ length: 80 }, (_, i) => [`R${i + 1}`, i]);
  const base = makeSheet('Long', rows, ['Name', 'Value']);
  const sheet: Sheet = { ...base, metadata: { ...base.metadata, charts: [chart, far] } as Sheet['metadata'] };
  api = await startSheetApi([sheet]);
  const shell = liveShellFor(api.url, sheet.id, 'alice', { tab: 'data' });
  renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(screen.getAllByTestId('chart-frame')).toHaveLength(2));
  const scrolled: unknown[] = [];
  const hot = currentGrid();
  const scroll = hot.scrollViewportTo.bind(hot);
  hot.scrollViewportTo = ((options: Parameters<typeof hot.scrollViewportTo>[0]) => {
    scrolled.push(options);
    return scroll(options);
  }) as typeof hot.scrollViewportTo;

  act(() => shell.bus.emit('chart-focus', { sheetId: 'another-sheet', chartId: far.id }));
  expect(document.querySelector('[data-focused="true"]')).toBeNull();
  act(() => shell.bus.emit('chart-focus', { sheetId: sheet.id, chartId: far.id }));
  await waitFor(() => expect(document.querySelector('[data-focused="true"]')?.getAttribute('data-chart-id')).toBe(far.id));
  expect(scrolled).toEqual([{ row: 60, col: 0 }]);
});
