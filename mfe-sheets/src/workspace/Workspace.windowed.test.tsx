import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CLEAR_TEXTS, STRUCTURE_UNDO_TEXTS, FILTER_TEXTS, FIND_COUNT_CAP, FREEZE_TEXTS, FIND_TEXTS, SHEET_ROWS_WINDOW_MAX, WINDOWED_READ_TEXTS, WINDOWED_SHEET_MIN_ROWS, type ChartDefinition, changedCells, formulasOverLimit, HYBRID_MAX_CELLS, MESSAGES, presenceColor, type ShellContext, createSheetLiveClient, gridToOperations, liveSocketUrl, sheetSocketPath, type LiveOperation, type LiveServerFrame, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid, shownText } from './testing/grid-instances.js';
import { menuEntry, menuTexts } from './testing/workspace-menus.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, send, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import { testChart } from '../charts/testing-chart.js';
import { SLAB } from './windowed/WindowedGrid.js';
import Workspace from './Workspace.js';
import { FIND_CURRENT_CLASS, FIND_MATCH_CLASS } from './find/find-marks.js';

jest.setTimeout(60_000);

// jsdom has no layout: a grid loaded whole draws every row it holds (minutes for 120,000 rows). The
// api here opens a sheet of SWITCHED_ROWS rows windowed as one of WINDOWED_SHEET_MIN_ROWS, so that a
// formula switching it to whole can be drawn; the decision is otherwise the real one (its held cells).
jest.mock('@tessera/contracts', () => {
  const actual = jest.requireActual('@tessera/contracts');
  return {
    ...actual,
    opensWindowed: (sheet: { metadata: { rows: number } }) =>
      actual.opensWindowed(sheet.metadata.rows === 600 ? { ...sheet, metadata: { ...sheet.metadata, rows: actual.WINDOWED_SHEET_MIN_ROWS } } : sheet),
  };
});
const SWITCHED_ROWS = 600;

/**
 * Issue 23: a sheet past WINDOWED_SHEET_MIN_ROWS rows opens a window of rows at a time
 * (GET /sheets/:id/rows), never whole; its own scroll bar reaches any row; edits go out at
 * absolute rows and others' edits land in the rows read.
 */
const ROWS = WINDOWED_SHEET_MIN_ROWS + 20_000;
let api: SheetTestApi;
let big: Sheet;
const bobs: ReturnType<typeof createSheetLiveClient>[] = [];

beforeAll(() => {
  // jsdom has no layout: Handsontable draws every row it holds. A slab of a few hundred rows keeps
  // the test quick; what is checked (windows read, the slab moved, absolute rows) is the same.
  Object.assign(SLAB, { rows: 300, edge: 50, readAhead: 20 });
  big = makeSheet('Big', Array.from({ length: ROWS }, (_, r) => [`r${r}`, r]), ['Name', 'N']);
});
beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  // A copy: the test api changes the sheets it holds (rows inserted in one test must not reach the next),
  // its metadata too (the live hub counts rows and columns in it).
  api = await startSheetApi([{ ...big, metadata: JSON.parse(JSON.stringify(big.metadata)) as Sheet['metadata'], data: big.data.map((row) => [...row]) }]);
});
afterEach(async () => {
  // A freeze is remembered per sheet (local storage, shared by this file's tests).
  localStorage.clear();
  closeLiveShells();
  for (const bob of bobs.splice(0)) bob.close();
  await api.close();
});

const rowReads = () => api.requests.filter((r) => r.path.startsWith(`/api/v1/sheets/${big.id}/rows`)).map((r) => new URL(r.path, 'http://x').searchParams);
const wholeReads = () => api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${big.id}`);
/** The queries of the sheet's opening reads (GET /sheets/:id with or without a query). */
const openReads = () => api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${big.id}`).map((r) => r.path.split('?')[1] ?? '');

async function opens() {
  const shell = liveShellFor(api.url, big.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  const grid = await screen.findByTestId('sheet-grid');
  expect(grid).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  return shell;
}

/** The sheet-wide scroll bar dragged to `fraction` of its length (jsdom has no layout: its sizes are given). */
function dragBar(fraction: number) {
  const bar = screen.getByTestId('row-scrollbar');
  Object.defineProperty(bar, 'scrollHeight', { configurable: true, value: 1_000_000 });
  Object.defineProperty(bar, 'clientHeight', { configurable: true, value: 1_000 });
  Object.defineProperty(bar, 'scrollTop', { configurable: true, writable: true, value: fraction * 999_000 });
  fireEvent.scroll(bar);
}

async function bobJoins(sheetId = big.id) {
  const frames: LiveServerFrame[] = [];
  const client = createSheetLiveClient({ token: () => 'bob', log: () => {} });
  bobs.push(client);
  client.subscribe((frame) => frames.push(frame));
  client.connect(liveSocketUrl(api.url, sheetSocketPath(sheetId)));
  await waitFor(() => expect(client.state).toBe('connected'));
  const send = (op: Record<string, unknown>) => {
    const operation = { id: `bob-${frames.length}-${Math.random()}`, ...op } as LiveOperation;
    client.sendOperation(operation.id, { type: 'operation', operation, sheet_id: sheetId });
    return operation.id;
  };
  const acked = (id: string) => waitFor(() => expect(frames.some((f) => f.type === 'ack' && f.data.operation_id === id)).toBe(true));
  return { send, acked };
}

test('opens reading windows of rows only, never the whole sheet; size and name as the server has them', async () => {
  const shell = await opens();
  expect(wholeReads()).toEqual([]);
  // One request opened it, and brought the first window (5,000 rows) with the summary: no read of
  // rows before the first rows show, and none whole.
  expect(openReads()).toEqual(['window=5000']);
  expect(rowReads()).toEqual([]);
  expect(screen.getByTestId('sheet-size')).toHaveTextContent(/rows × 2 cols/);
  expect(shell.sheet.size).toEqual({ rows: ROWS, cols: 2 });
  // The grid holds a slab, not the sheet; the slab's rows came with the open (the first window).
  const hot = currentGrid();
  expect(hot.countRows()).toBeLessThan(ROWS);
  expect(hot.getRowHeader(0)).toBe('1');
  expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${hot.countRows() - 1}`);
  expect(hot.getCellMeta(hot.countRows() - 1, 0).readOnly).toBeFalsy();
  // The AI and code read getData(): not a part of the sheet passed off as all of it.
  expect(shell.sheet.getData()).toBeNull();
});

test('find (Ctrl+F) on a windowed sheet: the api finds past the slab, the grid goes there and selects the cell; next pages through the api; the count is capped, exact once the whole sheet was read', async () => {
  await opens();
  const hot = currentGrid();
  hot.selectCell(0, 0);
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ctrlKey: true });
  const box = screen.getByRole('textbox', { name: FIND_TEXTS.label });
  const count = () => screen.getByTestId('find-count');
  const findReads = () => api.requests.filter((r) => r.path.startsWith(`/api/v1/sheets/${big.id}/find`)).map((r) => new URL(r.path, 'http://x').searchParams);
  /** The selected cell, at its absolute row (the slab's row header says it). */
  const at = () => {
    const [row, col] = hot.getSelectedLast() ?? [-1, -1];
    return [Number(hot.getRowHeader(row)) - 1, col];
  };
  // Far past the slab (its 300 rows) and the rows read: only the api has it.
  fireEvent.change(box, { target: { value: 'R119990' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 1'));
  expect(findReads().map((p) => p.get('q'))).toEqual(['R119990']);
  await waitFor(() => expect(at()).toEqual([119_990, 0]));
  await waitFor(() => expect(hot.getDataAtCell(hot.getSelectedLast()![0], 0)).toBe('r119990'));
  expect(wholeReads()).toHaveLength(0);
  // The match gone to is marked strongly (the cell drawn at its slab row).
  const classes = (absolute: number, col = 0) => {
    const slabRow = Array.from({ length: hot.countRows() }, (_, r) => r).find((r) => hot.getRowHeader(r) === String(absolute + 1));
    return slabRow === undefined ? '' : (hot.getCell(slabRow, col)?.className ?? '');
  };
  await waitFor(() => expect(classes(119_990)).toContain(FIND_CURRENT_CLASS));
  expect(classes(119_990)).toContain(FIND_MATCH_CLASS);
  expect(classes(119_991)).not.toContain(FIND_MATCH_CLASS);
  // Rows whose text begins with r1: more than the api counts before it stops.
  fireEvent.change(box, { target: { value: 'r1' } });
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.countMore(1, FIND_COUNT_CAP)));
  await waitFor(() => expect(at()).toEqual([1, 0]));
  fireEvent.keyDown(box, { key: 'Enter' });
  await waitFor(() => expect(at()).toEqual([10, 0]));
  expect(count()).toHaveTextContent(FIND_TEXTS.countMore(2, FIND_COUNT_CAP));
  // Every drawn match marked (the rows held are checked by the same rule), the one gone to distinct.
  await waitFor(() => expect(classes(10)).toContain(FIND_CURRENT_CLASS));
  expect(classes(11)).toContain(FIND_MATCH_CLASS);
  expect(classes(11)).not.toContain(FIND_CURRENT_CLASS);
  expect(classes(2)).not.toContain(FIND_MATCH_CLASS);
  expect(classes(10, 1)).not.toContain(FIND_MATCH_CLASS);
  // Back past the first: the last match, found by the api reading to the end (the count is exact then).
  fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
  fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
  const total = 1 + 10 + 100 + 1_000 + 10_000 + 20_000;
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.count(total, total)));
  await waitFor(() => expect(at()).toEqual([ROWS - 1, 0]));
  expect(findReads().at(-1)?.get('direction')).toBe('prev');
  fireEvent.keyDown(box, { key: 'Escape' });
  expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
  await waitFor(() => expect(hot.getCell(hot.getSelectedLast()![0], 0)?.className).not.toContain(FIND_MATCH_CLASS));
});

test('the scroll bar dragged to the end shows the last rows (their window read), an edit there goes out at its absolute row', async () => {
  await opens();
  act(() => dragBar(1));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`));
  expect(hot.getRowHeader(hot.countRows() - 1)).toBe(String(ROWS));
  // Its row was a read-only placeholder until its window came: editable now.
  expect(hot.getCellMeta(hot.countRows() - 1, 1).readOnly).toBe(false);
  const lastWindow = String(Math.floor((ROWS - 1) / 5_000) * 5_000);
  expect(rowReads().map((q) => q.get('start'))).toContain(lastWindow);
  expect(wholeReads()).toEqual([]);

  act(() => hot.setDataAtCell(hot.countRows() - 1, 1, 'edited'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, 'edited']));
  const sent = api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'operation').map((r) => (r.frame as { operation: LiveOperation }).operation);
  expect(sent).toEqual([expect.objectContaining({ type: 'cell_update', position: { row: ROWS - 1, column: 1 }, value: 'edited' })]);
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
});

