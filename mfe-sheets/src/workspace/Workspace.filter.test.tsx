import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { FILTER_TEXTS, FIND_TEXTS, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { closeLiveShells, colleagueJoins, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

/** The user's own row filter (filter/): 'Filter by this column…' in the grid's menu, the bar, the rows shown, and edits made while filtered. */
let api: SheetTestApi;
let tasks: Sheet;

beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  tasks = makeSheet(
    'Tasks',
    [
      ['Paint', 'open', 3],
      ['Wire', 'done', 5],
      ['Plumb', 'open', 8],
      ['Roof', 'done', 2],
      ['Tile', 'open', 1],
    ],
    ['Task', 'Status', 'Hours'],
  );
  api = await startSheetApi([tasks]);
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

async function aliceOpens() {
  renderInShell(<Workspace shell={liveShellFor(api.url, tasks.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
}

const bobJoins = () => colleagueJoins(api.url, tasks.id);

/** The rows the grid draws, as the user reads them: the row number, then its cell of `col` (the spare empty rows left out). */
const shownRows = (col = 0) =>
  [...document.querySelectorAll('.ht_master tbody tr th')]
    .map((th) => `${th.textContent}:${currentGrid().getDataAtCell(Number(th.textContent) - 1, col) ?? ''}`)
    .filter((text) => !text.endsWith(':'));
/** The column headers marked as filtered (their mark's tooltip), by label. */
const filteredHeaders = () => [...document.querySelectorAll(`.ht_clone_top thead th[title="${FILTER_TEXTS.headerMarkTitle}"]`)].map((th) => th.textContent?.trim());
const count = () => screen.queryByTestId('filter-count')?.textContent ?? null;
const stored = () => api.sheets.get(tasks.id)!.data;

/** Right-click a column's header ('Filter by this column…'): its dialog. */
async function openFilter(column: number) {
  act(() => void currentGrid().selectColumns(column));
  act(() => currentGrid().getPlugin('contextMenu').executeCommand('filter_column'));
  return screen.findByTestId('filter-dialog');
}

/** Status: only 'open' ticked (Clear, then tick it), applied. */
async function filterOpenTasks() {
  const dialog = await openFilter(1);
  expect(dialog).toHaveTextContent(FILTER_TEXTS.title('Status'));
  // The column's values with how many rows show each.
  expect(dialog).toHaveTextContent('done (2)');
  expect(dialog).toHaveTextContent('open (3)');
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clearValues }));
  const open = screen.getByRole('checkbox', { name: /open/ });
  await waitFor(() => expect(open).not.toBeChecked());
  fireEvent.click(open);
  await waitFor(() => expect(open).toBeChecked());
  expect(screen.getByRole('checkbox', { name: /done/ })).not.toBeChecked();
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  await waitFor(() => expect(screen.queryByTestId('filter-dialog')).toBeNull());
  await waitFor(() => expect(count()).toBe(FILTER_TEXTS.showing(3, 5)));
}

test('filtering a column by its values shows only the matching rows, with their own row numbers, the header marked and the count; Clear filter shows every row again', async () => {
  await aliceOpens();
  expect(JSON.stringify(currentGrid().getSettings().contextMenu)).toContain(FILTER_TEXTS.menu);
  await filterOpenTasks();
  await waitFor(() => expect(shownRows()).toEqual(['1:Paint', '3:Plumb', '5:Tile']));
  expect(count()).toBe(FILTER_TEXTS.showing(3, 5));
  expect(filteredHeaders()).toEqual(['Status']);
  // A second column, AND: Hours greater than 2. Its values are those of the rows shown (Wire's 5 and Roof's 2 are not).
  await openFilter(2);
  expect(screen.getByTestId('filter-values')).toHaveTextContent(/^1 \(1\)3 \(1\)8 \(1\)$/);
  fireEvent.change(screen.getByRole('combobox', { name: FILTER_TEXTS.conditionLabel }), { target: { value: 'greater' } });
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.conditionValue }), { target: { value: '2' } });
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  await waitFor(() => expect(shownRows()).toEqual(['1:Paint', '3:Plumb']));
  expect(count()).toBe(FILTER_TEXTS.showing(2, 5));
  // Nothing of it reached the server: the sheet is as it was.
  expect(stored().map((r) => r[0])).toEqual(['Paint', 'Wire', 'Plumb', 'Roof', 'Tile']);
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clear }));
  expect(shownRows()).toEqual(['1:Paint', '2:Wire', '3:Plumb', '4:Roof', '5:Tile']);
  expect(screen.queryByTestId('filter-bar')).toBeNull();
});

