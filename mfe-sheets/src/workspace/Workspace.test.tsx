import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type ShellContext, type Sheet, type ShellTab } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid, shownText } from './testing/grid-instances.js';
import { chooseFromFileMenu, menuEntry, menuTexts } from './testing/workspace-menus.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, send, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let budget: Sheet;
let actions: string[];

beforeEach(async () => {
  budget = makeSheet('Budget', [['Rent', 1200], ['Food', 300]], ['Item', 'Cost']);
  api = await startSheetApi([budget]);
  actions = [];
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

/** The shell as signed in as alice, with the sheet's live socket on the test api. */
function shellFor(sheetId: string | null, tab: ShellTab = 'data'): ShellContext {
  const options = { tab, onAction: (a: string) => actions.push(a) };
  return sheetId === null ? createDevShellContext({ apiBaseURL: api.url, sheetId, ...options }) : liveShellFor(api.url, sheetId, 'alice', options);
}

/** The operations alice's socket sent, in order. */
const operationsSent = () => api.live.received.flatMap(({ frame }) => (frame.type === 'operation' ? [frame.operation] : []));

async function openSheet(sheet: Sheet = budget, shell = shellFor(sheet.id)) {
  const view = renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  return { shell, view };
}

const requestsOf = (method: string) => api.requests.filter((r) => r.method === method);

test("with no sheet: the spec's placeholder and 'Select a sheet to see file operations'", () => {
  renderInShell(<Workspace shell={shellFor(null)} />);
  expect(screen.getByRole('heading', { name: 'No Sheet Selected' })).toBeInTheDocument();
  expect(screen.getByText('Select a sheet from the sidebar to get started')).toBeInTheDocument();
  expect(screen.getByText('Select a sheet to see file operations')).toBeInTheDocument();
  expect(screen.queryByTestId('file-menu')).not.toBeInTheDocument();
});

test("'Loading sheet...', then the grid, the toolbar, sheet-loaded with the id, and the shell knows the sheet", async () => {
  const shell = shellFor(budget.id);
  const loaded: unknown[] = [];
  shell.bus.on('sheet-loaded', (e) => loaded.push(e));
  renderInShell(<Workspace shell={shell} />);
  expect(screen.getByText('Loading sheet...')).toBeInTheDocument();

  const grid = await screen.findByTestId('sheet-grid');
  expect(grid).toHaveAttribute('data-formulas', 'off');
  expect(screen.getByTestId('sheet-name')).toHaveTextContent('Budget');
  expect(screen.getByTestId('save-status')).toHaveTextContent('Saved');
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('2 rows × 2 cols');
  expect(within(grid).getAllByText('Rent').length).toBeGreaterThan(0);
  expect(within(grid).getAllByText('Item').length).toBeGreaterThan(0);
  // The editor's 50 × 26 shape: spare columns get letter headers.
  expect(currentGrid().countRows()).toBe(50);
  expect(currentGrid().countCols()).toBe(26);
  expect(currentGrid().getColHeader(2)).toBe('C');

  await waitFor(() => expect(loaded).toEqual([{ sheetId: budget.id }]));
  await waitFor(() => expect(shell.sheet.version).toBe(1));
  expect(shell.sheet).toMatchObject({ name: 'Budget', headers: ['Item', 'Cost'], size: { rows: 2, cols: 2 } });
  expect(shell.sheet.getData()).toEqual([['Rent', 1200], ['Food', 300]]);
  // loadData() of a sheet loaded whole: the grid held, no request.
  const requests = api.requests.length;
  expect(await shell.sheet.loadData!()).toEqual([['Rent', 1200], ['Food', 300]]);
  expect(await shell.sheet.loadData!({ start: 1, count: 5 })).toEqual([['Food', 300]]);
  expect(api.requests.length).toBe(requests);
});

test('an edit goes to the server as a cell_update operation; the status goes Unsaved then Saved and the version rises', async () => {
  const { shell } = await openSheet();
  // What typing ends in: the editor's text, stored as a number since it reads as one.
  act(() => currentGrid().setDataAtCell(0, 1, '1250'));
  expect(screen.getByTestId('save-status')).toHaveTextContent('Unsaved');
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  expect(operationsSent()).toEqual([
    { id: expect.any(String), type: 'cell_update', position: { row: 0, column: 1 }, value: 1250, base_version: 1, user_id: 'alice', timestamp: expect.any(String) },
  ]);
  expect(api.sheets.get(budget.id)?.data[0]).toEqual(['Rent', 1250]);
  await waitFor(() => expect(shell.sheet.version).toBe(2));
  expect(currentGrid().getSourceDataAtCell(0, 1)).toBe(1250);
  expect(requestsOf('PATCH')).toHaveLength(0);
  expect(requestsOf('PUT')).toHaveLength(0);
});

test('an undo puts a cell back as it was stored: a text that reads as a number (a CSV code) stays a text', async () => {
  api.sheets.get(budget.id)!.data[0][1] = '80000';
  await openSheet();
  act(() => currentGrid().setDataAtCell(0, 1, '90000'));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[0]).toEqual(['Rent', 90000]));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[0]).toEqual(['Rent', '80000']));
  expect(currentGrid().getSourceDataAtCell(0, 1)).toBe('80000');
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('redo'));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[0]).toEqual(['Rent', 90000]));
});

