import { act, screen, waitFor } from '@testing-library/react';
import { formulasOverLimit, type GridData, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { STEPPED_GRID_MIN_ROWS } from './grid/SheetGrid.js';
import { currentGrid, shownText } from './testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

/**
 * Issue 23: a sheet loaded whole with STEPPED_GRID_MIN_ROWS rows or more is shown in steps, each
 * a task of its own (its rows padded to the editor's columns, Handsontable built, row resizing
 * enabled, the formulas' rows sent to the worker) instead of in one long block of the page. What
 * the user has is what a small sheet gives: the rows, the computed formulas, the spare columns,
 * edits saved, rows resized.
 */

jest.setTimeout(120_000);

// The formula engine's bound (FORMULA_MAX_CELLS = HYBRID_MAX_CELLS), lowered to 10 columns of these
// ROWS rows: the grid pads the 3-column sheet to the editor's 26 columns (54,600 cells), which must
// not count against it; a sheet of 21,200 cells passes it.
jest.mock('@tessera/contracts', () => ({ ...jest.requireActual('@tessera/contracts'), HYBRID_MAX_CELLS: 21_000 }));
const FORMULA_MAX_CELLS = 21_000;

const ROWS = STEPPED_GRID_MIN_ROWS + 100;
const TOTAL = (ROWS * (ROWS + 1)) / 2;

let api: SheetTestApi;
let sheet: Sheet;

/** Column A the row number, B row 1's SUM of column A then text, C small numbers. */
function rows(): GridData {
  return Array.from({ length: ROWS }, (_, r) => [r + 1, r === 0 ? `=SUM(A1:A${ROWS})` : `t${r}`, r % 10]);
}

beforeEach(async () => {
  sheet = makeSheet('Large', rows(), ['n', 'sum', 'm']);
  api = await startSheetApi([sheet]);
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

const operationsSent = () => api.live.received.flatMap(({ frame }) => (frame.type === 'operation' ? [frame.operation] : []));

test('a large sheet with formulas opens whole: its rows, the SUM computed, the spare columns; an edit recomputes and is saved', async () => {
  const shell = liveShellFor(api.url, sheet.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(shownText(0, 0)).toBe('1'));
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on');
  expect(shownText(1, 1)).toBe('t1');
  await waitFor(() => expect(shownText(0, 1)).toBe(String(TOTAL)), { timeout: 30_000 });
  expect(screen.queryByTestId('formulas-over-limit')).toBeNull();
  const grid = currentGrid();
  expect(grid.countRows()).toBe(ROWS);
  // The editor's spare columns (spec 01 §9), as on a small sheet; not stored.
  expect(grid.countCols()).toBe(26);
  expect(grid.getDataAtCell(ROWS - 1, 0)).toBe(ROWS);
  expect(screen.getByTestId('sheet-size')).toHaveTextContent(`${ROWS} rows × 3 cols`);
  await waitFor(() => expect(shell.sheet.version).toBe(1));
  const stored = shell.sheet.getData()!;
  expect(stored).toHaveLength(ROWS);
  expect(stored[0]).toEqual([1, `=SUM(A1:A${ROWS})`, 0]);

  // A2 goes from 2 to 1002: the SUM follows, the edit reaches the server.
  act(() => grid.setDataAtCell(1, 0, '1002'));
  await waitFor(() => expect(shownText(0, 1)).toBe(String(TOTAL + 1000)), { timeout: 10_000 });
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  expect(operationsSent()).toEqual([expect.objectContaining({ type: 'cell_update', position: { row: 1, column: 0 }, value: 1002 })]);
  await waitFor(() => expect(api.sheets.get(sheet.id)?.data[1]).toEqual([1002, 't1', 1]));
});

test('a sheet with more cells than formulas can be computed for says so over the grid; its formulas show as text', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  // A formula per row, then numbers: 200 rows × 106 columns (few rows: jsdom's grid draws them all; the formula first: it draws the first columns only).
  const wide = makeSheet('Wide', Array.from({ length: 200 }, (_, r) => [`=B${r + 1}*2+E${r + 1}`, ...Array.from({ length: 105 }, (_, c) => r + c)]), []);
  api.sheets.set(wide.id, wide);
  renderInShell(<Workspace shell={liveShellFor(api.url, wide.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(screen.getByTestId('formulas-over-limit')).toHaveTextContent(formulasOverLimit(200 * 106, FORMULA_MAX_CELLS)));
  expect(formulasOverLimit(200 * 106, FORMULA_MAX_CELLS)).toBe(
    'This sheet has more cells than formulas can be computed for (21,200 of at most 21,000): formulas show as text.',
  );
  expect(shownText(0, 0)).toBe('=B1*2+E1');
  expect(shownText(0, 1)).toBe('0');
  error.mockRestore();
});

test('a large plain sheet opens whole with manual row resizing: a resized row keeps its height', async () => {
  const plain = makeSheet('Large plain', rows().map((row, r) => (r === 0 ? [1, 'sum', 0] : row)), ['n', 'text', 'm']);
  api.sheets.set(plain.id, plain);
  renderInShell(<Workspace shell={liveShellFor(api.url, plain.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(shownText(1, 1)).toBe('t1'));
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'off');
  // Row resizing comes a task after the rows are shown.
  await waitFor(() => expect(currentGrid().getPlugin('manualRowResize').isEnabled()).toBe(true));
  const grid = currentGrid();
  act(() => {
    grid.getPlugin('manualRowResize').setManualSize(2, 80);
    grid.render();
  });
  expect(grid.getRowHeight(2)).toBe(80);
  expect(grid.getRowHeight(3)).not.toBe(80);
});
