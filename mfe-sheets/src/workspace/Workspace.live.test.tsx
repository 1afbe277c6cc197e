import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  presenceColor,
  type LiveOperation,
  type ChartDefinition,
  type LiveServerFrame,
  type ShellContext,
  type Sheet,
} from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { chooseFromFileMenu, menuEntry } from './testing/workspace-menus.js';
import { closeLiveShells, colleagueJoins, liveShellFor } from './testing/live-shell.js';
import { makeSheet, send, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import { testChart } from '../charts/testing-chart.js';
import { anchorAt, chartGeometry } from '../charts/chart-geometry.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let budget: Sheet;

beforeEach(async () => {
  // Frames come from a real socket at any moment, as in a browser, not inside act(): the
  // assertions wait for what they show (waitFor).
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  budget = makeSheet('Budget', [['Rent', 1200], ['Food', 300]], ['Item', 'Cost']);
  api = await startSheetApi([budget]);
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

/** Alice has the sheet open in the Workspace, on its live socket. */
async function aliceOpens(sheet: Sheet = budget) {
  const shell = liveShellFor(api.url, sheet.id, 'alice');
  const view = renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  return { shell, view };
}

/** Bob on the same sheet from another client. */
const bobJoins = (sheet: Sheet = budget) => colleagueJoins(api.url, sheet.id);

const cellOf = (row: number, col: number) => currentGrid().getCell(row, col);
/** The server's rows as the grid reports them: every row as wide as the sheet. */
const padded = (sheet: Sheet) => sheet.data.map((r) => Array.from({ length: sheet.metadata.columns }, (_, i) => r[i] ?? null));
const status = () => screen.getByTestId('save-status');

test("another user's edit shows in the grid without moving the selection; the version and size follow", async () => {
  const { shell } = await aliceOpens();
  act(() => void currentGrid().selectCell(1, 0));
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 0, column: 1 }, value: 1300 }));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 1)).toBe(1300));
  expect(currentGrid().getSelectedLast()).toEqual([1, 0, 1, 0]);
  await waitFor(() => expect(shell.sheet.version).toBe(2));
  // Undo takes back one's own edits only: Alice's, not Bob's.
  act(() => currentGrid().setDataAtCell(1, 1, 310));
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 1, column: 0 }, value: 'Groceries' }));
  await waitFor(() => expect(currentGrid().getDataAtCell(1, 0)).toBe('Groceries'));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('undo'));
  expect(currentGrid().getDataAtCell(1, 1)).toBe(300);
  expect(currentGrid().getDataAtCell(1, 0)).toBe('Groceries');
  expect(currentGrid().getDataAtCell(0, 1)).toBe(1300);
  await waitFor(() => expect(api.sheets.get(budget.id)!.data[1]).toEqual(['Groceries', 300]));
  await waitFor(() => expect(shell.sheet.version).toBe(5));

  // A pasted range beyond the stored rows grows the sheet here too.
  const changes = [
    { row: 3, col: 0, value: 'Gas' },
    { row: 3, col: 1, value: 80 },
  ];
  await bob.acked(bob.send({ type: 'cells_update', changes }));
  await waitFor(() => expect(currentGrid().getDataAtCell(3, 0)).toBe('Gas'));
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('4 rows × 2 cols');
  await waitFor(() => expect(shell.sheet.version).toBe(6));
  expect(shell.sheet.getData()).toEqual(padded(api.sheets.get(budget.id)!));
  // Nothing of Bob's went back out from Alice's grid (her edit and its undo only), and it is still 'Saved'.
  expect(api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'operation')).toHaveLength(2);
  expect(status()).toHaveTextContent('Saved');
});

test("a remote value for the cell being edited waits: the user's typing stays; a cancel then shows it", async () => {
  await aliceOpens();
  const hot = currentGrid();
  act(() => void hot.selectCell(0, 0));
  act(() => hot.getActiveEditor()!.beginEditing());
  const editor = hot.getActiveEditor() as unknown as { TEXTAREA: HTMLTextAreaElement; isOpened(): boolean };
  editor.TEXTAREA.value = 'Mortgage';
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cells_update', changes: [{ row: 0, col: 0, value: 'Lease' }, { row: 1, col: 0, value: 'Groceries' }] }));
  await waitFor(() => expect(hot.getDataAtCell(1, 0)).toBe('Groceries'));
  expect(editor.isOpened()).toBe(true);
  expect(editor.TEXTAREA.value).toBe('Mortgage');

  // Escape: the typing is dropped, and Bob's value shows.
  act(() => editor.TEXTAREA.focus());
  await userEvent.keyboard('{Escape}');
  expect(editor.isOpened()).toBe(false);
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe('Lease'));
});

