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
  for (const structure of ['row_above', 'row_below', 'col_left', 'col_right', 'remove_row', 'remove_col', 'cut', 'sort_asc', 'sort_desc']) expect(menu).not.toContain(structure);
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

test("a sharing change told on the socket locks the open grid with 'View only', and unlocks it again, without a reload", async () => {
  await openAs('editor');
  const loads = () => api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${budget.id}`).length;
  const loadsBefore = loads();
  expect(loadsBefore).toBeGreaterThan(0);
  expect(screen.queryByTestId('view-only')).not.toBeInTheDocument();

  act(() => api.live.broadcast(budget.id, { type: 'access', data: { sheet_id: budget.id, access: 'viewer' } }));
  expect(await screen.findByTestId('view-only')).toHaveTextContent('View only');
  await waitFor(() => expect(currentGrid().getSettings().readOnly).toBe(true));
  expect(currentGrid().getCellMeta(0, 1).readOnly).toBe(true);

  act(() => api.live.broadcast(budget.id, { type: 'access', data: { sheet_id: budget.id, access: 'editor' } }));
  await waitFor(() => expect(screen.queryByTestId('view-only')).not.toBeInTheDocument());
  await waitFor(() => expect(currentGrid().getSettings().readOnly).toBe(false));
  expect(currentGrid().getCellMeta(0, 1).readOnly).toBe(false);
  // Editable again: an edit goes to the server.
  act(() => currentGrid().setDataAtCell(0, 1, 1250));
  await waitFor(() => expect(api.sheets.get(budget.id)!.data[0]).toEqual(['Rent', 1250]));
  // Neither change reloaded the sheet.
  expect(loads()).toBe(loadsBefore);
});

test('an access frame about another sheet changes nothing here', async () => {
  await openAs('editor');
  act(() => api.live.broadcast(budget.id, { type: 'access', data: { sheet_id: '00000000-0000-4000-8000-0000000000ff', access: 'viewer' } }));
  act(() => currentGrid().setDataAtCell(0, 1, 1300));
  await waitFor(() => expect(api.sheets.get(budget.id)!.data[0]).toEqual(['Rent', 1300]));
  expect(screen.queryByTestId('view-only')).not.toBeInTheDocument();
});

test('an editor gets no Delete in the File menu', async () => {
  await openAs('editor');
  expect(await fileMenuItems()).not.toContain('Delete');
});

test('an owner gets Delete in the File menu', async () => {
  await openAs('owner');
  expect(await fileMenuItems()).toContain('Delete');
});