test('a pasted range is one cells_update operation; typing into the spare cells grows the sheet', async () => {
  const { shell } = await openSheet();
  act(() =>
    currentGrid().setDataAtCell(
      [
        [2, 0, 'Gas'],
        [2, 1, 80],
        [3, 0, 'Water'],
        [3, 1, 40],
      ],
      'CopyPaste.paste',
    ),
  );
  await waitFor(() => expect(operationsSent()).toHaveLength(1));
  expect(operationsSent()[0]).toMatchObject({ type: 'cells_update', changes: expect.arrayContaining([{ row: 3, col: 1, value: 40 }]) });
  expect((operationsSent()[0] as { changes: unknown[] }).changes).toHaveLength(4);
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('4 rows × 2 cols');

  act(() => currentGrid().setDataAtCell(49, 25, 'far'));
  await waitFor(() => expect(screen.getByTestId('sheet-size')).toHaveTextContent('50 rows × 26 cols'));
  await waitFor(() => expect(operationsSent()).toHaveLength(2));
  await waitFor(() => expect(shell.sheet.size).toEqual({ rows: 50, cols: 26 }));
  expect(shell.sheet.headers.slice(0, 3)).toEqual(['Item', 'Cost', 'C']);
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[49]?.[25]).toBe('far'));
});

test('a sheet with formulas computes them; the stored data keeps the formula text', async () => {
  // The formula in column B: jsdom has no layout, so the grid draws only its first columns.
  const sheet = makeSheet('Totals', [[2, '=A1+C1', 3], ['=SUM(A1:C1)*2', '=1/0', null]]);
  api.sheets.set(sheet.id, sheet);
  const { shell } = await openSheet(sheet);
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on');
  // Computed off the page's main thread: the cells show the values once the worker sends them.
  await waitFor(() => expect(shownText(0, 1)).toBe('5'));
  expect(shownText(1, 0)).toBe('20');
  // An error shows as its code, as the grid always showed it.
  expect(shownText(1, 1)).toBe('#DIV/0!');
  // The cells hold the formulas' text: that is what their editor opens on.
  expect(currentGrid().getDataAtCell(0, 1)).toBe('=A1+C1');
  await waitFor(() => expect(shell.sheet.getData()).toEqual([[2, '=A1+C1', 3], ['=SUM(A1:C1)*2', '=1/0', null]]));

  act(() => currentGrid().setDataAtCell(0, 0, 7));
  await waitFor(() => expect(shownText(0, 1)).toBe('10'));
  expect(shownText(1, 0)).toBe('40');
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  // Only the typed cell: recomputed values are never sent in place of their formulas.
  expect(operationsSent()).toEqual([expect.objectContaining({ type: 'cell_update', position: { row: 0, column: 0 }, value: 7 })]);
  expect(api.sheets.get(sheet.id)?.data).toEqual([[7, '=A1+C1', 3], ['=SUM(A1:C1)*2', '=1/0', null]]);
});

test('a plain sheet has no formula engine until a formula is typed; then it computes', async () => {
  await openSheet();
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'off');
  act(() => currentGrid().setDataAtCell(2, 1, '=B1+B2'));
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  await waitFor(() => expect(shownText(2, 1)).toBe('1500'));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[2]).toEqual([null, '=B1+B2']));
});