test("a committed edit of a cell someone else changed meanwhile wins, here, on the server and for them", async () => {
  await aliceOpens();
  const hot = currentGrid();
  act(() => void hot.selectCell(0, 0));
  act(() => hot.getActiveEditor()!.beginEditing());
  const editor = hot.getActiveEditor() as unknown as { TEXTAREA: HTMLTextAreaElement; isOpened(): boolean };
  editor.TEXTAREA.value = 'Mortgage';
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 0, column: 0 }, value: 'Lease' }));
  await waitFor(() => expect(api.sheets.get(budget.id)!.data[0][0]).toBe('Lease'));
  act(() => editor.TEXTAREA.focus());
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  expect(hot.getDataAtCell(0, 0)).toBe('Mortgage');
  expect(api.sheets.get(budget.id)!.data[0][0]).toBe('Mortgage');
  await waitFor(() =>
    expect(bob.frames.some((f) => f.type === 'operation' && f.data.operation.type === 'cell_update' && f.data.operation.value === 'Mortgage')).toBe(true),
  );
});

test('an own edit in flight is not overwritten by an older remote write of the same cell: every copy ends equal', async () => {
  const { shell } = await aliceOpens();
  const bob = await bobJoins();
  // Bob's write reaches the server while Alice is offline; she then types into the same cell.
  // On reconnect Bob's op is replayed to her before her own is applied, so hers is the last.
  api.live.cut('alice');
  await waitFor(() => expect(shell.live.state).not.toBe('connected'));
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 1, column: 1 }, value: 999 }));
  act(() => currentGrid().setDataAtCell(1, 1, 350));
  api.live.restore('alice');
  await waitFor(() => expect(shell.sheet.version).toBe(3), { timeout: 10_000 });
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  const server = api.sheets.get(budget.id)!;
  expect(server.data[1][1]).toBe(350);
  expect(currentGrid().getDataAtCell(1, 1)).toBe(350);
  expect(shell.sheet.getData()).toEqual(padded(server));
});

test('concurrent writers on the same cells: the grid ends equal to the server sheet', async () => {
  const { shell } = await aliceOpens();
  const bob = await bobJoins();
  for (let i = 0; i < 20; i++) {
    bob.send({ type: 'cell_update', position: { row: i % 3, column: i % 2 }, value: `bob ${i}` });
    act(() => currentGrid().setDataAtCell((i + 1) % 3, i % 2, `alice ${i}`));
  }
  const server = api.sheets.get(budget.id)!;
  await waitFor(() => expect(server.version).toBe(41));
  await waitFor(() => expect(shell.sheet.version).toBe(41));
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  expect(shell.sheet.getData()).toEqual(padded(server));
});

test('own row and column removes sent together: the navigator is told the size once the server has them all (not only when the first is in)', async () => {
  const { shell } = await aliceOpens();
  const toldAt: [number, number][] = [];
  // What the navigator reads when told: the server's size then.
  shell.bus.on('sheet-updated', () => toldAt.push([api.sheets.get(budget.id)!.data.length, api.sheets.get(budget.id)!.metadata.columns]));
  act(() => {
    currentGrid().alter('remove_row', 0, 1);
    currentGrid().alter('remove_col', 0, 1);
  });
  await waitFor(() => expect(api.sheets.get(budget.id)!.metadata.columns).toBe(1));
  await waitFor(() => expect(toldAt.at(-1)).toEqual([1, 1]));
});