test('a sheet as large with a formula loads whole (the formula engine reads the whole grid)', async () => {
  const data = Array.from({ length: ROWS }, (_, r) => [`r${r}`, r]);
  data[0] = ['=B2+B3', 0];
  const sheet = makeSheet('Formulas', data, ['Name', 'N']);
  api.sheets.set(sheet.id, sheet);
  // Shown on another tab: jsdom has no layout, and a grid of 120,000 rows drawn whole takes minutes
  // there. That a sheet loaded whole computes its formulas: Workspace.test.tsx.
  const shell = liveShellFor(api.url, sheet.id, 'alice', { tab: 'git' });
  renderInShell(<Workspace shell={shell} />);
  await waitFor(() => expect(shell.sheet.getData()).toHaveLength(ROWS), { timeout: 30_000 });
  expect(shell.sheet.getData()?.[0]).toEqual(['=B2+B3', 0]);
  // One request, whole (the api answers a window only for a sheet opensWindowed).
  expect(api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${sheet.id}`)).toHaveLength(1);
});

test("a sheet as large with formulas past the engine's bound opens windowed: the notice says so, formulas show as text, edits go out", async () => {
  // 120,000 rows × 23 cells held: 2,760,000, past the formula engine's 2,600,000 (loaded whole, they would show as text too).
  const width = Math.floor(HYBRID_MAX_CELLS / ROWS) + 2;
  const data = Array.from({ length: ROWS }, (_, r) => [`r${r}`, ...Array<number>(width - 1).fill(r)]);
  data[1][1] = '=B3+B4';
  const sheet = makeSheet('Formulas past the bound', data, Array.from({ length: width }, (_, c) => `C${c}`));
  api.sheets.set(sheet.id, sheet);
  const shell = liveShellFor(api.url, sheet.id, 'alice');
  renderInShell(<Workspace shell={shell} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  expect(await screen.findByTestId('formulas-over-limit')).toHaveTextContent(formulasOverLimit(ROWS * width, HYBRID_MAX_CELLS));
  expect(formulasOverLimit(ROWS * width, HYBRID_MAX_CELLS)).toContain('(2,760,000 of at most 2,600,000)');
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(1, 1)).toBe('=B3+B4'));
  expect(hot.getCell(1, 1)).toHaveTextContent('=B3+B4');
  // Only windows were read, never the whole sheet.
  expect(api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${sheet.id}`)).toEqual([]);
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  act(() => hot.setDataAtCell(2, 1, '=B1'));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[2][1]).toBe('=B1'));
});

test("another user's edit lands in the rows read; one in rows not read shows once they are", async () => {
  await opens();
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 3, column: 1 }, value: 'from bob' }));
  await waitFor(() => expect(currentGrid().getDataAtCell(3, 1)).toBe('from bob'));
  // Far from the rows read: stored by the server, shown when the user gets there.
  const far = ROWS - 10;
  await bob.acked(bob.send({ type: 'cell_update', position: { row: far, column: 0 }, value: 'far edit' }));
  act(() => dragBar(1));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 10, 0)).toBe('far edit'));
});

test("cells written past the last column (a paste, another user's too) show in new columns, still there after the slab moves away and back", async () => {
  const shell = await opens();
  const bob = await bobJoins();
  // Bob pastes a block whose right end is past the sheet's two columns.
  await bob.acked(bob.send({ type: 'cells_update', changes: [{ row: 3, col: 1, value: 'b1' }, { row: 3, col: 2, value: 'b2' }, { row: 3, col: 3, value: 'b3' }] }));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(3, 3)).toBe('b3'));
  expect(hot.countCols()).toBe(4);
  // The user pastes past them too (Handsontable adds the columns to the grid as it pastes).
  act(() => void hot.populateFromArray(5, 3, [['m1', 'm2']], undefined, undefined, 'CopyPaste.paste'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 5, null, 'm1', 'm2']));
  expect(shell.sheet.size.cols).toBe(5);
  // Far down and back (the slab rebuilt twice): every column still shown, the cells in them.
  act(() => dragBar(1));
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`));
  expect(hot.countCols()).toBe(5);
  act(() => dragBar(0));
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe('r0'));
  expect(hot.countCols()).toBe(5);
  expect(hot.getDataAtCell(3, 3)).toBe('b3');
  expect(hot.getDataAtCell(5, 4)).toBe('m2');
});

test("a paste at the last row keeps its rows past it: the sheet grows by them, they show (another user's too), and one Undo takes the whole paste back", async () => {
  const shell = await opens();
  act(() => dragBar(1));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`));
  act(() => {
    hot.selectCell(hot.countRows() - 1, 0);
    hot.listen();
    hot.getPlugin('copyPaste').paste('x\t1\ny\t2\nz\t3');
  });
  await waitFor(() => expect(api.sheets.get(big.id)!.data.slice(ROWS - 1)).toEqual([['x', 1], ['y', 2], ['z', 3]]));
  expect(shell.sheet.size.rows).toBe(ROWS + 2);
  // Shown at their rows (the last row header says the new size).
  await waitFor(() => expect(hot.getRowHeader(hot.countRows() - 1)).toBe(String(ROWS + 2)));
  // Rows past a window's end: read (as any window) once shown.
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe('z'));
  expect(hot.getDataAtCell(hot.countRows() - 3, 0)).toBe('x');
  // Another user's cells past that end: the sheet grows again, the grid (at its last row) shows them.
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cell_update', position: { row: ROWS + 2, column: 0 }, value: 'w' }));
  await waitFor(() => expect(hot.getRowHeader(hot.countRows() - 1)).toBe(String(ROWS + 3)));
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe('w'));
  expect(shell.sheet.size.rows).toBe(ROWS + 3);

  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS + 1]).toEqual([null, null]));
});

test('a paste of more rows than the slab has left below it keeps every row (those past the slab, read or not, overwritten at their rows), and one Undo brings them all back', async () => {
  await opens();
  // The slab a little above the end of a window of rows (ROW_WINDOW_SIZE, 5,000): the paste runs past the slab's end into a window never read.
  act(() => dragBar(9_700 / ROWS));
  const hot = currentGrid();
  const base = () => Number(hot.getRowHeader(0)) - 1;
  await waitFor(() => expect(base()).toBeGreaterThan(9_000));
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 30, 0)).toBe(`r${base() + hot.countRows() - 30}`));
  const slabEnd = base() + hot.countRows();
  const windowEnd = Math.ceil(slabEnd / 5_000) * 5_000;
  expect(rowReads().map((q) => q.get('start'))).not.toContain(String(windowEnd));
  const at = slabEnd - 30;
  const rows = windowEnd + 40 - at;
  act(() => {
    hot.selectCell(at - base(), 0);
    hot.listen();
    hot.getPlugin('copyPaste').paste(Array.from({ length: rows }, (_, i) => `p${i}\t${-i - 1}`).join('\n'));
  });
  const expected = Array.from({ length: rows }, (_, i) => [`p${i}`, -i - 1]);
  await waitFor(() => expect(api.sheets.get(big.id)!.data.slice(at, at + rows)).toEqual(expected));
  // Only those rows: the row after the block, and the sheet's size, as before.
  expect(api.sheets.get(big.id)!.data[at + rows]).toEqual([`r${at + rows}`, at + rows]);
  expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS);
  expect(hot.getDataAtCell(at - base(), 0)).toBe('p0');
  // The window past the slab was read for the values there before (the undo step's).
  expect(rowReads().map((q) => q.get('start'))).toContain(String(windowEnd));

  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data.slice(at, at + rows)).toEqual(Array.from({ length: rows }, (_, i) => [`r${at + i}`, at + i])));
});

test("a paste over the slab's rows not read yet (read-only until their window comes) writes them too, one Undo for all", async () => {
  await opens();
  // The window from row 10,000 fails to arrive for now: the slab's rows from it stay placeholders.
  let held = true;
  api.fault = (req, res, path) => {
    if (!held || path !== `/api/v1/sheets/${big.id}/rows` || new URL(req.url!, 'http://x').searchParams.get('start') !== '10000') return false;
    send(res, 503, { error: { code: 'unavailable', message: 'held' } });
    return true;
  };
  act(() => dragBar(9_800 / ROWS));
  const hot = currentGrid();
  const base = () => Number(hot.getRowHeader(0)) - 1;
  await waitFor(() => expect(base()).toBeGreaterThan(9_700));
  expect(base() + hot.countRows()).toBeGreaterThan(10_040);
  await waitFor(() => expect(hot.getDataAtCell(10_000 - 20 - base(), 0)).toBe('r9980'));
  expect(hot.getCellMeta(10_000 - base(), 0).readOnly).toBe(true);
  held = false;
  act(() => {
    hot.selectCell(10_000 - 20 - base(), 0);
    hot.listen();
    hot.getPlugin('copyPaste').paste(Array.from({ length: 40 }, (_, i) => `q${i}\t${-i - 1}`).join('\n'));
  });
  await waitFor(() => expect(api.sheets.get(big.id)!.data.slice(9_980, 10_020)).toEqual(Array.from({ length: 40 }, (_, i) => [`q${i}`, -i - 1])));
  await waitFor(() => expect(hot.getDataAtCell(10_019 - base(), 0)).toBe('q39'));

  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data.slice(9_980, 10_020)).toEqual(Array.from({ length: 40 }, (_, i) => [`r${9_980 + i}`, 9_980 + i])));
});

test("loadData() gives the chat and the Code tab every row, through windows of rows, with the user's own edit; an AI result diffs against them", async () => {
  const shell = await opens();
  const hot = currentGrid();
  act(() => hot.setDataAtCell(5, 1, 'mine'));
  // Asked at once: the edit may not be on the server yet, it is in the answer.
  const cells = (await shell.sheet.loadData!())!;
  expect(cells).toHaveLength(ROWS);
  expect(cells[5]).toEqual(['r5', 'mine']);
  expect(cells[110_000]).toEqual(['r110000', 110_000]);
  // Every row as the server has it once the edit is stored (earlier tests edited rows of it too).
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 'mine']));
  expect(cells).toEqual(api.sheets.get(big.id)!.data);
  // Read a window at a time (never the whole sheet), and not kept: the grid holds what it did.
  expect(wholeReads()).toEqual([]);
  for (const q of rowReads()) expect(Number(q.get('count'))).toBeLessThanOrEqual(5_000);
  expect(shell.sheet.getData()).toBeNull();
  // A result that changes one cell is one change, not the whole sheet (as against an empty grid).
  const result = cells.map((row, r) => (r === 110_000 ? [row[0], 'ai'] : row));
  expect(changedCells(gridToOperations(cells, result, 2))).toBe(1);
  // Only the rows asked for.
  expect(await shell.sheet.loadData!({ start: 110_000, count: 2 })).toEqual([['r110000', 110_000], ['r110001', 110_001]]);
});

/** The grid's row holding absolute row `row` (after a jump to the end, the slab holds it). */
const slabRow = (row: number) => {
  const hot = currentGrid();
  for (let i = 0; i < hot.countRows(); i++) if (hot.getRowHeader(i) === String(row + 1)) return i;
  throw new Error(`row ${row} is not in the grid`);
};
const ownOps = () => api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'operation').map((r) => (r.frame as { operation: LiveOperation }).operation);