test("while filtered, an edit lands on its sheet row for everyone; others' edits are judged again (a row they close goes, one they reopen comes), the user's own stay shown; rows and columns others insert or remove move the filter", async () => {
  await aliceOpens();
  const bob = await bobJoins();
  await filterOpenTasks();
  const hot = currentGrid();
  // Alice goes down from Paint: the hidden Wire is skipped, Plumb (sheet row 3) is selected; she types there.
  act(() => void hot.selectCell(0, 0));
  act(() => hot.selection.transformStart(1, 0));
  const [row] = hot.getSelectedLast()!;
  expect(row).toBe(2);
  act(() => hot.setDataAtCell(row, 0, 'Plumb pipes'));
  await waitFor(() => expect(bob.frames.some((f) => f.type === 'operation' && f.data.operation.type === 'cell_update' && f.data.operation.value === 'Plumb pipes')).toBe(true));
  await waitFor(() => expect(stored()[2][0]).toBe('Plumb pipes'));
  expect(stored()[1][0]).toBe('Wire');
  // Alice closes Tile herself: it stays shown until she filters again.
  act(() => hot.setDataAtCell(4, 1, 'done'));
  expect(shownRows()).toEqual(['1:Paint', '3:Plumb pipes', '5:Tile']);
  // Bob closes Paint and reopens Roof.
  await bob.acked(bob.send({ type: 'cells_update', changes: [{ row: 0, col: 1, value: 'done' }, { row: 3, col: 1, value: 'open' }] }));
  await waitFor(() => expect(shownRows()).toEqual(['3:Plumb pipes', '4:Roof', '5:Tile']));
  expect(count()).toBe(FILTER_TEXTS.showing(3, 5));
  // Ctrl+Home lands on the first row shown, not on the hidden Paint.
  act(() => void hot.selectCell(4, 1));
  act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Home', ctrlKey: true }));
  await waitFor(() => expect(hot.getSelectedLast()?.slice(0, 2)).toEqual([2, 0]));
  // Text typed into a cell whose row Bob's edit just hid still lands there (the user meant that cell).
  act(() => hot.setDataAtCell(0, 0, 'Paint walls'));
  await waitFor(() => expect(stored()[0][0]).toBe('Paint walls'));
  // Bob inserts an empty row above Plumb (it shows nothing 'open': hidden) and a column before Status: the filter moves with it.
  await bob.acked(bob.send({ type: 'rows_insert', index: 2, count: 1 }));
  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  await waitFor(() => expect(shownRows(1)).toEqual(['4:Plumb pipes', '5:Roof', '6:Tile']));
  // (jsdom draws two columns: brought into view.)
  act(() => void hot.selectCell(3, 2));
  expect(filteredHeaders()).toEqual(['Status']);
  // Bob removes the Status column: its filter goes, every row shows.
  await bob.acked(bob.send({ type: 'columns_remove', index: 2, count: 1 }));
  await waitFor(() => expect(screen.queryByTestId('filter-bar')).toBeNull());
  expect(hot.getPlugin('hiddenRows').getHiddenRows()).toEqual([]);
});

test('copy, Delete and paste over a selection that spans hidden rows touch only the rows shown', async () => {
  await aliceOpens();
  await filterOpenTasks();
  const hot = currentGrid();
  // Copy rows 1-5 of Task and Status: Wire and Roof are not in it.
  act(() => void hot.selectCell(0, 0, 4, 1));
  let copied = '';
  const event = Object.assign(new Event('copy', { bubbles: true }), { clipboardData: { setData: (type: string, text: string) => type === 'text/plain' && (copied = text) } });
  act(() => {
    hot.listen();
    document.body.dispatchEvent(event);
  });
  expect(copied).toBe('Paint\topen\nPlumb\topen\nTile\topen');
  // Delete clears Paint, Plumb and Tile's Task only.
  act(() => void hot.selectCell(0, 0, 4, 0));
  act(() => hot.emptySelectedCells());
  await waitFor(() => expect(stored().map((r) => r[0])).toEqual([null, 'Wire', null, 'Roof', null]));
  // Ctrl+Down from the emptied Paint goes past the hidden Wire and Roof (no shown cell below is filled: to the bottom).
  act(() => void hot.selectCell(0, 0));
  act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowDown', ctrlKey: true }));
  await waitFor(() => expect(hot.getSelectedLast()?.[0]).toBe(hot.countRows() - 1));
  // Pasting three lines from Paint's row fills the rows shown, passing over the hidden ones.
  act(() => void hot.selectCell(0, 0));
  act(() => hot.getPlugin('copyPaste').paste('a\nb\nc'));
  await waitFor(() => expect(stored().map((r) => r[0])).toEqual(['a', 'Wire', 'b', 'Roof', 'c']));
  // Remove rows over rows 1-5 removes the three shown; Wire and Roof stay.
  act(() => void hot.selectRows(0, 4));
  act(() => hot.getPlugin('contextMenu').executeCommand('remove_row'));
  await waitFor(() => expect(stored()).toEqual([['Wire', 'done', 5], ['Roof', 'done', 2]]));
  await waitFor(() => expect(count()).toBe(FILTER_TEXTS.showing(0, 2)));
  // One Ctrl+Z brings the three back (one action, though three rows_remove went out), each in its place.
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(stored()).toEqual([['a', 'open', 3], ['Wire', 'done', 5], ['b', 'open', 8], ['Roof', 'done', 2], ['c', 'open', 1]]));
  // The paste before it is the next step.
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(stored().map((r) => r[0])).toEqual([null, 'Wire', null, 'Roof', null]));
});