test('a Save refused as a conflict (409) shows the server text in the box, reloads the sheet, and Dismiss closes the box', async () => {
  await openSheet();
  const message = 'The sheet changed since the version you edited (now version 2)';
  api.fault = (req, res) => {
    if (req.method !== 'PUT') return false;
    send(res, 409, { error: { code: 'conflict', message, details: { current_version: 2, conflicts: [] } } });
    return true;
  };
  await chooseFromFileMenu('file-save');
  const box = await screen.findByTestId('sheet-error');
  expect(box).toHaveTextContent(`Failed to save sheet: ${message}`);
  // Reloaded: the box stays until dismissed.
  // Each load reads the sheet whole after its one-row probe (issue 23: it is small).
  await waitFor(() => expect(requestsOf('GET').filter((r) => r.path.split('?')[0] === `/api/v1/sheets/${budget.id}`)).toHaveLength(2));
  await screen.findByTestId('sheet-grid');
  expect(screen.getByTestId('save-status')).toHaveTextContent('Error');
  await userEvent.click(within(screen.getByTestId('sheet-error')).getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByTestId('sheet-error')).not.toBeInTheDocument();
});

test("a failed load shows 'Failed to load sheet: {status} {statusText}' in a dismissible box", async () => {
  renderInShell(<Workspace shell={shellFor('00000000-0000-4000-9000-999999999999')} />);
  expect(await screen.findByText('Failed to load sheet: 404 Not Found')).toBeInTheDocument();
  expect(screen.queryByTestId('sheet-grid')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByText('Failed to load sheet: 404 Not Found')).not.toBeInTheDocument();
});

test("File › Delete asks 'Delete \"{name}\"?'; Cancel keeps the sheet, Delete removes it and clears the selection", async () => {
  await openSheet();
  await chooseFromFileMenu('file-delete');
  const dialog = await screen.findByRole('alertdialog');
  expect(within(dialog).getByText('Delete "Budget"?')).toBeInTheDocument();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(requestsOf('DELETE')).toHaveLength(0);

  await chooseFromFileMenu('file-delete');
  await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(actions).toContain('open sheet (none)'));
  expect(requestsOf('DELETE')).toHaveLength(1);
  expect(api.sheets.has(budget.id)).toBe(false);
});

test('File › Save sends the whole grid with normalised headers and announces sheet-updated', async () => {
  const { shell } = await openSheet();
  const updated: unknown[] = [];
  shell.bus.on('sheet-updated', (e) => updated.push(e));
  await chooseFromFileMenu('file-save');
  await waitFor(() => expect(requestsOf('PUT')).toHaveLength(1));
  expect(requestsOf('PUT')[0].body).toEqual({
    headers: ['Item', 'Cost'],
    data: [['Rent', 1200], ['Food', 300]],
    base_version: 1,
  });
  await waitFor(() => expect(updated).toEqual([{ sheetId: budget.id, name: 'Budget', version: 2 }]));
  expect(screen.getByTestId('save-status')).toHaveTextContent('Saved');
});

test('File › Export as CSV downloads the server bytes as {sheet name}_{YYYY-MM-DD}.csv', async () => {
  const downloads: string[] = [];
  // jsdom has no object URLs nor downloads: record what the browser would be asked to save.
  Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => {} });
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
  await openSheet();
  await chooseFromFileMenu('file-export-csv');
  const today = new Date();
  const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  await waitFor(() => expect(downloads).toEqual([`Budget_${date}.csv`]));
  expect(requestsOf('GET').at(-1)?.path).toBe(`/api/v1/sheets/${budget.id}/export?format=csv`);
  click.mockRestore();
});

test("while the server prepares the file, the File button says 'Exporting XLSX…' and offers no other export; then it is the File menu again", async () => {
  Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => {} });
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  let answer: (() => void) | null = null;
  api.fault = (_req, res, path) => {
    if (!path.endsWith('/export')) return false;
    answer = () => send(res, 200, 'PK', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return true;
  };
  await openSheet();
  await chooseFromFileMenu('file-export-xlsx');
  const button = screen.getByTestId('file-menu');
  await waitFor(() => expect(button).toHaveTextContent('Exporting XLSX…'));
  await waitFor(() => expect(answer).not.toBeNull());
  await userEvent.click(button);
  expect(await screen.findByTestId('file-export-csv')).toHaveAttribute('data-disabled');
  expect(screen.getByTestId('file-export-xlsx')).toHaveAttribute('data-disabled');
  answer!();
  await waitFor(() => expect(button).toHaveTextContent(/^File$/));
  expect(click).toHaveBeenCalledTimes(1);
  click.mockRestore();
});