test("the menu's Insert row above at row 119,000 goes out at that absolute row; the rows shown move once the server has it; then Remove row", async () => {
  const shell = await opens();
  const at = 119_000;
  // The scroll bar dragged near the end, to row 119,001.
  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at}`));
  // The same entries as the whole grid's menu, with Handsontable's texts.
  const items = (hot.getSettings().contextMenu as { items: Record<string, unknown> }).items;
  for (const key of ['row_above', 'row_below', 'col_left', 'col_right', 'remove_row', 'remove_col']) expect(items).toHaveProperty(key);

  act(() => {
    hot.selectCell(slabRow(at), 0);
    hot.getPlugin('contextMenu').executeCommand('row_above');
  });
  await waitFor(() => expect(ownOps()).toEqual([expect.objectContaining({ type: 'rows_insert', index: at, count: 1 })]));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([]));
  expect(api.sheets.get(big.id)!.data[at + 1]).toEqual([`r${at}`, at]);
  // What the user sees: an empty row 119,001, the old row 119,001 now the next one; one more row.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at + 1), 0)).toBe(`r${at}`));
  expect(hot.getDataAtCell(slabRow(at), 0)).toBeNull();
  expect(shell.sheet.size.rows).toBe(ROWS + 1);
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));

  // Two rows selected (the empty one and the next), removed.
  act(() => {
    hot.selectCell(slabRow(at), 0, slabRow(at + 1), 1);
    hot.getPlugin('contextMenu').executeCommand('remove_row');
  });
  await waitFor(() => expect(ownOps().at(-1)).toEqual(expect.objectContaining({ type: 'rows_remove', index: at, count: 2 })));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at + 1}`, at + 1]));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at + 1}`));
  expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS - 1);
  await waitFor(() => expect(shell.sheet.size.rows).toBe(ROWS - 1));

  // Three rows selected: Insert row below inserts three below them, as the entry says.
  act(() => void hot.selectCell(slabRow(at), 0, slabRow(at + 2), 1));
  expect(menuTexts(hot)).toEqual(expect.arrayContaining(['Insert 3 rows above', 'Insert 3 rows below', 'Insert 2 columns left']));
  act(() => hot.getPlugin('contextMenu').executeCommand('row_below'));
  await waitFor(() => expect(ownOps().at(-1)).toEqual(expect.objectContaining({ type: 'rows_insert', index: at + 3, count: 3 })));
  await waitFor(() => expect(shell.sheet.size.rows).toBe(ROWS + 2));
  // A whole row selected (its header): no column insert, which would insert as many columns as the grid shows.
  act(() => void hot.selectRows(slabRow(at)));
  const columnLeft = menuTexts(hot).find((text) => /^Insert .*columns? left$/.test(text ?? ''))!;
  expect(menuEntry(hot, columnLeft)).toBe('disabled');
  expect(menuEntry(hot, 'Insert row above')).toBe('enabled');
  const entryLike = (pattern: RegExp) => menuTexts(hot).find((text) => pattern.test(text ?? ''))!;
  expect(menuEntry(hot, entryLike(/^Remove columns?$/))).toBe('disabled');
  expect(menuEntry(hot, entryLike(/^Remove rows?$/))).toBe('enabled');
  // A whole column selected (its header) or everything (the corner): no row removed — it would take the
  // 10,000 rows the grid holds, not the sheet's (as Handsontable's own entry, greyed out for a column).
  act(() => void hot.selectColumns(1));
  expect(menuEntry(hot, entryLike(/^Remove rows?$/))).toBe('disabled');
  // Handsontable types no selectAll (the corner click, Ctrl+A).
  act(() => void (hot as unknown as { selectAll(): void }).selectAll());
  expect(menuEntry(hot, entryLike(/^Remove rows?$/))).toBe('disabled');
});

test("the menu's Insert column left goes out as a column op; the rows shown and the headers move once the server has it; then Remove column; frozen columns follow", async () => {
  const shell = await opens();
  const at = 119_000;
  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 1)).toBe(at));
  // Name frozen, as on the whole grid; rows cannot be (the grid's first rows are its slab's): greyed out, saying why.
  act(() => void hot.selectCell(slabRow(at), 0));
  expect(menuEntry(hot, FREEZE_TEXTS.rowsWindowed)).toBe('disabled');
  act(() => hot.getPlugin('contextMenu').executeCommand('freeze_columns'));
  expect(hot.getSettings().fixedColumnsStart).toBe(1);
  expect(hot.getSettings().fixedRowsTop).toBe(0);

  // A column inserted left of N.
  act(() => {
    hot.selectCell(slabRow(at), 1);
    hot.getPlugin('contextMenu').executeCommand('col_left');
  });
  await waitFor(() => expect(ownOps()).toEqual([expect.objectContaining({ type: 'columns_insert', index: 1, count: 1 })]));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at}`, null, at]));
  // What the user sees: N one column to the right, under its own header; the new column named by its letter.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 2)).toBe(at));
  expect(hot.getDataAtCell(slabRow(at), 1)).toBeNull();
  await waitFor(() => expect(shell.sheet.headers).toEqual(['Name', 'B', 'N']));
  expect(hot.getColHeader(2)).toBe('N');
  expect(shell.sheet.size.cols).toBe(3);
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));

  // The new column removed again.
  act(() => {
    hot.selectCell(slabRow(at), 1);
    hot.getPlugin('contextMenu').executeCommand('remove_col');
  });
  await waitFor(() => expect(ownOps().at(-1)).toEqual(expect.objectContaining({ type: 'columns_remove', index: 1, count: 1 })));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at}`, at]));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 1)).toBe(at));
  await waitFor(() => expect(shell.sheet.headers).toEqual(['Name', 'N']));
  expect(hot.getColHeader(1)).toBe('N');
  expect(hot.countCols()).toBe(2);
  expect(shell.sheet.size.cols).toBe(2);
  expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS);
  // Inserted right of the frozen Name (above) it stayed alone; one another user inserts before it is frozen with it.
  expect(hot.getSettings().fixedColumnsStart).toBe(1);
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 1)).toBe(`r${at}`));
  expect(hot.getSettings().fixedColumnsStart).toBe(2);
});

test("another user's selected cell is outlined at its absolute row once that row is shown, and follows them", async () => {
  const shell = liveShellFor(api.url, big.id, 'alice');
  const at = 119_000;
  const withBob = (row: number): ShellContext => ({
    ...shell,
    presence: { online: ['alice', 'bob'], onSheet: [{ userId: 'bob', joinedAt: '', displayName: 'Bob', selection: { row, col: 1 }, color: presenceColor('bob') }] },
  });
  const view = renderInShell(<Workspace shell={withBob(at)} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  // Nothing outlined at the top: the slab's row of the same index is another row.
  expect(document.querySelector('[data-presence]')).toBeNull();

  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at}`));
  await waitFor(() => expect(hot.getCell(slabRow(at), 1)).toHaveAttribute('data-presence', 'Bob'));
  expect(hot.getCell(slabRow(at), 1)!.style.boxShadow).toContain('inset 0 0 0 2px');

  view.rerender(<ChakraProvider value={defaultSystem}><Workspace shell={withBob(at - 3)} /></ChakraProvider>);
  await waitFor(() => expect(hot.getCell(slabRow(at - 3), 1)).toHaveAttribute('data-presence', 'Bob'));
  expect(hot.getCell(slabRow(at), 1)).not.toHaveAttribute('data-presence');
});

/** A key pressed on the grid (Handsontable's shortcuts listen on the document while the grid has the focus). */
const press = (key: string, keys: { ctrlKey?: boolean; shiftKey?: boolean }) => fireEvent.keyDown(document.activeElement ?? document.body, { key, ...keys });
const cellSent = (row: number, col: number, value: unknown) => expect.objectContaining({ type: 'cell_update', position: { row, column: col }, value });

test('an edit undone after the grid moved far from it goes out at its absolute row, and shows where it is; redone likewise (keys and menu)', async () => {
  await opens();
  const hot = currentGrid();
  act(() => hot.setDataAtCell(5, 1, 'mine'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 'mine']));
  // The bar dragged to the end: the slab moved far from row 5.
  act(() => dragBar(1));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(ROWS - 1), 0)).toBe(`r${ROWS - 1}`));
  act(() => hot.selectCell(slabRow(ROWS - 1), 0));

  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(ownOps().at(-1)).toEqual(cellSent(5, 1, 5)));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 5]));
  // The grid went to the cell undone (as spreadsheets do): row 6 shown, its old value, selected.
  expect(hot.getDataAtCell(slabRow(5), 1)).toBe(5);
  expect(hot.getSelectedLast()?.slice(0, 2)).toEqual([slabRow(5), 1]);

  act(() => dragBar(1));
  await waitFor(() => expect(hot.getRowHeader(hot.countRows() - 1)).toBe(String(ROWS)));
  act(() => hot.selectCell(slabRow(ROWS - 1), 0));
  // Ctrl+Shift+Z (Cmd on macOS, which jsdom is not).
  act(() => void press('Z', { ctrlKey: true, shiftKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 'mine']));
  expect(ownOps().at(-1)).toEqual(cellSent(5, 1, 'mine'));
  expect(hot.getDataAtCell(slabRow(5), 1)).toBe('mine');

  // The menu's Undo, then Ctrl+Y.
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 5]));
  expect(hot.getDataAtCell(slabRow(5), 1)).toBe(5);
  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 'mine']));
});

test("another user's rows inserted above an edit move its undo; the undo of a row not read again yet still goes out", async () => {
  const shell = await opens();
  const at = 119_000;
  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 1)).toBe(at));
  act(() => hot.setDataAtCell(slabRow(at), 1, 'mine'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at}`, 'mine']));

  // Back at the top; Bob inserts rows there: every window is read again, only those shown are.
  act(() => dragBar(0));
  await waitFor(() => expect(hot.getRowHeader(0)).toBe('1'));
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'rows_insert', index: 10, count: 2 }));
  await waitFor(() => expect(shell.sheet.size.rows).toBe(ROWS + 2));

  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(ownOps().at(-1)).toEqual(cellSent(at + 2, 1, at)));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at + 2]).toEqual([`r${at}`, at]));
  // Shown once its window is read.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at + 2), 1)).toBe(at));
  // Bob's rows are not the user's to undo: nothing more.
  const sent = ownOps().length;
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  expect(ownOps()).toHaveLength(sent);
  expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS + 2);
});

test("Delete with a whole column selected (its header clicked) clears it in every row of the sheet, not only the rows read; Undo puts it back, beside the column another user inserted meanwhile", async () => {
  await opens();
  const hot = currentGrid();
  // As a click on N's header: the column selected, the grid listening to the keys.
  act(() => {
    hot.selectColumns(1);
    hot.listen();
  });
  const readBefore = rowReads().length;
  act(() => void press('Delete', {}));
  // Every row's N emptied on the server, the last rows (never read) too; the names kept.
  // The sheet's rows are read first (24 windows here)...
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, null]), { timeout: 20_000 });
  // ... of column N only (GET /rows' col_start and col_count), not every column of every row.
  const deleteReads = rowReads().slice(readBefore);
  expect(deleteReads.length).toBeGreaterThanOrEqual(Math.ceil(ROWS / SHEET_ROWS_WINDOW_MAX) - 1);
  expect(deleteReads.map((q) => `${q.get('col_start')}+${q.get('col_count')}`)).toEqual(deleteReads.map(() => '1+1'));
  expect(api.sheets.get(big.id)!.data.filter((row) => row[1] !== null)).toEqual([]);
  expect(hot.getDataAtCell(3, 1)).toBeNull();
  expect(hot.getDataAtCell(3, 0)).toBe('r3');
  // Sent as ONE small operation the server clears, not a change per row.
  const sentOps = ownOps().slice(-1);
  expect(sentOps).toEqual([expect.objectContaining({ type: 'cells_clear', rows: { start: 0, count: ROWS }, columns: { start: 1, count: 1 } })]);
  expect(ownOps().filter((op) => op.type === 'cells_update')).toEqual([]);
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  // Shown so at the end too.
  act(() => dragBar(1));
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`));
  expect(hot.getDataAtCell(hot.countRows() - 1, 1)).toBeNull();

  // Bob inserts a column at the left: N is the third column now.
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  // Shown here (the rows read again, moved): the step's cells moved with it.
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 1)).toBe(`r${ROWS - 1}`));
  // One step: Undo gives every row its N back, in N where it is now.
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([null, `r${ROWS - 1}`, ROWS - 1]), { timeout: 10_000 });
  // Every row's, once the server has every operation (the step's cells go to the socket a few operations a turn: LiveSheet's SEND_CELLS_PER_TURN).
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
  expect(api.sheets.get(big.id)!.data.filter((row, r) => row[0] !== null || row[1] !== `r${r}` || row[2] !== r)).toEqual([]);
});

