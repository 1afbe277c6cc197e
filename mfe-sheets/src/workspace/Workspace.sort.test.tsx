import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { SORT_TEXTS, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { closeLiveShells, colleagueJoins, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

/** Set by a test: the sort frames carry no order (as the api's for a sheet past SORT_ORDER_SENT_MAX_ROWS rows). */
let orderSentMax: number | null = null;
jest.mock('@tessera/contracts', () => {
  const actual = jest.requireActual('@tessera/contracts');
  return {
    ...actual,
    get SORT_ORDER_SENT_MAX_ROWS() {
      return orderSentMax ?? actual.SORT_ORDER_SENT_MAX_ROWS;
    },
  };
});

/** Sorting the sheet's rows by a column from the column header's menu: a live rows_sort, shown once the server has ordered the rows. */
let api: SheetTestApi;
let sheet: Sheet;

beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  sheet = makeSheet('Costs', [['Rent', 1200], ['food', 300], ['Car', ''], ['Bills', 45]], ['Item', 'Cost']);
  api = await startSheetApi([sheet]);
});
afterEach(async () => {
  orderSentMax = null;
  closeLiveShells();
  await api.close();
});

async function aliceOpens() {
  renderInShell(<Workspace shell={liveShellFor(api.url, sheet.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
}

const rowsShown = (n: number) => Array.from({ length: n }, (_, r) => [currentGrid().getDataAtCell(r, 0), currentGrid().getDataAtCell(r, 1)]);

test("the column header's menu sorts the sheet A → Z by that column: the server orders the rows, the grid shows them with every row's cells together", async () => {
  await aliceOpens();
  const menu = JSON.stringify(currentGrid().getSettings().contextMenu);
  expect(menu).toContain(SORT_TEXTS.ascending);
  expect(menu).toContain(SORT_TEXTS.descending);
  act(() => void currentGrid().selectColumns(1));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('sort_asc'));
  // Numbers ascending, the empty cell last.
  const sorted = [['Bills', 45], ['food', 300], ['Rent', 1200], ['Car', '']];
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data).toEqual(sorted));
  await waitFor(() => expect(rowsShown(4)).toEqual(sorted));
});

test("someone else's sort Z → A reorders the rows shown", async () => {
  await aliceOpens();
  const bob = await colleagueJoins(api.url, sheet.id);
  await bob.acked(bob.send({ type: 'rows_sort', column: 0, direction: 'desc' }));
  // Text without case: Rent, food, Car, Bills.
  await waitFor(() => expect(rowsShown(4).map((r) => r[0])).toEqual(['Rent', 'food', 'Car', 'Bills']));
});

test("a formula moves with its row as the server moves it: its relative references follow (it still reads its own row), absolute ones stay", async () => {
  sheet = makeSheet('Totals', [['Rent', 1200, '=B1*2'], ['food', 300, '=B2*2+$B$1'], ['Bills', 45, '=B3*2']], ['Item', 'Cost', 'Twice']);
  await api.close();
  api = await startSheetApi([sheet]);
  await aliceOpens();
  act(() => void currentGrid().selectColumns(1));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('sort_asc'));
  const sorted = [['Bills', 45, '=B1*2'], ['food', 300, '=B2*2+$B$1'], ['Rent', 1200, '=B3*2']];
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data).toEqual(sorted));
  await waitFor(() => expect([0, 1, 2].map((r) => [0, 1, 2].map((c) => currentGrid().getSourceDataAtCell(r, c)))).toEqual(sorted));
});