test("a failed export shows 'Export failed'", async () => {
  await openSheet();
  await chooseFromFileMenu('file-export-json');
  expect(await screen.findByText('Export failed')).toBeInTheDocument();
});

test('File › Duplicate announces the copy (sheet-created, sheet-updated)', async () => {
  const { shell } = await openSheet();
  const events: string[] = [];
  shell.bus.on('sheet-created', (e) => events.push(`created ${e.name}`));
  shell.bus.on('sheet-updated', (e) => events.push(`updated ${e.name}`));
  await chooseFromFileMenu('file-duplicate');
  await waitFor(() => expect(events).toEqual(['created Budget (Copy)', 'updated Budget (Copy)']));
});

test('inserting or removing rows and columns sends structure operations; a new column is named by its letter', async () => {
  const { shell } = await openSheet();
  act(() => void currentGrid().alter('insert_row_above', 1, 1));
  await waitFor(() => expect(operationsSent()).toHaveLength(1));
  expect(operationsSent()[0]).toMatchObject({ type: 'rows_insert', index: 1, count: 1 });
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');

  act(() => void currentGrid().alter('insert_col_start', 1, 1));
  await waitFor(() => expect(operationsSent()).toHaveLength(2));
  expect(operationsSent()[1]).toMatchObject({ type: 'columns_insert', index: 1, count: 1 });
  expect(currentGrid().getColHeader(2)).toBe('Cost');
  await waitFor(() => expect(shell.sheet.headers).toEqual(['Item', 'B', 'Cost']));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data).toEqual([['Rent', null, 1200], [], ['Food', null, 300]]));
  expect(api.sheets.get(budget.id)?.metadata).toMatchObject({ rows: 3, columns: 3, headers: ['Item', 'B', 'Cost'] });

  // Spare rows below the stored ones are the editor's, not the sheet's: removing one sends nothing.
  act(() => void currentGrid().alter('remove_row', 40, 1));
  act(() => void currentGrid().alter('remove_row', 0, 1));
  act(() => void currentGrid().alter('remove_col', 2, 1));
  await waitFor(() => expect(operationsSent()).toHaveLength(4));
  expect(operationsSent().slice(2)).toMatchObject([
    { type: 'rows_remove', index: 0, count: 1 },
    { type: 'columns_remove', index: 2, count: 1 },
  ]);
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  expect(api.sheets.get(budget.id)?.data).toEqual([[], ['Food', null]]);
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('2 rows × 2 cols');
  expect(requestsOf('PUT')).toHaveLength(0);

  // Undone (the menu, Ctrl+Z): the column back with its cell, then the row with both of its, the one
  // in that column too; redone (Ctrl+Y, Ctrl+Shift+Z); undone to the start: the sheet as it was.
  const hot = currentGrid();
  const stored = () => api.sheets.get(budget.id)?.data;
  act(() => void hot.selectCell(0, 0));
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(stored()).toEqual([[], ['Food', null, 300]]));
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(stored()).toEqual([['Rent', null, 1200], [], ['Food', null, 300]]));
  expect(hot.getDataAtRow(0).slice(0, 3)).toEqual(['Rent', null, 1200]);
  expect(menuEntry(hot, 'Redo')).toBe('enabled');
  act(() => void press('y', { ctrlKey: true }));
  act(() => void press('Z', { ctrlKey: true, shiftKey: true }));
  await waitFor(() => expect(stored()).toEqual([[], ['Food', null]]));
  expect(menuEntry(hot, 'Redo')).toBe('disabled');
  for (let i = 0; i < 5; i++) act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(stored()).toEqual([['Rent', 1200], ['Food', 300]]));
  expect(hot.getDataAtRow(1).slice(0, 2)).toEqual(['Food', 300]);
  expect(menuEntry(hot, 'Undo')).toBe('disabled');
  // A header's name is not undone (no live operation renames one): the column is back under its letter, as with Handsontable's undo.
  await waitFor(() => expect(shell.sheet.headers).toEqual(['Item', 'C']));
});