test("another user's clear of a whole column empties it here, in the rows shown and in those read later; an edit after it stays", async () => {
  await opens();
  const hot = currentGrid();
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cells_clear', rows: { start: 0, count: ROWS }, columns: { start: 1, count: 1 } }));
  await waitFor(() => expect(hot.getDataAtCell(3, 1)).toBeNull());
  expect(hot.getDataAtCell(3, 0)).toBe('r3');
  act(() => hot.setDataAtCell(2, 1, 'mine'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[2]).toEqual(['r2', 'mine']));
  expect(hot.getDataAtCell(2, 1)).toBe('mine');
  // Rows never read before: read as the server has them, empty in N.
  act(() => dragBar(1));
  await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`));
  expect(hot.getDataAtCell(hot.countRows() - 1, 1)).toBeNull();
});

/** The selection's corners at absolute rows (the row headers say them). */
const selectedRows = () => {
  const hot = currentGrid();
  const [r1, c1, r2, c2] = hot.getSelectedLast()!;
  return [Number(hot.getRowHeader(r1)) - 1, c1, Number(hot.getRowHeader(r2)) - 1, c2];
};

/** The range Insert chart offers (the selection at absolute rows, as the grid reported it); the dialog cancelled. */
async function chartRange() {
  await waitFor(() => expect(screen.getByTestId('insert-chart')).toBeEnabled());
  act(() => screen.getByTestId('insert-chart').click());
  const dialog = await screen.findByTestId('insert-chart-dialog');
  const range = (within(dialog).getByTestId('chart-range') as HTMLInputElement).value;
  act(() => within(dialog).getByRole('button', { name: /cancel/i }).click());
  await waitFor(() => expect(screen.queryByTestId('insert-chart-dialog')).toBeNull());
  return range;
}

test("Ctrl+Down/Up, Ctrl+End/Home and their Shift variants reach the sheet's rows past the slab, as spreadsheets do (the data block's edge, read if need be)", async () => {
  // An empty cell in rows not read at the open (the first window only is).
  const gap = 7_000;
  const nearEnd = ROWS - 2_000;
  api.sheets.get(big.id)!.data[gap][1] = null;
  api.sheets.get(big.id)!.data[nearEnd][1] = null;
  await opens();
  const hot = currentGrid();
  act(() => {
    hot.selectCell(0, 1);
    hot.listen();
  });
  // To the end of N's block, past the slab: its window read, the slab moved there.
  act(() => void press('ArrowDown', { ctrlKey: true }));
  await waitFor(() => expect(selectedRows()).toEqual([gap - 1, 1, gap - 1, 1]));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(gap - 1), 1)).toBe(gap - 1));
  // Then the next filled cell.
  act(() => void press('ArrowDown', { ctrlKey: true }));
  await waitFor(() => expect(selectedRows()).toEqual([gap + 1, 1, gap + 1, 1]));
  // Ctrl+Shift+End: from there to the sheet's last row and column (the slab shows the end, the range is the whole one).
  act(() => void press('End', { ctrlKey: true, shiftKey: true }));
  await waitFor(() => expect(selectedRows().slice(2)).toEqual([ROWS - 1, 1]));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(ROWS - 1), 1)).toBe(ROWS - 1));
  expect(await chartRange()).toBe(`B${gap + 2}:B${ROWS}`);
  // Ctrl+Home: A1; Ctrl+End: the last cell; Ctrl+Shift+Up from there: up to the block's first cell, selected.
  act(() => {
    hot.selectCell(slabRow(ROWS - 1), 0);
    hot.listen();
  });
  act(() => void press('Home', { ctrlKey: true }));
  await waitFor(() => expect(selectedRows()).toEqual([0, 0, 0, 0]));
  act(() => void press('End', { ctrlKey: true }));
  await waitFor(() => expect(selectedRows()).toEqual([ROWS - 1, 1, ROWS - 1, 1]));
  act(() => void press('ArrowUp', { ctrlKey: true, shiftKey: true }));
  // (More rows than the test's slab: the range is the whole one, the slab shows its top.)
  await waitFor(() => expect(selectedRows().slice(2)).toEqual([nearEnd + 1, 1]));
  expect(await chartRange()).toBe(`B${nearEnd + 2}:B${ROWS}`);
});

/** The browser's clipboard (jsdom has none): the text/plain written through navigator.clipboard, in order. Removed by the returned function. */
function stubClipboard() {
  const written: string[] = [];
  class Item {
    constructor(readonly items: Record<string, Promise<Blob>>) {}
  }
  Object.assign(globalThis, { ClipboardItem: Item });
  // jsdom's Blob has no text(): read as a page reads a file.
  const text = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob);
    });
  const write = async ([item]: Item[]) => void written.push(await text(await item.items['text/plain']));
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { write } });
  const remove = () => {
    Reflect.deleteProperty(globalThis, 'ClipboardItem');
    Reflect.deleteProperty(navigator, 'clipboard');
  };
  return { written, remove };
}
/** A copy or cut event on the page (as Ctrl+C, Ctrl+X or the menu's), its own clipboard data: what Handsontable's copy sets there. */
function clipboardEvent(type: 'copy' | 'cut') {
  const data: Record<string, string> = {};
  fireEvent[type](document.body, { clipboardData: { setData: (format: string, value: string) => (data[format] = value), getData: () => '' } });
  return data;
}

test('Cut with a whole column selected puts it on the clipboard from every row of the sheet, not the rows held, then clears it; one Undo puts it back; a block of cells copies as before', async () => {
  await opens();
  const clipboard = stubClipboard();
  try {
    const hot = currentGrid();
    // A block of cells: the grid's own copy, as before.
    act(() => {
      hot.selectCell(2, 0, 3, 1);
      hot.listen();
    });
    expect(clipboardEvent('copy')['text/plain']).toBe('r2\t2\nr3\t3');
    // N's header clicked, Ctrl+X.
    act(() => {
      hot.selectColumns(1);
      hot.listen();
    });
    let event: Record<string, string> = {};
    act(() => void (event = clipboardEvent('cut')));
    expect(event).toEqual({});
    // Said while every row is read.
    expect(screen.getByTestId('windowed-status')).toHaveTextContent(WINDOWED_READ_TEXTS.reading(ROWS));
    await waitFor(() => expect(clipboard.written).toHaveLength(1), { timeout: 20_000 });
    await waitFor(() => expect(screen.queryByTestId('windowed-status')).toBeNull());
    expect(clipboard.written[0]).toBe(Array.from({ length: ROWS }, (_, r) => String(r)).join('\n'));
    // Then cleared in every row, the names kept.
    await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, null]), { timeout: 20_000 });
    expect(api.sheets.get(big.id)!.data.filter((row) => row[1] !== null)).toEqual([]);
    expect(hot.getDataAtCell(3, 1)).toBeNull();
    // The Cut's clear is one cells_clear, not a change per row.
    expect(ownOps().filter((op) => op.type === 'cells_clear')).toEqual([expect.objectContaining({ rows: { start: 0, count: ROWS }, columns: { start: 1, count: 1 } })]);
    expect(ownOps().filter((op) => op.type === 'cells_update')).toEqual([]);
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
    act(() => void press('z', { ctrlKey: true }));
    // The slab's rows go last (the grid's own write): row 1's N back, every row's is.
    await waitFor(() => expect(api.sheets.get(big.id)!.data[1]).toEqual(['r1', 1]), { timeout: 30_000 });
    expect(api.sheets.get(big.id)!.data.filter((row, r) => row[1] !== r)).toEqual([]);
  } finally {
    clipboard.remove();
  }
});

test('a Cut of a whole column still being read is abandoned by a copy made meanwhile: the newer copy stays on the clipboard and nothing is cleared', async () => {
  await opens();
  const clipboard = stubClipboard();
  try {
    const hot = currentGrid();
    act(() => {
      hot.selectColumns(1);
      hot.listen();
    });
    act(() => void clipboardEvent('cut'));
    expect(screen.getByTestId('windowed-status')).toHaveTextContent(WINDOWED_READ_TEXTS.reading(ROWS));
    // While every row is read, the user copies two names: on the clipboard at once.
    act(() => {
      hot.selectCell(2, 0, 3, 0);
      hot.listen();
    });
    expect(clipboardEvent('copy')['text/plain']).toBe('r2\nr3');
    // The column's text never replaces it, and its cells stay: they never reached the clipboard.
    await waitFor(() => expect(screen.queryByTestId('windowed-status')).toBeNull(), { timeout: 20_000 });
    expect(clipboard.written).toEqual([]);
    expect(ownOps().filter((op) => op.type === 'cells_clear' || op.type === 'cells_update')).toEqual([]);
    expect(api.sheets.get(big.id)!.data.filter((row, r) => row[1] !== r)).toEqual([]);
  } finally {
    clipboard.remove();
  }
});

test('Copy and Delete of a range selected with Shift past the slab (Ctrl+Shift+End) take every row of it, not the slab\'s part; a block inside the slab is the grid\'s own', async () => {
  await opens();
  const clipboard = stubClipboard();
  try {
    const hot = currentGrid();
    // From N6 to the sheet's last row: the slab holds its last 300 rows only.
    act(() => {
      hot.selectCell(5, 1);
      hot.listen();
    });
    act(() => void press('End', { ctrlKey: true, shiftKey: true }));
    await waitFor(() => expect(selectedRows().slice(2)).toEqual([ROWS - 1, 1]));
    let event: Record<string, string> = {};
    act(() => void (event = clipboardEvent('copy')));
    expect(event).toEqual({});
    await waitFor(() => expect(clipboard.written).toHaveLength(1), { timeout: 20_000 });
    expect(clipboard.written[0]).toBe(Array.from({ length: ROWS - 5 }, (_, r) => String(r + 5)).join('\n'));
    // Delete: N emptied in those rows on the server, the five above kept.
    await waitFor(() => expect(screen.queryByTestId('windowed-status')).toBeNull());
    act(() => void press('Delete', {}));
    await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, null]), { timeout: 20_000 });
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
    expect(api.sheets.get(big.id)!.data.slice(0, 6).map((row) => row[1])).toEqual([0, 1, 2, 3, 4, null]);
    expect(api.sheets.get(big.id)!.data.filter((row, r) => r >= 5 && row[1] !== null)).toEqual([]);
    // Those rows as one cells_clear.
    expect(ownOps().filter((op) => op.type === 'cells_clear')).toEqual([expect.objectContaining({ rows: { start: 5, count: ROWS - 5 }, columns: { start: 1, count: 1 } })]);
    // A block within the slab: the grid's own copy.
    act(() => {
      hot.selectCell(2, 0, 3, 0);
      hot.listen();
    });
    expect(clipboardEvent('copy')['text/plain']).toBe(`r${ROWS - 298}\nr${ROWS - 297}`);
  } finally {
    clipboard.remove();
  }
});

test("a column removed from the menu goes at once (its cells in every row are not read first); Ctrl+Z sends one insert naming the remove, the server puts the column back: on both users' grids, past the slab, with the edit another user made meanwhile; Ctrl+Y removes it again; a refused undo says why", async () => {
  const alice = renderInShell(<Workspace shell={liveShellFor(api.url, big.id, 'alice')} />);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'), { timeout: 20_000 });
  const hotA = currentGrid();
  // Bob's page, windowed too.
  const bob = renderInShell(<Workspace shell={liveShellFor(api.url, big.id, 'bob')} />);
  await waitFor(() => expect(within(bob.container).getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on'), { timeout: 15_000 });
  await waitFor(() => expect(currentGrid()).not.toBe(hotA), { timeout: 15_000 });
  const hotB = currentGrid();
  await waitFor(() => expect(hotB.getDataAtCell(0, 1)).toBe(0), { timeout: 15_000 });
  await waitFor(() => expect(api.live.sockets('bob')).toBe(1), { timeout: 20_000 });
  const saved = (view: typeof alice) => waitFor(() => expect(within(view.container).getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
  const drag = (view: typeof alice, fraction: number) => {
    const bar = within(view.container).getByTestId('row-scrollbar');
    Object.defineProperty(bar, 'scrollHeight', { configurable: true, value: 1_000_000 });
    Object.defineProperty(bar, 'clientHeight', { configurable: true, value: 1_000 });
    Object.defineProperty(bar, 'scrollTop', { configurable: true, writable: true, value: fraction * 999_000 });
    fireEvent.scroll(bar);
  };
  const lastShown = (hot: typeof hotA, col: number) => hot.getDataAtCell(hot.countRows() - 1, col);
  const columnReads = () => rowReads().filter((q) => q.has('col_start'));

  // Alice removes column N from the menu: the op goes out at once, no read of the column's rows before it.
  act(() => {
    hotA.selectCell(3, 1);
    hotA.getPlugin('contextMenu').executeCommand('remove_col');
  });
  await waitFor(() => expect(ownOps()).toEqual([expect.objectContaining({ type: 'columns_remove', index: 1, count: 1 })]));
  expect(columnReads()).toEqual([]);
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`]), { timeout: 20_000 });
  const removedAt = api.sheets.get(big.id)!.version;
  await saved(alice);
  expect(columnReads()).toEqual([]);
  // Bob sees it gone, and types into row 3's Name.
  await waitFor(() => expect(hotB.countCols()).toBe(1), { timeout: 20_000 });
  act(() => hotB.setDataAtCell(3, 0, 'bob typed'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[3]).toEqual(['bob typed']), { timeout: 20_000 });

  // Alice: Ctrl+Z. One insert naming the remove's version, not a cell per row.
  const before = ownOps().length;
  act(() => hotA.listen());
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]), { timeout: 20_000 });
  expect(ownOps().slice(before)).toEqual([expect.objectContaining({ type: 'columns_insert', index: 1, count: 1, undo: removedAt })]);
  expect(api.sheets.get(big.id)!.data.filter((row, r) => row[0] !== (r === 3 ? 'bob typed' : `r${r}`) || row[1] !== r)).toEqual([]);
  // Both grids show it back (their rows read again), with Bob's edit, and past the slab.
  for (const hot of [hotA, hotB]) {
    await waitFor(() => expect(hot.getDataAtCell(5, 1)).toBe(5), { timeout: 20_000 });
    expect(hot.getDataAtCell(3, 0)).toBe('bob typed');
    expect(hot.getDataAtCell(3, 1)).toBe(3);
  }
  await waitFor(() => expect(within(alice.container).getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
  for (const [view, hot] of [[alice, hotA], [bob, hotB]] as const) {
    act(() => drag(view, 1));
    await waitFor(() => expect(lastShown(hot, 0)).toBe(`r${ROWS - 1}`), { timeout: 20_000 });
    expect(lastShown(hot, 1)).toBe(ROWS - 1);
  }
  expect(columnReads()).toEqual([]);

  // Ctrl+Y: removed again (one op); undone again by the version the redo got.
  const beforeRedo = ownOps().length;
  act(() => hotA.listen());
  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`]), { timeout: 20_000 });
  expect(ownOps().slice(beforeRedo)).toEqual([expect.objectContaining({ type: 'columns_remove', index: 1, count: 1 })]);
  const redoneAt = api.sheets.get(big.id)!.version;
  await waitFor(() => expect(hotA.countCols()).toBe(1), { timeout: 20_000 });
  await waitFor(() => expect(hotB.countCols()).toBe(1), { timeout: 20_000 });
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]), { timeout: 20_000 });
  expect(ownOps().slice(beforeRedo + 1)).toEqual([expect.objectContaining({ type: 'columns_insert', index: 1, undo: redoneAt })]);
  await waitFor(() => expect(lastShown(hotA, 1)).toBe(ROWS - 1), { timeout: 20_000 });
  await waitFor(() => expect(lastShown(hotB, 1)).toBe(ROWS - 1), { timeout: 20_000 });

  // Removed again; the server now refuses its undo (say, its history from before the remove is no
  // longer kept): the reason shows as other refusals do, the column stays removed, and the step is
  // gone (nothing here holds its cells): Ctrl+Z and Ctrl+Y send nothing more.
  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`]), { timeout: 20_000 });
  await saved(alice);
  api.live.refuse = (op) => (op.type === 'columns_insert' ? STRUCTURE_UNDO_TEXTS.unavailable : null);
  const beforeRefused = ownOps().length;
  act(() => void press('z', { ctrlKey: true }));
  expect(await within(alice.container).findAllByText(STRUCTURE_UNDO_TEXTS.unavailable)).not.toHaveLength(0);
  expect(ownOps().slice(beforeRefused)).toEqual([expect.objectContaining({ type: 'columns_insert', undo: api.sheets.get(big.id)!.version })]);
  await waitFor(() => expect(hotA.countCols()).toBe(1), { timeout: 20_000 });
  await waitFor(() => expect(lastShown(hotA, 0)).toBe(`r${ROWS - 1}`), { timeout: 20_000 });
  act(() => void press('y', { ctrlKey: true }));
  act(() => void press('z', { ctrlKey: true }));
  expect(ownOps()).toHaveLength(beforeRefused + 1);
  expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`]);
}, 180_000);

test("a cell being typed into when another user inserts a row above, or a column left of it, is saved where it moved, not into the cell now at its old place", async () => {
  await opens();
  const bob = await bobJoins();
  const hot = currentGrid();
  // The user types into row 5's N, not yet committed.
  act(() => {
    hot.selectCell(5, 1);
    hot.listen();
    // As a key typed on the cell: the editor opens, the text goes in.
    hot.getActiveEditor()!.beginEditing();
    hot.getActiveEditor()!.setValue('typed');
  });
  expect(hot.getActiveEditor()!.isOpened()).toBe(true);
  // Bob inserts a row above it: row 5 is row 6 now.
  await bob.acked(bob.send({ type: 'rows_insert', index: 2, count: 1 }));
  await waitFor(() => expect(hot.getDataAtCell(6, 0)).toBe('r5'));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[6]).toEqual(['r5', 'typed']));
  expect(api.sheets.get(big.id)!.data[5]).toEqual(['r4', 4]);

  // Again, Bob inserting a column left of N meanwhile: the text goes to N, one column right.
  await waitFor(() => expect(hot.getDataAtCell(8, 1)).toBe(7));
  act(() => {
    hot.selectCell(8, 1);
    hot.getActiveEditor()!.beginEditing();
    hot.getActiveEditor()!.setValue('typed too');
  });
  await bob.acked(bob.send({ type: 'columns_insert', index: 1, count: 1 }));
  await waitFor(() => expect(hot.getDataAtCell(8, 2)).toBe(7));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[8]).toEqual(['r7', null, 'typed too']));
});

test("a cell being typed into when another user inserts or removes many rows above it (out of the slab) is saved where it moved; a row removed above too", async () => {
  await opens();
  const bob = await bobJoins();
  const hot = currentGrid();
  /** Absolute row `row`'s place in the slab (-1: not in it). */
  const slabRow = (row: number) => Array.from({ length: hot.countRows() }, (_, i) => hot.getRowHeader(i)).indexOf(String(row + 1));
  const typeInto = (row: number, text: string) =>
    act(() => {
      hot.selectCell(slabRow(row), 1);
      hot.listen();
      hot.getActiveEditor()!.beginEditing();
      hot.getActiveEditor()!.setValue(text);
    });
  const typed = () => hot.getActiveEditor()?.isOpened() && hot.getActiveEditor()!.getValue();
  const stored = () => api.sheets.get(big.id)!.data;

  // Bob inserts 20,000 rows at the top (far more than the slab holds) while the user types into row 5.
  typeInto(5, 'typed-during');
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 20_000 }));
  await waitFor(() => expect(typed()).toBe('typed-during'));
  expect(hot.getRowHeader(hot.getSelectedLast()![0])).toBe(String(20_005 + 1));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(stored()[20_005]).toEqual(['r5', 'typed-during']));
  expect(stored()[5]).toEqual([]);

  // Bob removes them again while the user types into row 20,010: the text goes to row 10.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(20_010), 1)).toBe(10));
  typeInto(20_010, 'typed-remove');
  await bob.acked(bob.send({ type: 'rows_remove', index: 0, count: 20_000 }));
  await waitFor(() => expect(typed()).toBe('typed-remove'));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(stored()[10]).toEqual(['r10', 'typed-remove']));

  // One row removed above, in the slab: the text goes one row up with its cell.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(12), 1)).toBe(12));
  typeInto(12, 'typed-one');
  await bob.acked(bob.send({ type: 'rows_remove', index: 1, count: 1 }));
  await waitFor(() => expect(typed()).toBe('typed-one'));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(stored()[11]).toEqual(['r12', 'typed-one']));
  expect(stored()[12]).toEqual(['r13', 13]);

  // Enter pressed before the moved cell's row is read again (the reads held here): saved there once read.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(12), 1)).toBe(13));
  typeInto(12, 'typed-early');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  api.fault = (req, res, path) => {
    if (!path.endsWith('/rows')) return false;
    const query = new URL(req.url!, 'http://x').searchParams;
    const [start, count] = [Number(query.get('start')), Number(query.get('count'))];
    void held.then(() => {
      const sheet = api.sheets.get(big.id)!;
      send(res, 200, { id: sheet.id, version: sheet.version, row_count: sheet.data.length, column_count: 2, start, data: sheet.data.slice(start, start + count) });
    });
    return true;
  };
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 1 }));
  await waitFor(() => expect(hot.getSelectedLast()?.[0]).toBe(slabRow(13)));
  expect(typed()).toBeFalsy();
  act(() => void press('Enter', {}));
  api.fault = null;
  release();
  await waitFor(() => expect(stored()[13]).toEqual(['r13', 'typed-early']));
});

test("the sheet replaced by someone (a sync: a restore, an api write) comes without its cells to the windowed page, which reads its rows again; it drops the user's undo steps: Undo writes nothing into the rows now there, greyed out", async () => {
  await opens();
  const hot = currentGrid();
  act(() => hot.setDataAtCell(5, 1, 'mine'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[5]).toEqual(['r5', 'mine']));
  // As the api's PUT does: the stored grid replaced (a row above hers), its version moved, everyone on the sheet sent a sync.
  const stored = api.sheets.get(big.id)!;
  stored.data.unshift(['new', -1]);
  stored.metadata.rows += 1;
  stored.version += 1;
  const readsBefore = rowReads().length;
  api.live.restSaved(stored);
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe('new'));
  // Its socket told the server the page is windowed: the sync came without the cells (a million
  // rows' worth on a real sheet), and the rows shown were read again at its version.
  expect(api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'grid').map((r) => r.frame)).toEqual([{ type: 'grid', sheet_id: big.id, grid: 'windowed' }]);
  expect(api.live.syncs).toEqual([{ userId: 'alice', cells: false }]);
  expect(rowReads().length).toBeGreaterThan(readsBefore);
  const sent = ownOps().length;
  act(() => void hot.selectCell(0, 0));
  act(() => void press('z', { ctrlKey: true }));
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  expect(hot.getDataAtRow(5)).toEqual(['r4', 4]);
  expect(hot.getDataAtRow(6)).toEqual(['r5', 'mine']);
  expect(menuEntry(hot, 'Undo')).toBe('disabled');
  // Her next edit is the first thing she sends after it (the socket keeps order): nothing went before it.
  act(() => hot.setDataAtCell(0, 1, 0));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[0]).toEqual(['new', 0]));
  expect(ownOps().slice(sent)).toEqual([cellSent(0, 1, 0)]);
  expect(api.sheets.get(big.id)!.data.slice(5, 7)).toEqual([['r4', 4], ['r5', 'mine']]);
});

test("the user's own row insert and remove are undone from far away as on the whole grid: the row removed again, the removed row back with its cells (put back by the server: one insert naming the remove)", async () => {
  await opens();
  const at = 119_000;
  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at}`));
  act(() => {
    hot.selectCell(slabRow(at), 0);
    hot.getPlugin('contextMenu').executeCommand('row_above');
  });
  await waitFor(() => expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS + 1));
  act(() => dragBar(0));
  await waitFor(() => expect(hot.getRowHeader(0)).toBe('1'));
  act(() => hot.selectCell(0, 0));
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(ownOps().at(-1)).toEqual(expect.objectContaining({ type: 'rows_remove', index: at, count: 1 })));
  await waitFor(() => expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS));
  // The grid went there; its rows read again once the server had it.
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at}`));
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));

  act(() => {
    hot.selectCell(slabRow(at), 0);
    hot.getPlugin('contextMenu').executeCommand('remove_row');
  });
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at + 1}`, at + 1]));
  const removedAt = api.sheets.get(big.id)!.version;
  act(() => dragBar(0));
  await waitFor(() => expect(hot.getRowHeader(0)).toBe('1'));
  const before = ownOps().length;
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[at]).toEqual([`r${at}`, at]));
  expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS);
  expect(ownOps().slice(before)).toEqual([expect.objectContaining({ type: 'rows_insert', index: at, count: 1, undo: removedAt })]);
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 1)).toBe(at));
});

