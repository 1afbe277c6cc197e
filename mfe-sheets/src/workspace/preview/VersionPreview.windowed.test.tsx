import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FIND_TEXTS, WINDOWED_SHEET_MIN_ROWS, type GridData, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { HIGHLIGHT_CLASS } from '../grid/SheetGrid.js';
import { currentGrid } from '../testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from '../testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from '../testing/workspace-test-api.js';
import { sizeLabel } from '../toolbar/SheetToolbar.js';
import { SLAB } from '../windowed/WindowedGrid.js';
import Workspace from '../Workspace.js';
import { FIND_CURRENT_CLASS, FIND_MATCH_CLASS } from '../find/find-marks.js';
import { serveVersions, versionOf, type VersionsTestApi } from './versions-test-api.js';
import { testChart } from '../../charts/testing-chart.js';

jest.setTimeout(60_000);

/**
 * Issue 23: the preview of a version of a sheet shown a window at a time is shown the same way —
 * the version's rows read a window at a time (GET .../versions/:id/rows), never whole — with the
 * cells that differ from the live sheet highlighted for the rows shown; Apply restores as before.
 */
const ROWS = WINDOWED_SHEET_MIN_ROWS + 20_000;
const FAR = 110_000;
let api: SheetTestApi;
let big: Sheet;
let old: GridData;
let versions: VersionsTestApi;

beforeAll(() => {
  // jsdom has no layout: a slab of a few hundred rows keeps the test quick (as Workspace.windowed.test).
  Object.assign(SLAB, { rows: 300, edge: 50, readAhead: 20 });
});
beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  big = makeSheet('Big', Array.from({ length: ROWS }, (_, r) => [`r${r}`, r]), ['Name', 'N']);
  big.version = 2;
  // Version 1: row 110,000 held other values, and the sheet had 10 rows fewer.
  old = big.data.slice(0, ROWS - 10).map((row, r) => (r === FAR ? ['r110000', 'was here'] : [...row]));
  api = await startSheetApi([big]);
  versions = serveVersions(api);
  versions.versions.set(big.id, new Map([['1', versionOf('1', 'archived', ['Name', 'N'], old)]]));
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

const versionReads = () => api.requests.filter((r) => r.path.startsWith(`/api/v1/sheets/${big.id}/versions/1`)).map((r) => new URL(r.path, 'http://x'));

/** The slab's index of absolute row `row`, once the grid holds it. */
const slabRow = (row: number) => {
  const hot = currentGrid();
  for (let i = 0; i < hot.countRows(); i++) if (hot.getRowHeader(i) === String(row + 1)) return i;
  return -1;
};

function dragBarTo(row: number) {
  const bar = screen.getByTestId('row-scrollbar');
  Object.defineProperty(bar, 'scrollHeight', { configurable: true, value: 1_000_000 });
  Object.defineProperty(bar, 'clientHeight', { configurable: true, value: 1_000 });
  Object.defineProperty(bar, 'scrollTop', { configurable: true, writable: true, value: (row / ROWS) * 999_000 });
  fireEvent.scroll(bar);
}

