import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TEXTS, type AccessLevel, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let budget: Sheet;

/** Budget as the api sends it to alice, with her level on it (issue 18). */
async function openAs(access: AccessLevel) {
  budget = { ...makeSheet('Budget', [['Rent', 1200], ['Food', 300]], ['Item', 'Cost']), access };
  api = await startSheetApi([budget]);
  renderInShell(<Workspace shell={liveShellFor(api.url, budget.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  // The socket is open (the hub has seen alice join) before anything is typed.
  await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
}

afterEach(async () => {
  closeLiveShells();
  await api.close();
});

const operationsSent = () => api.live.received.filter(({ frame }) => frame.type === 'operation');

/** The File menu's items, open. */
async function fileMenuItems() {
  await userEvent.click(screen.getByTestId('file-menu'));
  await screen.findByRole('menu');
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

test("a viewer: 'View only' in the toolbar; cells take no input, the context menu has no structure items, File has no Save or Delete to use; nothing is sent", async () => {
  await openAs('viewer');
  expect(screen.getByTestId('view-only')).toHaveTextContent('View only');
  const hot = currentGrid();
  expect(hot.getSettings().readOnly).toBe(true);
  expect(hot.getCellMeta(0, 0).readOnly).toBe(true);

  // Typing into a cell: the editor does not open.
  act(() => void hot.selectCell(0, 0));
  act(() => hot.getActiveEditor()?.beginEditing());
  expect((hot.getActiveEditor() as unknown as { isOpened(): boolean } | undefined)?.isOpened() ?? false).toBe(false);

  const menu = JSON.stringify(hot.getSettings().contextMenu);
  for (const structure of ['row_above', 'row_below', 'col_left', 'col_right', 'remove_row', 'remove_col', 'cut']) expect(menu).not.toContain(structure);
  expect(menu).toContain('copy');

  const items = await fileMenuItems();
  expect(items).not.toContain('Delete');
  expect(screen.getByTestId('file-save')).toHaveAttribute('data-disabled');
  expect(operationsSent()).toEqual([]);
  expect(api.sheets.get(budget.id)!.data).toEqual([['Rent', 1200], ['Food', 300]]);
});

test("an edit the server refuses as view-only (the sheet was shared view-only since it loaded) shows its text, locks the grid and shows 'View only'", async () => {
  await openAs('editor');
  expect(screen.queryByTestId('view-only')).not.toBeInTheDocument();
  expect(currentGrid().getSettings().readOnly).toBe(false);
  api.live.refuse = () => ACCESS_TEXTS.viewOnly;

  act(() => currentGrid().setDataAtCell(0, 1, '1250'));
  expect(await screen.findByText(ACCESS_TEXTS.viewOnly)).toBeInTheDocument();
  expect(await screen.findByTestId('view-only')).toHaveTextContent('View only');
  await waitFor(() => expect(currentGrid().getSettings().readOnly).toBe(true));
  // The server kept its value, and the grid shows it again.
  expect(api.sheets.get(budget.id)!.data[0]).toEqual(['Rent', 1200]);
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 1)).toBe(1200));
});

test('an editor gets no Delete in the File menu', async () => {
  await openAs('editor');
  expect(await fileMenuItems()).not.toContain('Delete');
});

test('an owner gets Delete in the File menu', async () => {
  await openAs('owner');
  expect(await fileMenuItems()).toContain('Delete');
});