/** What a chart shows: its categories along the axis and its bars' heights (px). */
// (The category axis's labels are centred under their bars; the value axis's end at it.)
const categoriesOf = (frame: HTMLElement) => [...frame.querySelectorAll('.recharts-cartesian-axis-tick-value[text-anchor="middle"]')].map((t) => t.textContent);
const barHeights = (frame: HTMLElement) =>
  [...frame.querySelectorAll('.recharts-bar-rectangle path')].map((p) => Math.abs(Number(/v\s*(-?[\d.]+)/.exec(p.getAttribute('d') ?? '')?.[1] ?? 0)));
const frameOf = (chartId: string) => document.querySelector<HTMLElement>(`[data-testid="chart-frame"][data-chart-id="${chartId}"]`)!;
const withCharts = (...charts: ChartDefinition[]) => {
  const sheet = api.sheets.get(big.id)!;
  sheet.metadata = { ...sheet.metadata, charts } as Sheet['metadata'];
};

test("a chart opens windowed with its sheet and draws the rows of its range, read through windows; another user's edit redraws it; rows they insert, or the user removes, above it move it with its cells", async () => {
  // Rows 6,001–6,003: in the second window, which the grid does not show.
  withCharts(testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a31', range: { start_row: 6_000, start_col: 0, end_row: 6_002, end_col: 1 } }));
  await opens();
  const frame = await screen.findByTestId('chart-frame');
  await waitFor(() => expect(categoriesOf(frame)).toEqual(['r6000', 'r6001', 'r6002']), { timeout: 15_000 });
  expect(wholeReads()).toEqual([]);
  expect(rowReads().map((q) => q.get('start'))).toContain('5000');

  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 6_001, column: 1 }, value: 12_002 }));
  // The middle bar twice as tall as the others.
  await waitFor(() => {
    const [a, b, c] = barHeights(frame);
    expect(Math.abs(b - 2 * a)).toBeLessThanOrEqual(2);
    expect(Math.abs(a - c)).toBeLessThanOrEqual(1);
  });
  await bob.acked(bob.send({ type: 'rows_insert', index: 10, count: 2 }));
  // Its cells are now rows 6,003–6,005: read there, the chart is the same.
  await waitFor(() => expect(rowReads().length).toBeGreaterThan(2));
  await waitFor(() => expect(categoriesOf(frame)).toEqual(['r6000', 'r6001', 'r6002']));
  const [a, b] = barHeights(frame);
  expect(Math.abs(b - 2 * a)).toBeLessThanOrEqual(2);

  // The user's own row removed above it (rows 4 and 5): its cells are rows 6,001–6,003 now, read there once the server has it.
  const reads = rowReads().length;
  const hot = currentGrid();
  act(() => {
    hot.selectCell(3, 0, 4, 0);
    hot.getPlugin('contextMenu').executeCommand('remove_row');
  });
  await waitFor(() => expect(ownOps()).toEqual([expect.objectContaining({ type: 'rows_remove', index: 3, count: 2 })]));
  await waitFor(() => expect(rowReads().length).toBeGreaterThan(reads));
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  await waitFor(() => expect(categoriesOf(frame)).toEqual(['r6000', 'r6001', 'r6002']));
  // Still following its cells: bob's 18,006 in r6002's row, at its place now, makes the last bar thrice the first.
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 6_002, column: 1 }, value: 18_006 }));
  await waitFor(() => {
    const [a2, b2, c2] = barHeights(frame);
    expect(Math.abs(b2 - 2 * a2)).toBeLessThanOrEqual(2);
    expect(Math.abs(c2 - 3 * a2)).toBeLessThanOrEqual(3);
  });
  expect(wholeReads()).toEqual([]);
});