test('rows and columns inserted or removed by someone else move the cells here; named headers move with them; the navigator is told the new size', async () => {
  const { shell } = await aliceOpens();
  const updated: unknown[] = [];
  shell.bus.on('sheet-updated', (e) => updated.push(e));
  const bob = await bobJoins();
  // A cell typed within the sheet leaves its size: nothing to tell.
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 0, column: 1 }, value: 1300 }));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 1)).toBe(1300));
  expect(updated).toEqual([]);
  await bob.acked(bob.send({ type: 'rows_insert', index: 1, count: 2 }));
  await waitFor(() => expect(screen.getByTestId('sheet-size')).toHaveTextContent('4 rows × 2 cols'));
  await waitFor(() => expect(updated).toEqual([expect.objectContaining({ sheetId: budget.id })]));
  expect(currentGrid().getDataAtCell(3, 0)).toBe('Food');
  expect(currentGrid().getDataAtCell(1, 0)).toBeNull();

  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  await waitFor(() => expect(currentGrid().getColHeader(1)).toBe('Item'));
  expect(currentGrid().getColHeader(0)).toBe('A');
  expect(currentGrid().getDataAtCell(0, 1)).toBe('Rent');

  await bob.acked(bob.send({ type: 'rows_remove', index: 0, count: 1 }));
  await bob.acked(bob.send({ type: 'columns_remove', index: 0, count: 1 }));
  await waitFor(() => expect(shell.sheet.version).toBe(6));
  expect(currentGrid().getColHeader(0)).toBe('Item');
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');
  expect(shell.sheet.getData()).toEqual([
    [null, null],
    [null, null],
    ['Food', 300],
  ]);
  expect(api.sheets.get(budget.id)!.data).toEqual([[], [], ['Food', 300]]);
});

test('rows inserted above the cell being edited, moving it out of the rows drawn: the typing goes on and is saved into that cell where it is now; its row removed, the editor closes', async () => {
  await aliceOpens();
  const hot = currentGrid();
  act(() => void hot.selectCell(1, 1));
  act(() => hot.getActiveEditor()!.beginEditing());
  const editor = hot.getActiveEditor() as unknown as { TEXTAREA: HTMLTextAreaElement; isOpened(): boolean };
  editor.TEXTAREA.value = '350';
  const bob = await bobJoins();
  // jsdom draws every row: as in a browser, where 20,000 rows inserted above took the cell out of
  // the rows drawn, rows from 20 on are not drawn while the insert arrives (Handsontable then
  // leaves its editor at the row and column it opened at).
  const getCell = hot.getCell.bind(hot);
  const notDrawn = jest.spyOn(hot, 'getCell').mockImplementation((row, col, topmost) => (row >= 20 ? null : getCell(row, col, topmost)));
  const count = 30;
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count }));
  await waitFor(() => expect(hot.getDataAtCell(count + 1, 0)).toBe('Food'));
  notDrawn.mockRestore();
  expect(editor.isOpened()).toBe(true);
  act(() => editor.TEXTAREA.focus());
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  // Food's cost, not a cell of the new rows.
  const stored = () => api.sheets.get(budget.id)!.data;
  expect(stored().slice(count)).toEqual([['Rent', 1200], ['Food', 350]]);
  expect(stored().slice(0, count).every((row) => row.length === 0)).toBe(true);

  // Editing Rent's cost when Bob removes its row: the editor closes, nothing is written.
  act(() => void hot.selectCell(count, 1));
  act(() => hot.getActiveEditor()!.beginEditing());
  editor.TEXTAREA.value = '999';
  await bob.acked(bob.send({ type: 'rows_remove', index: count, count: 1 }));
  await waitFor(() => expect(hot.getDataAtCell(count, 0)).toBe('Food'));
  expect(editor.isOpened()).toBe(false);
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  expect(stored().slice(count)).toEqual([['Food', 350]]);
});

test('a row inserted by someone else while an own edit is in flight: the edit stays on its row, here and on the server', async () => {
  const { shell } = await aliceOpens();
  const bob = await bobJoins();
  // Bob inserts a row while Alice is offline, and she types into row 1 (Food, as she sees it).
  // Her edit goes with the version she held; the server moves it down with Food's row, and so
  // does her grid when Bob's insert reaches it.
  api.live.cut('alice');
  await waitFor(() => expect(shell.live.state).not.toBe('connected'));
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 1 }));
  act(() => currentGrid().setDataAtCell(1, 0, 'Groceries'));
  api.live.restore('alice');
  await waitFor(() => expect(shell.sheet.version).toBe(3), { timeout: 10_000 });
  const server = api.sheets.get(budget.id)!;
  expect(server.data).toEqual([[], ['Rent', 1200], ['Groceries', 300]]);
  await waitFor(() => expect(shell.sheet.getData()).toEqual(padded(server)));
  expect(currentGrid().getDataAtCell(2, 0)).toBe('Groceries');
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');
});