test('a version of a 120,000-row sheet previews a window at a time: row 110,000 shows its old values, highlighted; Apply checks it out', async () => {
  const shell = liveShellFor(api.url, big.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));

  act(() => shell.bus.emit('sheet-version-preview', { sheetId: big.id, versionId: '1' }));
  const banner = await screen.findByTestId('preview-banner');
  expect(within(banner).getByText('Previewing version #1')).toBeInTheDocument();
  // The version's grid once its summary is read: read-only, windowed, its first rows read.
  await waitFor(() => expect(within(banner).getByRole('button', { name: 'Apply' })).toBeEnabled());
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  expect(currentGrid().getSettings().readOnly).toBe(true);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  // The toolbar says the version's size, not the live sheet's.
  expect(screen.getByTestId('sheet-size')).toHaveTextContent(sizeLabel({ rows: ROWS - 10, cols: 2 }));

  act(() => dragBarTo(FAR - 10));
  await waitFor(() => expect(slabRow(FAR)).toBeGreaterThanOrEqual(0));
  await waitFor(() => expect(currentGrid().getDataAtCell(slabRow(FAR), 1)).toBe('was here'));
  const at = slabRow(FAR);
  expect(currentGrid().getDataAtCell(at, 0)).toBe('r110000');
  // The cell that differs from the live sheet (110000 there) is highlighted once its live rows are compared; its neighbours are not.
  await waitFor(() => expect(currentGrid().getCellMeta(at, 1).className).toBe(HIGHLIGHT_CLASS));
  expect(currentGrid().getCellMeta(at, 0).className).not.toBe(HIGHLIGHT_CLASS);
  expect(currentGrid().getCellMeta(at + 1, 1).className).not.toBe(HIGHLIGHT_CLASS);
  await waitFor(() => expect(screen.getByTestId('sheet-grid').querySelectorAll(`td.${HIGHLIGHT_CLASS}`)).toHaveLength(1));

  // Never read whole: the version nor the live sheet; each version read is a window of at most 5,000 rows.
  const reads = versionReads();
  expect(reads.every((u) => u.pathname.endsWith('/rows'))).toBe(true);
  for (const u of reads) expect(Number(u.searchParams.get('count'))).toBeLessThanOrEqual(5_000);
  expect(reads.map((u) => u.searchParams.get('start'))).toContain(String(Math.floor(FAR / 5_000) * 5_000));
  expect(api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${big.id}`)).toEqual([]);

  // Apply: checked out as before; the sheet opens again, windowed, at the version made.
  await userEvent.click(within(banner).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/v1/sheets/${big.id}/versions/1/checkout`]);
  await waitFor(() => expect(shell.sheet.version).toBe(3));
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  expect(currentGrid().getSettings().readOnly).toBe(false);
  expect(await shell.sheet.loadData!({ start: FAR, count: 1 })).toEqual([['r110000', 'was here']]);
});

test("a windowed version's chart draws that version's rows, read through its windows", async () => {
  // Version 1 had a chart over rows 110,000–110,002, where its row 110,000 held text.
  const chart = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a36', range: { start_row: FAR, start_col: 0, end_row: FAR + 2, end_col: 1 } });
  versions.versions.set(big.id, new Map([['1', { ...versionOf('1', 'archived', ['Name', 'N'], old), charts: [chart] }]]));
  const shell = liveShellFor(api.url, big.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  expect(screen.queryByTestId('chart-frame')).toBeNull();

  act(() => shell.bus.emit('sheet-version-preview', { sheetId: big.id, versionId: '1' }));
  const frame = await screen.findByTestId('chart-frame');
  // Its text cell is left out (the live sheet has a number there): the version's rows are drawn.
  await waitFor(() => expect(within(frame).getByText('1 text cell left out')).toBeInTheDocument(), { timeout: 15_000 });
  expect(versionReads().map((u) => u.searchParams.get('start'))).toContain(String(Math.floor(FAR / 5_000) * 5_000));
  expect(api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${big.id}`)).toEqual([]);
});

test("find in a windowed version's preview finds in that version (the api's find in it), not in the live sheet: the grid goes to the match and marks it", async () => {
  const shell = liveShellFor(api.url, big.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: big.id, versionId: '1' }));
  const banner = await screen.findByTestId('preview-banner');
  await waitFor(() => expect(within(banner).getByRole('button', { name: 'Apply' })).toBeEnabled());
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  currentGrid().selectCell(0, 0);
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ctrlKey: true });
  const box = screen.getByRole('textbox', { name: FIND_TEXTS.label });
  // Only version 1 has it, far past the rows read.
  fireEvent.change(box, { target: { value: 'WAS HERE' } });
  await waitFor(() => expect(screen.getByTestId('find-count')).toHaveTextContent('1 of 1'));
  expect(api.requests.filter((r) => r.path.includes('/find')).map((r) => new URL(r.path, 'http://x').pathname)).toEqual([`/api/v1/sheets/${big.id}/versions/1/find`]);
  await waitFor(() => expect(slabRow(FAR)).toBeGreaterThanOrEqual(0));
  await waitFor(() => expect(currentGrid().getSelectedLast()?.slice(0, 2)).toEqual([slabRow(FAR), 1]));
  await waitFor(() => expect(currentGrid().getCell(slabRow(FAR), 1)?.className).toContain(FIND_CURRENT_CLASS));
  expect(currentGrid().getCell(slabRow(FAR), 0)?.className).not.toContain(FIND_MATCH_CLASS);
});