test("a chart box stays on its anchored cell as the slab moves: one at the top goes above the rows shown at the end, one near the end comes into place; a chat message's 'Show chart' moves the grid to a chart's row", async () => {
  const top = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a32', title: 'Top' });
  const end = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a33', title: 'End', box: { row: ROWS - 40, col: 3, dx: 0, dy: 0, width: 300, height: 200 } });
  const far = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a35', title: 'Far', box: { row: 119_000, col: 3, dx: 0, dy: 0, width: 300, height: 200 } });
  withCharts(top, end, far);
  const shell = await opens();
  await waitFor(() => expect(screen.getAllByTestId('chart-frame')).toHaveLength(3));
  const topPx = () => parseFloat(getComputedStyle(frameOf(top.id)).top);
  const endPx = () => parseFloat(getComputedStyle(frameOf(end.id)).top);
  // The grid holds the slab's rows (from the sheet's first): the end's anchor is far below them.
  const slabPx = SLAB.rows * 40;
  expect(topPx()).toBeGreaterThanOrEqual(0);
  expect(topPx()).toBeLessThan(100);
  expect(endPx()).toBeGreaterThan(slabPx);

  act(() => dragBar(1));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getRowHeader(hot.countRows() - 1)).toBe(String(ROWS)));
  // Placed from the slab's first row now: 40 rows above the last one, the top chart far above.
  await waitFor(() => expect(endPx()).toBeLessThan(slabPx));
  expect(endPx()).toBeGreaterThan(0);
  expect(topPx()).toBeLessThan(0);

  // Row 119,001 is outside the slab now: 'Show chart' moves it there; the chart is outlined, in place.
  const farPx = () => parseFloat(getComputedStyle(frameOf(far.id)).top);
  expect(farPx()).toBeLessThan(0);
  act(() => shell.bus.emit('chart-focus', { sheetId: big.id, chartId: far.id }));
  await waitFor(() => expect(hot.getDataAtCell(slabRow(119_000), 0)).toBe('r119000'));
  expect(frameOf(far.id)).toHaveAttribute('data-focused', 'true');
  await waitFor(() => expect(farPx()).toBeGreaterThan(0));
  expect(farPx()).toBeLessThan(slabPx);
});

test('Insert chart on a windowed sheet: the cells selected far down are its range at their absolute rows, and it draws them', async () => {
  await opens();
  const at = 119_000;
  act(() => dragBar(at / ROWS));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(slabRow(at), 0)).toBe(`r${at}`));
  act(() => void hot.selectCell(slabRow(at), 0, slabRow(at + 2), 1));
  await waitFor(() => expect(screen.getByTestId('insert-chart')).toBeEnabled());
  act(() => screen.getByTestId('insert-chart').click());
  const dialog = await screen.findByTestId('insert-chart-dialog');
  expect(within(dialog).getByTestId('chart-range')).toHaveValue(`A${at + 1}:B${at + 3}`);

  const posted: ChartDefinition[] = [];
  api.fault = (req, res, path) => {
    if (req.method !== 'POST' || path !== `/api/v1/sheets/${big.id}/charts`) return false;
    const { base_version: _base, ...body } = api.requests.at(-1)!.body as ChartDefinition & { base_version: number };
    const chart = { ...body, id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a34' };
    posted.push(chart);
    send(res, 201, { version: api.sheets.get(big.id)!.version + 1, charts: [chart], chart });
    return true;
  };
  act(() => within(dialog).getByTestId('chart-insert').click());
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(posted[0].range).toEqual({ start_row: at, start_col: 0, end_row: at + 2, end_col: 1 });
  const frame = await screen.findByTestId('chart-frame');
  await waitFor(() => expect(categoriesOf(frame)).toEqual([`r${at}`, `r${at + 1}`, `r${at + 2}`]), { timeout: 15_000 });
  expect(wholeReads()).toEqual([]);
});

/** A sheet of SWITCHED_ROWS rows without formulas, shown windowed (see the mock above) to alice. */
async function opensSwitchable() {
  const sheet = makeSheet('Switchable', Array.from({ length: SWITCHED_ROWS }, (_, r) => [`r${r}`, r]), ['Name', 'N']);
  api.sheets.set(sheet.id, sheet);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice')} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  return sheet;
}

test('a formula typed into a windowed sheet the engine can take switches it to whole: computed, saved, where the user was, undoable', async () => {
  const sheet = await opensSwitchable();
  const windowedGrid = currentGrid();
  // The windowed grid stays shown until the whole one replaces it: no 'Loading sheet...' in between.
  let spinner = false;
  const watch = new MutationObserver(() => (spinner ||= document.body.textContent?.includes(MESSAGES.loadingSheet) ?? false));
  watch.observe(document.body, { childList: true, subtree: true, characterData: true });
  act(() => windowedGrid.setDataAtCell(2, 1, '=B4*2'));
  act(() => windowedGrid.selectCell(7, 0));
  // Loaded whole with the formula engine: the formula's value shown, the server holds the formula.
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  await waitFor(() => expect(shownText(2, 1)).toBe('6'));
  expect(api.sheets.get(sheet.id)!.data[2]).toEqual(['r2', '=B4*2']);
  const hot = currentGrid();
  expect(hot).not.toBe(windowedGrid);
  expect(hot.countRows()).toBe(SWITCHED_ROWS);
  expect(screen.getByTestId('sheet-grid')).not.toHaveAttribute('data-windowed', 'on');
  expect(screen.queryByTestId('formulas-over-limit')).toBeNull();
  watch.disconnect();
  expect(spinner).toBe(false);
  // The cell the user had selected still is; the formula typed before the switch is undone on the whole grid.
  expect(hot.getSelectedLast()?.slice(0, 2)).toEqual([7, 0]);
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[2]).toEqual(['r2', 2]));
  expect(shownText(2, 1)).toBe('2');
});

test("another user's formula in a windowed sheet the engine can take switches it to whole and computes it", async () => {
  const sheet = await opensSwitchable();
  const bob = await bobJoins(sheet.id);
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 0, column: 1 }, value: '=SUM(B2:B4)' }));
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  await waitFor(() => expect(shownText(0, 1)).toBe('6'));
  expect(currentGrid().countRows()).toBe(SWITCHED_ROWS);
});

test('a formula written over REST (the sheet replaced: a sync) into a windowed sheet the engine can take switches it to whole', async () => {
  const sheet = await opensSwitchable();
  // As the api's PUT does: the stored grid replaced, its version moved, everyone on the sheet sent a sync.
  const stored = api.sheets.get(sheet.id)!;
  stored.data[0][1] = '=SUM(B2:B4)';
  stored.version += 1;
  api.live.restSaved(stored);
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  await waitFor(() => expect(shownText(0, 1)).toBe('6'));
});

test("a formula typed into a windowed sheet past the engine's bound stays text, and the notice says so with the server's count", async () => {
  // 120,000 rows × 23 cells held, no formula: opens windowed without a notice.
  const width = Math.floor(HYBRID_MAX_CELLS / ROWS) + 2;
  const sheet = makeSheet('Wide', Array.from({ length: ROWS }, (_, r) => [`r${r}`, ...Array<number>(width - 1).fill(r)]), Array.from({ length: width }, (_, c) => `C${c}`));
  api.sheets.set(sheet.id, sheet);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice')} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  const hot = currentGrid();
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe('r0'));
  expect(screen.queryByTestId('formulas-over-limit')).toBeNull();
  act(() => hot.setDataAtCell(2, 1, '=B1'));
  expect(await screen.findByTestId('formulas-over-limit')).toHaveTextContent(formulasOverLimit(ROWS * width, HYBRID_MAX_CELLS));
  expect(api.sheets.get(sheet.id)!.data[2][1]).toBe('=B1');
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  expect(hot.getCell(2, 1)).toHaveTextContent('=B1');
  // Never read whole.
  expect(api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${sheet.id}`)).toEqual([]);
});

test("the column header's menu sorts a windowed sheet Z → A: the server orders the rows and the windows shown are read again; Ctrl+Z puts them back", async () => {
  // Opened windowed as one of WINDOWED_SHEET_MIN_ROWS (see the mock above); the api sorts sheets of up to SORT_MAX_ROWS rows.
  const sheet = makeSheet('Sortable', Array.from({ length: SWITCHED_ROWS }, (_, r) => [`r${r}`, r]), ['Name', 'N']);
  api.sheets.set(sheet.id, sheet);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice')} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  act(() => void currentGrid().selectColumns(1));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('sort_desc'));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[0]).toEqual([`r${SWITCHED_ROWS - 1}`, SWITCHED_ROWS - 1]));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe(`r${SWITCHED_ROWS - 1}`));
  expect(currentGrid().getDataAtCell(1, 1)).toBe(SWITCHED_ROWS - 2);
  expect(api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${sheet.id}`)).toEqual([]);
  // Ctrl+Z: the server puts the rows back in their order before the sort; the windows are read again.
  act(() => void currentGrid().selectCell(0, 0));
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[0]).toEqual(['r0', 0]));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  expect(currentGrid().getDataAtCell(1, 1)).toBe(1);
});

