import { act, cleanup as cleanupAll, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type ShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { entry, startVersionsApi, type VersionsTestApi } from '../test-support/versions-test-api.js';
import { SheetVersions } from './SheetVersions.js';

const SHEET = 's-1';
const PROPOSAL = '5f0c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';

let api: VersionsTestApi;
let actions: string[];
let reloads: number;

beforeEach(async () => {
  api = await startVersionsApi(SHEET, [
    entry({ version_id: PROPOSAL, status: 'proposed', author: 'AI', delta_cells: 3 }),
    entry({ version_id: '3', status: 'live', author: 'bo', delta_cells: 2 }),
    entry({ version_id: '2', status: 'archived', label: 'Before cleanup' }),
    entry({ version_id: '1', status: 'archived', delta_cells: null }),
  ]);
  actions = [];
  reloads = 0;
});
afterEach(() => api.close());

function shellFor(sheetId: string | null): ShellContext {
  const shell = createDevShellContext({ apiBaseURL: api.url, sheetId, tab: 'git', onAction: (a) => actions.push(a) });
  return { ...shell, live: { ...shell.live, requestReload: () => void reloads++ } };
}

async function renderList(shell = shellFor(SHEET)) {
  renderInShell(<SheetVersions shell={shell} />);
  const list = await screen.findByRole('list', { name: 'Sheet versions' });
  await waitFor(() => expect(within(list).getAllByTestId('sheet-version')).toHaveLength(api.versions.length));
  return { shell, list };
}

const rowOf = (list: HTMLElement, name: string) => within(list).getByText(`#${name}`).closest('li')!;
const buttonsOf = (row: HTMLElement) => within(row).getAllByRole('button').map((b) => b.textContent);

test("lists the sheet's versions with status, author, label and changed cells; actions follow the status (the live one has none)", async () => {
  const { list } = await renderList();
  expect(api.calls.filter((c) => !c.endsWith('/access'))).toEqual([`GET /api/v1/sheets/${SHEET}/history?limit=50`]);
  const proposal = rowOf(list, PROPOSAL.slice(0, 8));
  expect(proposal).toHaveTextContent('proposed');
  expect(proposal).toHaveTextContent('AI');
  expect(proposal).toHaveTextContent('3 cells');
  expect(buttonsOf(proposal)).toEqual(['Preview', 'Accept', 'Discard']);
  expect(buttonsOf(rowOf(list, '3'))).toEqual(['Preview', 'Name']);
  expect(rowOf(list, '2')).toHaveTextContent('Before cleanup');
  expect(buttonsOf(rowOf(list, '2'))).toEqual(['Preview', 'Checkout', 'Discard', 'Name']);
  expect(rowOf(list, '1')).toHaveTextContent('whole sheet');
});

test('Checkout makes a new live version, sends reload_request and refreshes the list', async () => {
  const { shell, list } = await renderList();
  const refreshes: unknown[] = [];
  shell.bus.on('sheet-history-refresh', (e) => refreshes.push(e));
  await userEvent.click(within(rowOf(list, '2')).getByRole('button', { name: 'Checkout #2' }));
  await waitFor(() => expect(within(list).getAllByTestId('sheet-version')).toHaveLength(5));
  expect(rowOf(list, '4')).toHaveTextContent('live');
  expect(rowOf(list, '3')).toHaveTextContent('archived');
  expect(api.calls).toContain(`POST /api/v1/sheets/${SHEET}/versions/2/checkout`);
  expect(reloads).toBe(1);
  expect(refreshes).toEqual([{ sheetId: SHEET }]);
});

test('Accept applies a proposal; Discard removes an archived version; a refused discard says why', async () => {
  const { list } = await renderList();
  await userEvent.click(within(rowOf(list, PROPOSAL.slice(0, 8))).getByRole('button', { name: `Accept #${PROPOSAL.slice(0, 8)}` }));
  await waitFor(() => expect(within(list).queryByText(`#${PROPOSAL.slice(0, 8)}`)).not.toBeInTheDocument());
  expect(rowOf(list, '4')).toHaveTextContent('live');
  expect(reloads).toBe(1);

  await userEvent.click(within(rowOf(list, '1')).getByRole('button', { name: 'Discard #1' }));
  await waitFor(() => expect(within(list).queryByText('#1')).not.toBeInTheDocument());
  expect(reloads).toBe(1);

  // Someone else made version 2 live meanwhile: the server refuses, the panel says why.
  api.versions.find((v) => v.version_id === '2')!.status = 'live';
  await userEvent.click(within(rowOf(list, '2')).getByRole('button', { name: 'Discard #2' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to discard version: The live version cannot be discarded');
});

test('a refused checkout is only logged (spec 02 §8)', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const { list } = await renderList();
  api.versions.find((v) => v.version_id === '2')!.status = 'live';
  await userEvent.click(within(rowOf(list, '2')).getByRole('button', { name: 'Checkout #2' }));
  await waitFor(() => expect(errors).toHaveBeenCalledWith(expect.stringContaining('checkout of version 2 failed'), 409, 'This version is already live'));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(reloads).toBe(0);
  errors.mockRestore();
});

test('Name labels a version', async () => {
  const { list } = await renderList();
  await userEvent.click(within(rowOf(list, '3')).getByRole('button', { name: 'Name #3' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'Name #3' }), 'Quarter close{Enter}');
  await waitFor(() => expect(rowOf(list, '3')).toHaveTextContent('Quarter close'));
  expect(api.calls).toContain(`PUT /api/v1/sheets/${SHEET}/versions/3/label`);
});

test("the list refreshes on 'sheet-proposal', 'sheet-history-refresh' and 'sheet-snapshot-merged' for this sheet only", async () => {
  const { shell, list } = await renderList();
  const historyCalls = () => api.calls.filter((c) => c.includes('/history')).length;
  act(() => shell.bus.emit('sheet-proposal', { sheetId: 'another', versionId: 'x' }));
  api.versions.unshift(entry({ version_id: '0d9c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f', status: 'proposed' }));
  act(() => shell.bus.emit('sheet-proposal', { sheetId: SHEET, versionId: '0d9c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f' }));
  await waitFor(() => expect(within(list).getByText('#0d9c7c9e')).toBeInTheDocument());
  act(() => shell.bus.emit('sheet-history-refresh', { sheetId: SHEET }));
  await waitFor(() => expect(historyCalls()).toBe(3));
  act(() => shell.bus.emit('sheet-snapshot-merged', { sheetId: SHEET, version: 9 }));
  await waitFor(() => expect(historyCalls()).toBe(4));
});

test('Preview opens the data tab and asks the Workspace to preview; asked again once a Workspace mounted later has loaded the sheet', async () => {
  const { shell, list } = await renderList();
  const requests: unknown[] = [];
  shell.bus.on('sheet-version-preview', (e) => requests.push(e));
  await userEvent.click(within(rowOf(list, '2')).getByRole('button', { name: 'Preview #2' }));
  expect(actions).toContain(`navigate /sheets/${SHEET}?tab=data`);
  expect(requests).toEqual([{ sheetId: SHEET, versionId: '2' }]);
  // The Workspace was not mounted: it loads the sheet now, and gets the request then.
  act(() => shell.bus.emit('sheet-loaded', { sheetId: SHEET }));
  expect(requests).toHaveLength(2);
  // It previews it now: the list marks it, and no more requests follow.
  act(() => shell.bus.emit('sheet-version-previewing', { sheetId: SHEET, versionId: '2' }));
  expect(within(rowOf(list, '2')).getByText('Preview', { selector: 'span' })).toBeInTheDocument();
  act(() => shell.bus.emit('sheet-loaded', { sheetId: SHEET }));
  expect(requests).toHaveLength(2);
});

test('without a current sheet: no list, no calls', async () => {
  renderInShell(<SheetVersions shell={shellFor(null)} />);
  expect(screen.getByText('Select a sheet to see its versions')).toBeInTheDocument();
  expect(api.calls).toEqual([]);
});

test('a failed list says why', async () => {
  api.failHistory = 403;
  renderInShell(<SheetVersions shell={shellFor(SHEET)} />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load versions: You cannot see this sheet');
});

test('owners get Prune history: the dialog says a pruned range cannot be undone before anything is pruned; others never see it', async () => {
  const { list } = await renderList();
  await waitFor(() => expect(api.calls).toContain(`GET /api/v1/sheets/${SHEET}/access`));
  expect(screen.queryByRole('button', { name: 'Prune history…' })).toBeNull();
  cleanupAll();

  api.level = 'owner';
  const { shell } = await renderList();
  const refreshes: unknown[] = [];
  shell.bus.on('sheet-history-refresh', (e) => refreshes.push(e));
  await userEvent.click(await screen.findByRole('button', { name: 'Prune history…' }));
  const dialog = screen.getByRole('dialog', { name: 'Prune history' });
  expect(within(dialog).getByRole('alert')).toHaveTextContent('a pruned range cannot be undone');
  expect(api.prunes).toEqual([]);
  await userEvent.clear(within(dialog).getByLabelText('Keep the newest versions'));
  await userEvent.type(within(dialog).getByLabelText('Keep the newest versions'), '10');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Prune' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Pruned 1 version; 3 kept.');
  expect(api.prunes).toEqual([{ recent: 10, daily: 30 }]);
  expect(refreshes).toEqual([{ sheetId: SHEET }]);
  expect(screen.queryByRole('dialog')).toBeNull();
  void list;
});