test("a sync (someone's Save, a reload request) replaces the grid and keeps the selection", async () => {
  const { shell } = await aliceOpens();
  act(() => void currentGrid().selectCell(1, 1));
  const stored = api.sheets.get(budget.id)!;
  // Bob saves the whole grid over REST: the server tells everyone with a sync.
  await shell.api.put(`/api/v1/sheets/${budget.id}`, { name: 'Budget 2027', headers: ['What', 'Amount'], data: [['Rent', 1], ['Food', 2], ['Fun', 3]] });
  await waitFor(() => expect(currentGrid().getDataAtCell(2, 0)).toBe('Fun'));
  expect(currentGrid().getColHeader(0)).toBe('What');
  expect(screen.getByTestId('sheet-name')).toHaveTextContent('Budget 2027');
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');
  expect(currentGrid().getSelectedLast()).toEqual([1, 1, 1, 1]);
  await waitFor(() => expect(shell.sheet.version).toBe(stored.version));
});

test('new_proposal and live_update_accepted reach the bus; an error frame shows as the save error', async () => {
  const { shell } = await aliceOpens();
  const events: string[] = [];
  shell.bus.on('sheet-proposal', (e) => events.push(`proposal ${e.sheetId} ${e.versionId}`));
  shell.bus.on('sheet-history-refresh', (e) => events.push(`history ${e.sheetId}`));
  api.live.broadcast(budget.id, { type: 'new_proposal', data: { sheet_id: budget.id, version_id: 'v-7', author: 'ai' } });
  api.live.broadcast(budget.id, { type: 'live_update_accepted', data: { sheet_id: budget.id, version_id: 'v-7', version: 1 } });
  await waitFor(() => expect(events).toEqual([`proposal ${budget.id} v-7`, `history ${budget.id}`]));

  // The server refuses an edit: its reason is the save error, and the grid shows the server's sheet again.
  api.live.refuse = () => 'Sheet is locked';
  act(() => currentGrid().setDataAtCell(0, 0, 'Mortgage'));
  const box = await screen.findByTestId('sheet-error');
  expect(box).toHaveTextContent('Sheet is locked');
  expect(status()).toHaveTextContent('Error');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('Rent'));
  await userEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByTestId('sheet-error')).not.toBeInTheDocument();

  // The next edit that passes ends the error.
  api.live.refuse = null;
  act(() => currentGrid().setDataAtCell(0, 0, 'Lease'));
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
});

test("edits made while the socket is cut are sent on reconnect; others' edits made meanwhile show after it", async () => {
  const { shell } = await aliceOpens();
  const bob = await bobJoins();
  act(() => currentGrid().setDataAtCell(0, 0, 'Mortgage'));
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));

  api.live.cut('alice');
  await waitFor(() => expect(shell.live.state).not.toBe('connected'));
  act(() => currentGrid().setDataAtCell(1, 0, 'Groceries'));
  act(() => void currentGrid().alter('insert_row_below', 1, 1));
  act(() => currentGrid().setDataAtCell(2, 0, 'Gas'));
  expect(status()).toHaveTextContent('Unsaved');
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 0, column: 1 }, value: 1500 }));

  api.live.restore('alice');
  await waitFor(() => expect(shell.live.state).toBe('connected'), { timeout: 10_000 });
  await waitFor(() => expect(status()).toHaveTextContent('Saved'));
  const server = api.sheets.get(budget.id)!.data;
  expect(server).toEqual([['Mortgage', 1500], ['Groceries', 300], ['Gas']]);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 1)).toBe(1500));
  expect(shell.sheet.getData()).toEqual([['Mortgage', 1500], ['Groceries', 300], ['Gas', null]]);
  // Bob sees Alice's offline edits too.
  await waitFor(() => expect(bob.frames.filter((f) => f.type === 'operation' && f.data.operation.user_id === 'alice')).toHaveLength(4));
});