test("a row filter on a windowed sheet: the dialog lists the column's values from the api, only the matching rows show with their sheet row numbers and the count; an edit lands on its sheet row; others' edits and rows inserted are followed (a cell being typed into too); Delete of a whole column empties the rows shown only, a paste fills them only; find passes over hidden rows; Clear filter shows every row", async () => {
  await opens();
  const hot = currentGrid();
  // Column Name, right-clicked: 'Filter by this column…'.
  act(() => void hot.selectColumns(0));
  act(() => hot.getPlugin('contextMenu').executeCommand('filter_column'));
  const dialog = await screen.findByTestId('filter-dialog');
  // The values come from the api (the first 200 of 120,000, the rest counted).
  await waitFor(() => expect(dialog).toHaveTextContent('r0 (1)'));
  expect(screen.getByTestId('filter-more')).toHaveTextContent(FILTER_TEXTS.moreValues(ROWS - 200));
  // The search asks the api again.
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'r11999' } });
  const values = ['r11999', ...Array.from({ length: 10 }, (_, i) => `r11999${i}`)];
  await waitFor(() => expect(screen.getByTestId('filter-values')).toHaveTextContent(values.map((text) => `${text} (1)`).join(''), { normalizeWhitespace: false }));
  // A condition: Name contains 9999.
  fireEvent.change(screen.getByRole('combobox', { name: FILTER_TEXTS.conditionLabel }), { target: { value: 'contains' } });
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.conditionValue }), { target: { value: '9999' } });
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  const matching = big.data.flatMap((row, r) => (String(row[0]).includes('9999') ? [r] : []));
  await waitFor(() => expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(matching.length, ROWS)));
  // Only those rows, numbered as in the sheet, their windows read.
  await waitFor(() => expect(currentGrid().getDataAtCell(1, 0)).toBe(`r${matching[1]}`));
  expect(currentGrid().countRows()).toBe(matching.length);
  // Name's header marked as filtered.
  expect([...document.querySelectorAll(`.ht_clone_top thead th[title="${FILTER_TEXTS.headerMarkTitle}"]`)].map((th) => th.textContent?.trim())).toEqual(['Name']);
  expect([0, 1, matching.length - 1].map((i) => currentGrid().getRowHeader(i))).toEqual([matching[0] + 1, matching[1] + 1, matching.at(-1)! + 1].map(String));
  await waitFor(() => expect(currentGrid().getDataAtCell(matching.length - 1, 0)).toBe(`r${matching.at(-1)}`));
  // Ctrl+C with Name's header selected: the rows shown only, through the clipboard (not the slab's copy).
  const clipboard = stubClipboard();
  try {
    act(() => {
      currentGrid().selectColumns(0);
      currentGrid().listen();
    });
    expect(clipboardEvent('copy')).toEqual({});
    await waitFor(() => expect(clipboard.written).toEqual([matching.map((r) => `r${r}`).join('\n')]), { timeout: 20_000 });
  } finally {
    clipboard.remove();
  }
  // An edit of the second row shown goes to its sheet row.
  act(() => currentGrid().setDataAtCell(1, 1, 'edited'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[matching[1]][1]).toBe('edited'));
  expect(api.sheets.get(big.id)!.data[1][1]).toBe(1);
  // Another user's edit of a row shown, in the filtered column, hides it (judged here); rows they insert above move the rows shown.
  // The user types into the third row shown meanwhile: the text is saved into it, moved up a row.
  const bob = await bobJoins();
  act(() => {
    currentGrid().selectCell(2, 1);
    currentGrid().listen();
    currentGrid().getActiveEditor()!.beginEditing();
    currentGrid().getActiveEditor()!.setValue('typed');
  });
  await bob.acked(bob.send({ type: 'cell_update', position: { row: matching[0], column: 0 }, value: 'gone' }));
  await waitFor(() => expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(matching.length - 1, ROWS)));
  expect(currentGrid().getRowHeader(0)).toBe(String(matching[1] + 1));
  act(() => void press('Enter', {}));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[matching[2]][1]).toBe('typed'));
  expect(api.sheets.get(big.id)!.data[matching[3]][1]).toBe(matching[3]);
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 2 }));
  await waitFor(() => expect(currentGrid().getRowHeader(0)).toBe(String(matching[1] + 3)));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe(`r${matching[1]}`));
  expect(currentGrid().countRows()).toBe(matching.length - 1);
  // Delete with column N selected empties it in the rows shown only, a cells_clear per run of them; the hidden rows keep theirs.
  act(() => {
    currentGrid().selectColumns(1);
    currentGrid().listen();
  });
  act(() => void press('Delete', {}));
  const shownNow = matching.slice(1).map((r) => r + 2);
  const stored = () => api.sheets.get(big.id)!.data;
  await waitFor(() => expect(shownNow.map((r) => stored()[r][1])).toEqual(shownNow.map(() => null)), { timeout: 10_000 });
  expect([stored()[5][1], stored()[matching[0] + 2]]).toEqual([3, ['gone', matching[0]]]);
  const runs = shownNow.filter((r, k) => k === 0 || shownNow[k - 1] !== r - 1).length;
  expect(ownOps().filter((op) => op.type === 'cells_clear')).toHaveLength(runs);
  // A paste over the last rows shown goes into the rows shown only; its row past the last one grows the sheet and shows.
  const len = currentGrid().countRows();
  act(() => {
    currentGrid().selectCell(len - 2, 0);
    currentGrid().listen();
    currentGrid().getPlugin('copyPaste').paste('x\ny\nz');
  });
  const [r1, r2] = shownNow.slice(-2);
  await waitFor(() => expect([stored()[r1][0], stored()[r2][0], stored()[ROWS + 2]?.[0]]).toEqual(['x', 'y', 'z']));
  expect(stored()[r1 + 1][0]).toBe(`r${r1 - 1}`);
  await waitFor(() => expect(currentGrid().getDataAtCell(len, 0)).toBe('z'));
  // Find passes over the rows hidden (r2999, r12999): the first match shown is r29999.
  act(() => currentGrid().selectCell(0, 0));
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ctrlKey: true });
  fireEvent.change(screen.getByRole('textbox', { name: FIND_TEXTS.label }), { target: { value: 'r2999' } });
  await waitFor(() => expect(currentGrid().getDataAtCell(currentGrid().getSelectedLast()![0], 0)).toBe('r29999'));
  // Clear filter: every row again, from the top.
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clear }));
  await waitFor(() => expect(currentGrid().getDataAtCell(3, 0)).toBe('r1'));
  expect(currentGrid().getRowHeader(3)).toBe('4');
  expect(currentGrid().getDataAtCell(1, 0)).toBeNull();
  expect(screen.queryByTestId('filter-bar')).toBeNull();
});

test("rows removed from the menu with a row filter on go as one remove per run of rows shown; one Ctrl+Z inserts each again naming its own remove, the server puts their cells back; Ctrl+Y removes them again", async () => {
  await opens();
  act(() => void currentGrid().selectColumns(0));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('filter_column'));
  await screen.findByTestId('filter-dialog');
  fireEvent.change(screen.getByRole('combobox', { name: FILTER_TEXTS.conditionLabel }), { target: { value: 'contains' } });
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.conditionValue }), { target: { value: '9999' } });
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  const matching = big.data.flatMap((row, r) => (String(row[0]).includes('9999') ? [r] : []));
  await waitFor(() => expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(matching.length, ROWS)));
  await waitFor(() => expect(currentGrid().getDataAtCell(2, 0)).toBe(`r${matching[2]}`));
  // The first three rows shown (three runs of the sheet's rows: none is next to another).
  expect(matching.slice(0, 3)).toEqual([9_999, 19_999, 29_999]);
  act(() => {
    currentGrid().selectCell(0, 0, 2, 1);
    currentGrid().getPlugin('contextMenu').executeCommand('remove_row');
  });
  await waitFor(() => expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS - 3));
  const removes = ownOps();
  expect(removes).toEqual([29_999, 19_999, 9_999].map((index) => expect.objectContaining({ type: 'rows_remove', index, count: 1 })));
  const removedAt = api.sheets.get(big.id)!.version;
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));

  act(() => currentGrid().listen());
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS));
  // The last remove first, each insert naming its own remove's version; no cells sent.
  await waitFor(() => expect(ownOps().slice(3)).toEqual([9_999, 19_999, 29_999].map((index, k) => expect.objectContaining({ type: 'rows_insert', index, count: 1, undo: removedAt - k }))));
  expect(api.sheets.get(big.id)!.data.filter((row, r) => row[0] !== `r${r}` || row[1] !== r)).toEqual([]);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 1)).toBe(9_999), { timeout: 20_000 });

  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data).toHaveLength(ROWS - 3));
  expect(ownOps().slice(6)).toEqual([29_999, 19_999, 9_999].map((index) => expect.objectContaining({ type: 'rows_remove', index, count: 1 })));
}, 120_000);

test("find with a row filter on a windowed sheet: the api finds in the rows it shows (the filter sent with each search), the count is of those, Enter and Shift+Enter step through them only, past the slab", async () => {
  await opens();
  // Name contains 5: 47,829 rows of 120,000 shown, far more than the slab holds.
  act(() => void currentGrid().selectColumns(0));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('filter_column'));
  await screen.findByTestId('filter-dialog');
  fireEvent.change(screen.getByRole('combobox', { name: FILTER_TEXTS.conditionLabel }), { target: { value: 'contains' } });
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.conditionValue }), { target: { value: '5' } });
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  const shown = big.data.flatMap((row, r) => (String(row[0]).includes('5') ? [r] : []));
  await waitFor(() => expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(shown.length, ROWS)));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe(`r${shown[0]}`));
  // '777': in Name and in N of the same rows; 318 rows of the sheet, 59 of them shown (the first at the 2,133rd row shown).
  const matches = shown.flatMap((r) => (String(r).includes('777') ? [[r, 0], [r, 1]] : []));
  expect([matches.length, shown.indexOf(matches[0][0]) > SLAB.rows]).toEqual([118, true]);
  act(() => currentGrid().selectCell(0, 0));
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ctrlKey: true });
  const box = screen.getByRole('textbox', { name: FIND_TEXTS.label });
  const count = () => screen.getByTestId('find-count');
  const at = () => {
    const hot = currentGrid();
    const [row, col] = hot.getSelectedLast() ?? [-1, -1];
    return [Number(hot.getRowHeader(row)) - 1, col];
  };
  fireEvent.change(box, { target: { value: '777' } });
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.count(1, matches.length)));
  await waitFor(() => expect(at()).toEqual(matches[0]));
  // Asked with the filter (a POST: its texts do not fit a URL).
  const finds = api.requests.filter((r) => r.path.startsWith(`/api/v1/sheets/${big.id}/find`));
  expect(finds.map((r) => [r.method, (r.body as { filters?: unknown }).filters])).toEqual([['POST', [{ column: 0, values: null, condition: { kind: 'contains', value: '5' } }]]]);
  // Enter: the next matches of rows shown, each thousands of rows shown apart (the slab moved to each).
  for (let n = 2; n <= 6; n++) {
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(at()).toEqual(matches[n - 1]));
    expect(count()).toHaveTextContent(FIND_TEXTS.count(n, matches.length));
  }
  await waitFor(() => expect(currentGrid().getDataAtCell(currentGrid().getSelectedLast()![0], 0)).toBe(`r${matches[5][0]}`));
  // Shift+Enter back to the first, and past it round to the last shown match (the api asked backwards).
  for (let n = 5; n >= 1; n--) fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
  await waitFor(() => expect(at()).toEqual(matches[0]));
  fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.count(matches.length, matches.length)));
  await waitFor(() => expect(at()).toEqual(matches.at(-1)));
});