test("an undo made while filtered goes back to its own row after others' inserts; a sort keeps the filter; find passes over the hidden rows", async () => {
  await aliceOpens();
  const bob = await bobJoins();
  await filterOpenTasks();
  const hot = currentGrid();
  act(() => hot.setDataAtCell(2, 2, 80));
  await waitFor(() => expect(stored()[2][2]).toBe(80));
  // Bob inserts two rows at the top (empty: hidden here); Alice's undo still restores Plumb's hours, now on sheet row 5.
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 2 }));
  await waitFor(() => expect(shownRows()).toEqual(['3:Paint', '5:Plumb', '7:Tile']));
  act(() => hot.getPlugin('contextMenu').executeCommand('undo'));
  await waitFor(() => expect(stored()[4]).toEqual(['Plumb', 'open', 8]));
  expect(stored()[2]).toEqual(['Paint', 'open', 3]);
  // Bob sorts by Hours: the filter stays, judged on the rows as they now are.
  await bob.acked(bob.send({ type: 'rows_sort', column: 2, direction: 'asc' }));
  await waitFor(() => expect(shownRows()).toEqual(['1:Tile', '3:Paint', '5:Plumb']));
  expect(count()).toBe(FILTER_TEXTS.showing(3, 5));
  // Find 'o': Roof and Wire are filtered out, their 'o's are not found (Tile has none; 'open' three times, Plumb none).
  act(() => void hot.selectCell(0, 0));
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ctrlKey: true });
  fireEvent.change(screen.getByRole('textbox', { name: FIND_TEXTS.label }), { target: { value: 'o' } });
  await waitFor(() => expect(screen.getByTestId('find-count')).toHaveTextContent('1 of 3'));
});

test('a formula column is filtered by the values it shows, not by its text', async () => {
  tasks = makeSheet('Totals', [['Paint', 3, '=B1*10'], ['Wire', 5, '=B2*10'], ['Roof', 2, '=B3*10']], ['Task', 'Hours', 'Cost']);
  await api.close();
  api = await startSheetApi([tasks]);
  await aliceOpens();
  act(() => void currentGrid().selectCell(0, 2));
  await waitFor(() => expect(currentGrid().getCell(0, 2)?.textContent).toBe('30'));
  await openFilter(2);
  expect(screen.getByTestId('filter-values')).toHaveTextContent('20 (1)30 (1)50 (1)');
  fireEvent.change(screen.getByRole('combobox', { name: FILTER_TEXTS.conditionLabel }), { target: { value: 'less' } });
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.conditionValue }), { target: { value: '40' } });
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  await waitFor(() => expect(shownRows()).toEqual(['1:Paint', '3:Roof']));
});

test('Ctrl+End does not land on a hidden row: the last row shown instead', async () => {
  // As many rows as the grid shows (no spare row below): the last one is 'done', hidden by the filter.
  tasks = makeSheet('Long', Array.from({ length: 50 }, (_, r) => [`t${r}`, r % 2 === 0 ? 'open' : 'done']), ['Task', 'Status']);
  await api.close();
  api = await startSheetApi([tasks]);
  await aliceOpens();
  await openFilter(1);
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clearValues }));
  fireEvent.click(screen.getByRole('checkbox', { name: /open/ }));
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  await waitFor(() => expect(count()).toBe(FILTER_TEXTS.showing(25, 50)));
  const hot = currentGrid();
  expect(hot.countRows()).toBe(50);
  act(() => void hot.selectCell(0, 0));
  act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'End', ctrlKey: true }));
  await waitFor(() => expect(hot.getSelectedLast()?.[0]).toBe(48));
  // Ctrl+Down from the last row shown (nothing shown below: to the sheet's edge) stays on it, not on the hidden edge.
  act(() => void hot.selectCell(48, 1));
  act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowDown', ctrlKey: true }));
  await new Promise((done) => setTimeout(done, 50));
  expect(hot.getSelectedLast()?.slice(0, 2)).toEqual([48, 1]);
});