test("other users' selected cells are outlined in their colour, named by their title", async () => {
  const { shell, view } = await aliceOpens();
  const color = presenceColor('bob');
  const withBob = (row: number, col: number): ShellContext => ({
    ...shell,
    presence: {
      online: ['alice', 'bob'],
      onSheet: [
        { userId: 'alice', joinedAt: '', displayName: 'alice', selection: { row: 0, col: 0 }, color: presenceColor('alice') },
        { userId: 'bob', joinedAt: '', displayName: 'Bob', selection: { row, col }, color },
      ],
    },
  });
  view.rerender(<ChakraProvider value={defaultSystem}><Workspace shell={withBob(1, 1)} /></ChakraProvider>);
  await waitFor(() => expect(cellOf(1, 1)).toHaveAttribute('data-presence', 'Bob'));
  expect(cellOf(1, 1)!.title).toBe('Bob');
  expect(cellOf(1, 1)!.style.boxShadow).toContain('inset 0 0 0 2px');
  // Her own selection is not outlined as someone else's.
  expect(cellOf(0, 0)).not.toHaveAttribute('data-presence');

  view.rerender(<ChakraProvider value={defaultSystem}><Workspace shell={withBob(0, 1)} /></ChakraProvider>);
  await waitFor(() => expect(cellOf(0, 1)).toHaveAttribute('data-presence', 'Bob'));
  expect(cellOf(1, 1)).not.toHaveAttribute('data-presence');
  expect(cellOf(1, 1)!.style.boxShadow).toBe('');
});

test('rows inserted above a chart by someone else move its box down with its cells; dragged then, it is sent with the range and box as moved here, on the version shown (base_version)', async () => {
  const chart = testChart({
    id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a03',
    range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 },
    title: 'Costs',
    box: { row: 0, col: 2, dx: 12, dy: 6, width: 400, height: 300 },
  });
  const sheet: Sheet = { ...budget, metadata: { ...budget.metadata, charts: [chart] } as Sheet['metadata'] };
  api.sheets.set(sheet.id, sheet);
  await aliceOpens(sheet);
  await screen.findByTestId('chart-frame');
  const bob = await bobJoins(sheet);
  const geometry = chartGeometry(currentGrid());
  const frame = screen.getByTestId('chart-frame');
  expect(frame).toHaveStyle({ left: `${geometry.left(2) + 12}px`, top: `${geometry.top(0) + 6}px` });
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 2 }));
  await waitFor(() => expect(screen.getByTestId('sheet-size')).toHaveTextContent('4 rows × 2 cols'));
  // Anchored to C1, now C3: two rows lower on the screen, not where its pixels were.
  await waitFor(() => expect(frame).toHaveStyle({ top: `${geometry.top(2) + 6}px` }));
  expect(geometry.top(2)).toBeGreaterThan(geometry.top(0));

  const moved = { start_row: 2, start_col: 0, end_row: 3, end_col: 1 };
  const puts: unknown[] = [];
  api.fault = (req, res, path) => {
    if (req.method !== 'PUT' || path !== `/api/v1/sheets/${sheet.id}/charts/${chart.id}`) return false;
    const body = api.requests.at(-1)!.body as ChartDefinition;
    puts.push(body);
    send(res, 200, { version: 3, charts: [{ ...chart, range: body.range, box: body.box }] });
    return true;
  };
  const handle = screen.getByTestId('chart-handle');
  handle.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, clientX: 100, clientY: 100, button: 0 }));
  window.dispatchEvent(new MouseEvent('pointermove', { clientX: 150, clientY: 130 }));
  window.dispatchEvent(new MouseEvent('pointerup', { clientX: 150, clientY: 130 }));
  await waitFor(() => expect(puts).toHaveLength(1));
  // Dropped 50 px right and 30 px down of where it was drawn (C3 + 12, 6): anchored to the cell under that corner.
  const dropped = anchorAt(geometry.left(2) + 12 + 50, geometry.top(2) + 6 + 30, geometry);
  expect(dropped.row).toBeGreaterThanOrEqual(2);
  expect(puts[0]).toEqual({ ...chart, id: undefined, range: moved, box: { ...chart.box, ...dropped }, base_version: 2 });
});