test("with several rows or columns selected the menu's insert entries insert that many, and say so", async () => {
  const { shell } = await openSheet();
  const hot = currentGrid();
  act(() => void hot.selectCell(0, 0, 1, 1));
  expect(menuTexts(hot)).toEqual(expect.arrayContaining(['Insert 2 rows above', 'Insert 2 rows below', 'Insert 2 columns left', 'Insert 2 columns right']));
  act(() => hot.getPlugin('contextMenu').executeCommand('row_above'));
  await waitFor(() => expect(operationsSent()).toHaveLength(1));
  expect(operationsSent()[0]).toMatchObject({ type: 'rows_insert', index: 0, count: 2 });
  act(() => void hot.selectCell(2, 0, 3, 1));
  act(() => hot.getPlugin('contextMenu').executeCommand('col_right'));
  await waitFor(() => expect(operationsSent()).toHaveLength(2));
  expect(operationsSent()[1]).toMatchObject({ type: 'columns_insert', index: 2, count: 2 });
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('4 rows × 4 cols');
  await waitFor(() => expect(api.sheets.get(budget.id)?.data).toEqual([[], [], ['Rent', 1200], ['Food', 300]]));
  await waitFor(() => expect(shell.sheet.size).toEqual({ rows: 4, cols: 4 }));
  // One row selected: one row, under Handsontable's text.
  act(() => void hot.selectCell(0, 0));
  expect(menuTexts(hot)).toEqual(expect.arrayContaining(['Insert row above', 'Insert column right']));
});

/** A key pressed on the grid (Handsontable's shortcuts listen on the document while the grid has the focus). */
const press = (key: string, keys: { ctrlKey?: boolean; shiftKey?: boolean }) => fireEvent.keyDown(document.activeElement ?? document.body, { key, ...keys });

test('edits typed just before opening another sheet still reach the server; the other sheet loads', async () => {
  const other = makeSheet('Plan', [['Q1']]);
  api.sheets.set(other.id, other);
  const { view } = await openSheet();
  act(() => currentGrid().setDataAtCell(0, 0, 'Mortgage'));
  view.rerender(
    <ChakraProvider value={defaultSystem}>
      <Workspace shell={shellFor(other.id)} />
    </ChakraProvider>,
  );
  await waitFor(() => expect(screen.getByTestId('sheet-name')).toHaveTextContent('Plan'));
  await waitFor(() => expect(api.sheets.get(budget.id)?.data[0]).toEqual(['Mortgage', 1200]));
  expect(currentGrid().getDataAtCell(0, 0)).toBe('Q1');
});

test('a rename in the navigator (sheet-updated with a name) shows in the toolbar', async () => {
  const { shell } = await openSheet();
  act(() => shell.bus.emit('sheet-updated', { sheetId: budget.id, name: 'Budget 2027' }));
  expect(screen.getByTestId('sheet-name')).toHaveTextContent('Budget 2027');
  act(() => shell.bus.emit('sheet-updated', { sheetId: 'another', name: 'Other' }));
  expect(screen.getByTestId('sheet-name')).toHaveTextContent('Budget 2027');
});

test('selecting a cell tells the shell', async () => {
  const { shell } = await openSheet();
  act(() => void currentGrid().selectCell(1, 0));
  expect(shell.sheet.selection).toEqual({ row: 1, col: 0 });
});

test('the Code tab asks the shell to mount mfe-git ./CodeEditor; Sheet brings the grid back', async () => {
  await openSheet();
  await userEvent.click(screen.getByTestId('view-code'));
  expect(screen.getByTestId('code-view')).toHaveTextContent('mfe-git ./CodeEditor is mounted here by the shell');
  expect(screen.queryByTestId('sheet-grid')).not.toBeInTheDocument();
  await userEvent.click(screen.getByTestId('view-sheet'));
  expect(await screen.findByTestId('sheet-grid')).toBeInTheDocument();
});

test('the grid is not rendered while the git tab is shown', async () => {
  renderInShell(<Workspace shell={shellFor(budget.id, 'git')} />);
  expect(await screen.findByTestId('sheet-name')).toHaveTextContent('Budget');
  expect(screen.queryByTestId('sheet-grid')).not.toBeInTheDocument();
});

test('read-only: edits are refused by the grid and nothing is sent', async () => {
  renderInShell(<Workspace shell={shellFor(budget.id)} readOnly />);
  await screen.findByTestId('sheet-grid');
  expect(currentGrid().getSettings().readOnly).toBe(true);
});