test("someone else's sort of a sheet whose order the frames do not carry (past SORT_ORDER_SENT_MAX_ROWS rows: it grew while open) is shown from the server's sheet, read again", async () => {
  orderSentMax = 2;
  await aliceOpens();
  const bob = await colleagueJoins(api.url, sheet.id);
  const reads = () => api.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/sheets/${sheet.id}`).length;
  const before = reads();
  await bob.acked(bob.send({ type: 'rows_sort', column: 0, direction: 'asc' }));
  expect(bob.frames.find((f) => f.type === 'ack')).not.toHaveProperty('data.order');
  await waitFor(() => expect(rowsShown(4)).toEqual([['Bills', 45], ['Car', ''], ['food', 300], ['Rent', 1200]]));
  expect(reads()).toBe(before + 1);
});

const press = (key: string) => act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true }));

test('Ctrl+Z after Sort sheet A → Z puts the rows back in their order before it (on the server too); a value typed before the sort is still undone on its row; Ctrl+Y types it and sorts again', async () => {
  await aliceOpens();
  const hot = currentGrid();
  const stored = () => api.sheets.get(sheet.id)!.data;
  act(() => hot.setDataAtCell(0, 1, 1250));
  await waitFor(() => expect(stored()[0]).toEqual(['Rent', 1250]));
  act(() => void hot.selectColumns(0));
  act(() => hot.getPlugin('contextMenu').executeCommand('sort_asc'));
  const sorted = [['Bills', 45], ['Car', ''], ['food', 300], ['Rent', 1250]];
  await waitFor(() => expect(rowsShown(4)).toEqual(sorted));
  act(() => void hot.selectCell(0, 0));
  press('z');
  const before = [['Rent', 1250], ['food', 300], ['Car', ''], ['Bills', 45]];
  await waitFor(() => expect(stored()).toEqual(before));
  await waitFor(() => expect(rowsShown(4)).toEqual(before));
  // The step before the sort followed its row there and back.
  press('z');
  await waitFor(() => expect(stored()[0]).toEqual(['Rent', 1200]));
  expect(rowsShown(1)).toEqual([['Rent', 1200]]);
  press('y');
  await waitFor(() => expect(stored()[0]).toEqual(['Rent', 1250]));
  press('y');
  await waitFor(() => expect(rowsShown(4)).toEqual(sorted));
  expect(stored()).toEqual(sorted);
  // The redone sort is undone in turn (by its own version).
  press('z');
  await waitFor(() => expect(rowsShown(4)).toEqual(before));
});

test('Ctrl+Z of a sort after someone inserted a row says why it cannot be undone; the rows stay as they are', async () => {
  await aliceOpens();
  const hot = currentGrid();
  act(() => void hot.selectColumns(0));
  act(() => hot.getPlugin('contextMenu').executeCommand('sort_asc'));
  await waitFor(() => expect(rowsShown(1)).toEqual([['Bills', 45]]));
  const bob = await colleagueJoins(api.url, sheet.id);
  bob.send({ type: 'rows_insert', index: 0, count: 1 });
  await waitFor(() => expect(rowsShown(2)).toEqual([[null, null], ['Bills', 45]]));
  act(() => void hot.selectCell(1, 0));
  press('z');
  expect(await screen.findByText(SORT_TEXTS.undoMoved)).toBeInTheDocument();
  expect(api.sheets.get(sheet.id)!.data.slice(1)).toEqual([['Bills', 45], ['Car', ''], ['food', 300], ['Rent', 1200]]);
});

// Not a sort, but the same two-user setup: a cells_clear (a windowed page's whole-column Delete) reaching a whole grid.
test("someone else's clear of a column (one cells_clear) empties it in the whole grid, the other column kept", async () => {
  await aliceOpens();
  const sheetReads = () => api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${sheet.id}`).length;
  const readsBefore = sheetReads();
  const bob = await colleagueJoins(api.url, sheet.id);
  await bob.acked(bob.send({ type: 'cells_clear', rows: { start: 0, count: 4 }, columns: { start: 1, count: 1 } }));
  await waitFor(() => expect(rowsShown(4)).toEqual([['Rent', null], ['food', null], ['Car', ''], ['Bills', null]]));
  // Shown from the op, without reading the sheet again (no sync, no repair).
  expect(api.live.syncs.filter((s) => s.userId === 'alice')).toEqual([]);
  expect(sheetReads()).toBe(readsBefore);
});

test("someone else's undo of their clear (one cells_clear_undo, no values in it): the whole grid reads the sheet again and shows the column back; an own edit made meanwhile stays", async () => {
  await aliceOpens();
  const bob = await colleagueJoins(api.url, sheet.id);
  await bob.acked(bob.send({ type: 'cells_clear', rows: { start: 0, count: 4 }, columns: { start: 1, count: 1 } }));
  await waitFor(() => expect(rowsShown(4)).toEqual([['Rent', null], ['food', null], ['Car', ''], ['Bills', null]]));
  const clearedAt = api.sheets.get(sheet.id)!.version;
  // Alice types into one of the cleared cells: the server keeps hers.
  act(() => currentGrid().setDataAtCell(1, 1, 301));
  await waitFor(() => expect(api.sheets.get(sheet.id)!.data[1]).toEqual(['food', 301]));
  await bob.acked(bob.send({ type: 'cells_clear_undo', undo: clearedAt }));
  // (Car's empty text was no value: cleared, it stays empty.)
  await waitFor(() => expect(rowsShown(4)).toEqual([['Rent', 1200], ['food', 301], ['Car', null], ['Bills', 45]]));
  expect(api.sheets.get(sheet.id)!.data).toEqual([['Rent', 1200], ['food', 301], ['Car', null], ['Bills', 45]]);
});

test("someone else's undo of their column remove (one columns_insert with `undo`, no values in it): the whole grid reads the sheet again and shows the column back with its cells", async () => {
  await aliceOpens();
  const bob = await colleagueJoins(api.url, sheet.id);
  await bob.acked(bob.send({ type: 'columns_remove', index: 1, count: 1 }));
  await waitFor(() => expect(rowsShown(4)).toEqual([['Rent', null], ['food', null], ['Car', null], ['Bills', null]]));
  const removedAt = api.sheets.get(sheet.id)!.version;
  await bob.acked(bob.send({ type: 'columns_insert', index: 1, count: 1, undo: removedAt }));
  await waitFor(() => expect(rowsShown(4)).toEqual([['Rent', 1200], ['food', 300], ['Car', null], ['Bills', 45]]));
  expect(api.sheets.get(sheet.id)!.data.map((row) => [row[0], row[1] ?? null])).toEqual([['Rent', 1200], ['food', 300], ['Car', null], ['Bills', 45]]);
});