test('a chart added, changed or deleted by someone else arrives as that chart alone: shown in place, the grid untouched, no sheet reloaded; later ops follow in version order', async () => {
  const first = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a04', title: 'Costs', box: { row: 0, col: 3, dx: 0, dy: 0, width: 400, height: 300 } });
  const sheet: Sheet = { ...budget, metadata: { ...budget.metadata, charts: [first] } as Sheet['metadata'] };
  api.sheets.set(sheet.id, sheet);
  const { shell } = await aliceOpens(sheet);
  await screen.findByTestId('chart-frame');
  const loads = () => api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${sheet.id}`).length;
  const loadsBefore = loads();
  // Someone else's chart changes, each one version, as the api sends them.
  const chartFrame = (chartId: string, chart: ChartDefinition | null): LiveServerFrame => {
    const stored = api.sheets.get(sheet.id)!;
    stored.version += 1;
    return { type: 'chart', data: { sheet_id: sheet.id, version: stored.version, chart_id: chartId, chart, user_id: 'bob', timestamp: new Date().toISOString() } };
  };
  const second = testChart({ id: '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a05', title: 'Rent only', range: { start_row: 0, start_col: 0, end_row: 0, end_col: 1 }, box: { row: 12, col: 0, dx: 0, dy: 0, width: 300, height: 200 } });
  api.live.broadcast(sheet.id, chartFrame(second.id, second));
  await waitFor(() => expect(screen.getAllByTestId('chart-frame')).toHaveLength(2));
  await waitFor(() => expect(shell.sheet.version).toBe(2));
  api.live.broadcast(sheet.id, chartFrame(first.id, { ...first, title: 'Monthly costs', box: { ...first.box, col: 5, dx: 20 } }));
  await waitFor(() => expect(screen.getAllByTestId('chart-title-text').map((t) => t.textContent)).toEqual(['Monthly costs', 'Rent only']));
  const moved = screen.getAllByTestId('chart-frame').find((f) => f.dataset.chartId === first.id)!;
  expect(moved).toHaveStyle({ left: `${chartGeometry(currentGrid()).left(5) + 20}px` });
  api.live.broadcast(sheet.id, chartFrame(first.id, null));
  await waitFor(() => expect(screen.getAllByTestId('chart-frame').map((f) => f.dataset.chartId)).toEqual([second.id]));
  await waitFor(() => expect(shell.sheet.version).toBe(4));
  // A later row inserted above moves the new chart as it moves its cells.
  const bob = await bobJoins(sheet);
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 1 }));
  await waitFor(() => expect(shell.sheet.version).toBe(5));
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');
  expect(loads()).toBe(loadsBefore);
  expect(currentGrid().getDataAtCell(1, 1)).toBe(1200);
});

/** A key pressed on the grid (Handsontable's shortcuts listen on the document while the grid has the focus). */
const press = (key: string, keys: { ctrlKey?: boolean; shiftKey?: boolean }) => fireEvent.keyDown(document.activeElement ?? document.body, { key, ...keys });
const aliceOps = () => api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'operation').map((r) => (r.frame as { operation: LiveOperation }).operation);
const cellSent = (row: number, col: number, value: unknown) => expect.objectContaining({ type: 'cell_update', position: { row, column: col }, value });

test("an own edit undone after someone else inserted or removed rows above it, or a column left of it, goes to the cell where it is now; their cells stay", async () => {
  const { shell } = await aliceOpens();
  const hot = currentGrid();
  const bob = await bobJoins();
  const stored = () => api.sheets.get(budget.id)!.data;
  const undo = async (row: number, col: number, value: unknown) => {
    act(() => void hot.selectCell(0, 0));
    act(() => void press('z', { ctrlKey: true }));
    await waitFor(() => expect(aliceOps().at(-1)).toEqual(cellSent(row, col, value)));
    // Shown and selected where it is now.
    expect(hot.getDataAtCell(row, col)).toBe(value);
    expect(hot.getSelectedLast()).toEqual([row, col, row, col]);
  };

  // Rows inserted above Food; Bob writes where Food was.
  act(() => hot.setDataAtCell(1, 1, 310));
  await waitFor(() => expect(stored()[1]).toEqual(['Food', 310]));
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 2 }));
  await bob.acked(bob.send({ type: 'cell_update', position: { row: 1, column: 1 }, value: 'bob' }));
  await waitFor(() => expect(hot.getDataAtCell(1, 1)).toBe('bob'));
  await undo(3, 1, 300);
  await waitFor(() => expect(stored()).toEqual([[], [null, 'bob'], ['Rent', 1200], ['Food', 300]]));

  // Rows removed above.
  act(() => hot.setDataAtCell(3, 0, 'Groceries'));
  await waitFor(() => expect(stored()[3]).toEqual(['Groceries', 300]));
  await bob.acked(bob.send({ type: 'rows_remove', index: 0, count: 2 }));
  await waitFor(() => expect(hot.getDataAtCell(1, 0)).toBe('Groceries'));
  await undo(1, 0, 'Food');
  await waitFor(() => expect(stored()).toEqual([['Rent', 1200], ['Food', 300]]));

  // A column inserted left.
  act(() => hot.setDataAtCell(0, 1, 1250));
  await waitFor(() => expect(stored()[0]).toEqual(['Rent', 1250]));
  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  await waitFor(() => expect(hot.getDataAtCell(0, 2)).toBe(1250));
  await undo(0, 2, 1200);
  await waitFor(() => expect(stored()).toEqual([[null, 'Rent', 1200], [null, 'Food', 300]]));
  expect(hot.getDataAtCell(0, 1)).toBe('Rent');
  await waitFor(() => expect(shell.sheet.getData()).toEqual(padded(api.sheets.get(budget.id)!)));
});

test("a sync that changed the sheet (someone's restore or api write) drops the user's undo steps: Undo and Redo write nothing, greyed out; an own Save keeps them", async () => {
  const { shell } = await aliceOpens();
  const hot = currentGrid();
  const stored = () => api.sheets.get(budget.id)!.data;
  act(() => hot.setDataAtCell(1, 1, 310));
  act(() => hot.setDataAtCell(0, 1, 1250));
  await waitFor(() => expect(stored()).toEqual([['Rent', 1250], ['Food', 310]]));

  // File › Save: the server answers everyone, Alice too, with a sync of what she sent; every cell is where it was.
  await chooseFromFileMenu('file-save');
  await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
  await waitFor(() => expect(shell.sheet.version).toBe(api.sheets.get(budget.id)!.version));
  act(() => void hot.selectCell(0, 0));
  act(() => void press('z', { ctrlKey: true }));
  await waitFor(() => expect(stored()[0]).toEqual(['Rent', 1200]));
  expect(menuEntry(hot, 'Undo')).toBe('enabled');
  expect(menuEntry(hot, 'Redo')).toBe('enabled');

  // Someone writes the sheet through the api (as a restore of an older version does): a row above hers.
  await shell.api.put(`/api/v1/sheets/${budget.id}`, { data: [['Rates', 50], ['Rent', 1200], ['Food', 310]] });
  await waitFor(() => expect(hot.getDataAtCell(0, 0)).toBe('Rates'));
  const sent = aliceOps().length;
  act(() => void hot.selectCell(0, 0));
  act(() => void press('z', { ctrlKey: true }));
  act(() => void press('y', { ctrlKey: true }));
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  expect(hot.getDataAtRow(0).slice(0, 2)).toEqual(['Rates', 50]);
  expect(hot.getDataAtRow(1).slice(0, 2)).toEqual(['Rent', 1200]);
  expect(hot.getDataAtRow(2).slice(0, 2)).toEqual(['Food', 310]);
  expect(menuEntry(hot, 'Undo')).toBe('disabled');
  expect(menuEntry(hot, 'Redo')).toBe('disabled');
  // Her next edit is the first thing she sends after it (the socket keeps order): nothing went before it.
  act(() => hot.setDataAtCell(2, 0, 'Groceries'));
  await waitFor(() => expect(stored()).toEqual([['Rates', 50], ['Rent', 1200], ['Groceries', 310]]));
  expect(aliceOps().slice(sent)).toEqual([cellSent(2, 0, 'Groceries')]);
});
