import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TRASH_TEXTS, type GroupTree, type TrashItem } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import Navigator from '../navigator/Navigator.js';
import { apiError, json, sheet, startApi, testShell, uuid, type TestApi } from '../navigator/navigator-test-api.js';
import { EMPTY_TREE, useSheetTree } from '../navigator/sheet-tree.store.js';

jest.setTimeout(20_000);

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

const HOUR = 3_600_000;

function trashItem(fields: Pick<TrashItem, 'type' | 'name' | 'access'>): TrashItem {
  return {
    id: uuid(),
    item_id: uuid(),
    parent_id: null,
    deleted_by: { id: uuid(), username: 'bob' },
    deleted_at: new Date(Date.now() - 2 * HOUR - 60_000).toISOString(),
    purge_at: '2026-12-26T10:00:00.000Z',
    ...fields,
  };
}

/**
 * The navigator over an api with the trash routes: the list, restore (the item goes back into
 * the tree) and delete forever (owners only, as the api decides from the caller's level).
 */
async function renderWithTrash() {
  const tree: GroupTree = { groups: [], sheets: [sheet({ name: 'Plan' })] };
  const budget = trashItem({ type: 'sheet', name: 'Budget', access: 'owner' });
  const old = trashItem({ type: 'group', name: 'Old reports', access: 'editor' });
  const drafts = trashItem({ type: 'sheet', name: 'Drafts', access: 'owner' });
  const trash = [budget, old, drafts];
  api = await startApi((req, res) => {
    const entry = /^\/api\/v1\/trash\/([^/]+)(\/restore)?$/.exec(req.url ?? '');
    const item = entry ? trash.find((t) => t.id === entry[1]) : undefined;
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, tree);
    if (req.method === 'GET' && req.url === '/api/v1/trash') return json(res, 200, { items: trash });
    if (entry && !item) return apiError(res, 404, 'not_found', TRASH_TEXTS.notFound);
    if (item && req.method === 'POST' && entry![2]) {
      trash.splice(trash.indexOf(item), 1);
      tree.sheets.push(sheet({ id: item.item_id, name: item.name }));
      return json(res, 200, { type: item.type, id: item.item_id, name: item.name, parent_id: null });
    }
    if (item && req.method === 'DELETE' && !entry![2]) {
      if (item.access !== 'owner') return apiError(res, 403, 'forbidden', 'Only owners can do this');
      trash.splice(trash.indexOf(item), 1);
      return json(res, 200, { status: 'deleted', id: item.id });
    }
    apiError(res, 404, 'not_found', 'Not found');
  });
  renderInShell(<Navigator shell={testShell(api.url)} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
  await userEvent.click(screen.getByRole('button', { name: 'Trash' }));
  const dialog = await screen.findByTestId('trash-dialog');
  await within(dialog).findByRole('list', { name: 'Deleted items' });
  return { dialog, budget, old, drafts, trash, calls: api.calls };
}

test("the Trash lists each item with its type, who deleted it and when, and when it is purged; Restore puts it back in the navigator", async () => {
  const { dialog, budget, calls } = await renderWithTrash();
  const row = within(dialog).getByRole('listitem', { name: 'Budget' });
  expect(row).toHaveTextContent('Sheet');
  expect(row).toHaveTextContent('Deleted by bob · 2h ago');
  expect(row).toHaveTextContent('Purged on 2026-12-26');
  expect(within(dialog).getByRole('listitem', { name: 'Old reports' })).toHaveTextContent('Group');
  // The navigator behind the dialog (hidden from the accessibility tree while it is open).
  expect(within(screen.getByRole('list', { name: 'Sheet tree', hidden: true })).queryByText('Budget')).not.toBeInTheDocument();

  await userEvent.click(within(row).getByRole('button', { name: 'Restore Budget' }));
  await waitFor(() => expect(within(dialog).queryByRole('listitem', { name: 'Budget' })).not.toBeInTheDocument());
  expect(calls).toContain(`POST /api/v1/trash/${budget.id}/restore`);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
  expect(await within(screen.getByRole('list', { name: 'Sheet tree' })).findByText('Budget')).toBeInTheDocument();
});

test("Delete forever is offered on what the user owns only, and asks first that it cannot be undone; Cancel sends nothing", async () => {
  const { dialog, drafts, trash, calls } = await renderWithTrash();
  // An editor may restore the group but not delete it forever.
  const old = within(dialog).getByRole('listitem', { name: 'Old reports' });
  expect(within(old).getByRole('button', { name: 'Restore Old reports' })).toBeInTheDocument();
  expect(within(old).queryByRole('button', { name: 'Delete forever Old reports' })).not.toBeInTheDocument();

  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete forever Drafts' }));
  const confirm = await screen.findByRole('alertdialog');
  expect(confirm).toHaveTextContent(TRASH_TEXTS.deleteForeverConfirm);
  expect(confirm).toHaveTextContent('Drafts');
  await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);

  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete forever Drafts' }));
  await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete forever' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  await waitFor(() => expect(within(dialog).queryByRole('listitem', { name: 'Drafts' })).not.toBeInTheDocument());
  expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([`DELETE /api/v1/trash/${drafts.id}`]);
  expect(trash.map((t) => t.name)).toEqual(['Budget', 'Old reports']);
});