test("a sort with a row filter on shows the rows the filter shows in their new order (the api asked again); another user's rows past the end are judged", async () => {
  const sheet = makeSheet('Sortable', Array.from({ length: SWITCHED_ROWS }, (_, r) => [`r${r}`, r < SWITCHED_ROWS / 3 ? 'keep' : 'drop']), ['Name', 'Kind']);
  api.sheets.set(sheet.id, sheet);
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice')} />);
  expect(await screen.findByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'));
  // Kind: 'drop' unticked.
  act(() => void currentGrid().selectColumns(1));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('filter_column'));
  await waitFor(() => expect(screen.getByTestId('filter-values')).toHaveTextContent(`drop (${(SWITCHED_ROWS * 2) / 3})`));
  fireEvent.click(screen.getByRole('checkbox', { name: /drop/ }));
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  await waitFor(() => expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(SWITCHED_ROWS / 3, SWITCHED_ROWS)));
  await waitFor(() => expect(currentGrid().getDataAtCell(1, 0)).toBe('r1'));
  // Sorted Z → A by Name: the server orders the rows; the rows shown are those it keeps, in their new order, at their new rows.
  act(() => void currentGrid().selectCell(0, 0));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('sort_desc'));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[0][0]).not.toBe('r0'));
  const kept = api.sheets.get(sheet.id)!.data.flatMap((row, r) => (row[1] === 'keep' ? [[r, row[0]]] : []));
  const last = SWITCHED_ROWS / 3 - 1;
  await waitFor(() => expect([0, 1, last].map((i) => [Number(currentGrid().getRowHeader(i)) - 1, currentGrid().getDataAtCell(i, 0)])).toEqual([kept[0], kept[1], kept[last]]));
  expect(currentGrid().countRows()).toBe(SWITCHED_ROWS / 3);
  // Another user writes rows past the end: judged, the one the filter keeps shown at its row.
  const bob = await bobJoins(sheet.id);
  for (const [row, column, value] of [[SWITCHED_ROWS, 0, 'new'], [SWITCHED_ROWS, 1, 'keep'], [SWITCHED_ROWS + 1, 1, 'drop']] as const) {
    await bob.acked(bob.send({ type: 'cell_update', position: { row, column }, value }));
  }
  await waitFor(() => expect(currentGrid().countRows()).toBe(SWITCHED_ROWS / 3 + 1));
  expect([currentGrid().getRowHeader(last + 1), currentGrid().getDataAtCell(last + 1, 0)]).toEqual([String(SWITCHED_ROWS + 1), 'new']);
});

test("Ctrl+Z of a whole column's Delete: the server puts it back (one cells_clear_undo, not a change per row); the cell another user typed into meanwhile keeps theirs, on both users' grids and past the slab; Ctrl+Y clears it again", async () => {
  const alice = renderInShell(<Workspace shell={liveShellFor(api.url, big.id, 'alice')} />);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('r0'), { timeout: 20_000 });
  const hotA = currentGrid();
  // Bob's page, windowed too.
  const bob = renderInShell(<Workspace shell={liveShellFor(api.url, big.id, 'bob')} />);
  // (A grid takes a while to build in jsdom on a loaded machine.)
  await waitFor(() => expect(within(bob.container).getByTestId('sheet-grid')).toHaveAttribute('data-windowed', 'on'), { timeout: 15_000 });
  await waitFor(() => expect(currentGrid()).not.toBe(hotA), { timeout: 15_000 });
  const hotB = currentGrid();
  await waitFor(() => expect(hotB.getDataAtCell(0, 0)).toBe('r0'), { timeout: 15_000 });
  await waitFor(() => expect(api.live.sockets('bob')).toBe(1), { timeout: 20_000 });
  const saved = (view: typeof alice) => waitFor(() => expect(within(view.container).getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
  /** A page's own scroll bar dragged to `fraction` (dragBar, for one of the two pages). */
  const drag = (view: typeof alice, fraction: number) => {
    const bar = within(view.container).getByTestId('row-scrollbar');
    Object.defineProperty(bar, 'scrollHeight', { configurable: true, value: 1_000_000 });
    Object.defineProperty(bar, 'clientHeight', { configurable: true, value: 1_000 });
    Object.defineProperty(bar, 'scrollTop', { configurable: true, writable: true, value: fraction * 999_000 });
    fireEvent.scroll(bar);
  };
  const lastShown = (hot: typeof hotA) => hot.getDataAtCell(hot.countRows() - 1, 1);

  // Alice deletes column N (every row of the sheet); the server's ack to her is slow to come.
  api.live.holdAcks('alice');
  act(() => {
    hotA.selectColumns(1);
    hotA.listen();
  });
  act(() => void press('Delete', {}));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, null]), { timeout: 20_000 });
  const clear = ownOps().at(-1)!;
  expect(clear).toEqual(expect.objectContaining({ type: 'cells_clear', rows: { start: 0, count: ROWS }, columns: { start: 1, count: 1 } }));
  const clearedAt = api.sheets.get(big.id)!.version;
  // Bob sees it, and types into one of the cleared cells.
  await waitFor(() => expect(hotB.getDataAtCell(3, 1)).toBeNull(), { timeout: 20_000 });
  act(() => hotB.setDataAtCell(3, 1, 'bob typed'));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[3]).toEqual(['r3', 'bob typed']), { timeout: 20_000 });

  // Alice: Ctrl+Z, before her clear's ack came: undone once it has (by its version), not cell by cell.
  const before = ownOps().length;
  act(() => hotA.listen());
  act(() => void press('z', { ctrlKey: true }));
  act(() => api.live.releaseAcks());
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]), { timeout: 20_000 });
  // One small operation naming the clear's version, not a change per row.
  expect(ownOps().slice(before)).toEqual([expect.objectContaining({ type: 'cells_clear_undo', undo: clearedAt })]);
  // Every row's N back on the server, but Bob's cell, which keeps what he typed.
  expect(api.sheets.get(big.id)!.data.filter((row, r) => row[1] !== (r === 3 ? 'bob typed' : r))).toEqual([]);
  // Both grids show it: the rows shown read again.
  for (const hot of [hotA, hotB]) {
    await waitFor(() => expect(hot.getDataAtCell(5, 1)).toBe(5), { timeout: 20_000 });
    expect(hot.getDataAtCell(3, 1)).toBe('bob typed');
    expect(hot.getDataAtCell(0, 1)).toBe(0);
  }
  // Past the slab too, on both.
  for (const [view, hot] of [[alice, hotA], [bob, hotB]] as const) {
    act(() => drag(view, 1));
    await waitFor(() => expect(hot.getDataAtCell(hot.countRows() - 1, 0)).toBe(`r${ROWS - 1}`), { timeout: 20_000 });
    expect(lastShown(hot)).toBe(ROWS - 1);
  }

  // Ctrl+Y: cleared again, as one cells_clear.
  const beforeRedo = ownOps().length;
  act(() => hotA.listen());
  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data.filter((row) => row[1] !== null)).toEqual([]), { timeout: 20_000 });
  expect(ownOps().slice(beforeRedo)).toEqual([expect.objectContaining({ type: 'cells_clear', rows: { start: 0, count: ROWS }, columns: { start: 1, count: 1 } })]);
  await waitFor(() => expect(lastShown(hotA)).toBeNull(), { timeout: 20_000 });
  await waitFor(() => expect(lastShown(hotB)).toBeNull(), { timeout: 20_000 });
  await saved(alice);
  // And undone again by the version the redo's clear got.
  const redoneAt = api.sheets.get(big.id)!.version;
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]), { timeout: 20_000 });
  expect(ownOps().slice(beforeRedo + 1)).toEqual([expect.objectContaining({ type: 'cells_clear_undo', undo: redoneAt })]);
  await waitFor(() => expect(lastShown(hotA)).toBe(ROWS - 1), { timeout: 20_000 });
  await waitFor(() => expect(lastShown(hotB)).toBe(ROWS - 1), { timeout: 20_000 });

  // Cleared again; the server now refuses its undo (say, its history from before the clear is no
  // longer kept): the reason shows as other refusals do, nothing moves; Ctrl+Z again puts the cells
  // back one by one from the values held here.
  act(() => void press('y', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data.filter((row) => row[1] !== null)).toEqual([]), { timeout: 20_000 });
  await saved(alice);
  api.live.refuse = (op) => (op.type === 'cells_clear_undo' ? CLEAR_TEXTS.undoUnavailable : null);
  const beforeRefused = ownOps().length;
  act(() => void press('z', { ctrlKey: true }));
  expect(await within(alice.container).findAllByText(CLEAR_TEXTS.undoUnavailable)).not.toHaveLength(0);
  expect(ownOps().slice(beforeRefused)).toEqual([expect.objectContaining({ type: 'cells_clear_undo' })]);
  expect(lastShown(hotA)).toBeNull();
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, ROWS - 1]), { timeout: 20_000 });
  expect(ownOps().slice(beforeRefused + 1).every((op) => op.type === 'cells_update' || op.type === 'cell_update')).toBe(true);
  await saved(alice);
  expect(api.sheets.get(big.id)!.data.filter((row, r) => row[1] !== r)).toEqual([]);
  // Two pages, a whole column read and written back cell by cell: longer than the file's 60 s on a loaded machine.
}, 180_000);

test("Ctrl+Z of a whole column's Delete after another user sorted the sheet (too many rows for the order to be sent): the server puts each cell back on its row where the sort took it", async () => {
  await opens();
  const hot = currentGrid();
  act(() => {
    hot.selectColumns(1);
    hot.listen();
  });
  act(() => void press('Delete', {}));
  await waitFor(() => expect(api.sheets.get(big.id)!.data[ROWS - 1]).toEqual([`r${ROWS - 1}`, null]), { timeout: 20_000 });
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'), { timeout: 20_000 });
  // Bob sorts the sheet by Name, Z → A: no frame carries the order of so many rows; the grid reads its rows again.
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'rows_sort', column: 0, direction: 'desc' }));
  const first = api.sheets.get(big.id)!.data[0][0] as string;
  expect(first).not.toBe('r0');
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe(first), { timeout: 20_000 });
  expect(hot.getDataAtCell(0, 1)).toBeNull();

  const before = ownOps().length;
  act(() => void press('z', { ctrlKey: true }));
  // Each name gets its N back, on the row the sort moved it to.
  await waitFor(() => expect(api.sheets.get(big.id)!.data[0]).toEqual([first, Number(first.slice(1))]), { timeout: 20_000 });
  expect(ownOps().slice(before)).toEqual([expect.objectContaining({ type: 'cells_clear_undo' })]);
  expect(api.sheets.get(big.id)!.data.filter((row) => row[1] !== Number(String(row[0]).slice(1)))).toEqual([]);
  await waitFor(() => expect(hot.getDataAtCell(0, 1)).toBe(Number(first.slice(1))), { timeout: 20_000 });
  expect(hot.getDataAtCell(5, 1)).toBe(Number(String(hot.getDataAtCell(5, 0)).slice(1)));
}, 120_000);
