import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccessLevel, GroupTree } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import Navigator from './Navigator.js';
import { apiError, group, json, sheet, startApi, testShell, type TestApi } from './navigator-test-api.js';
import { EMPTY_TREE, useSheetTree } from './sheet-tree.store.js';

jest.setTimeout(20_000);

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

/** The tree as the api sends it (issue 18): each item with the user's level on it. */
async function renderTree() {
  const at = (access: AccessLevel) => ({ access });
  const finance = { ...group('Finance'), ...at('viewer') };
  const tree: GroupTree = {
    groups: [{ group: finance, children: [], sheets: [sheet({ name: 'Budget', group_id: finance.id, ...at('viewer') })] }],
    sheets: [sheet({ name: 'Notes', ...at('editor') }), sheet({ name: 'Mine', ...at('owner') })],
  };
  api = await startApi((req, res) => {
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, tree);
    apiError(res, 404, 'not_found', 'Not found');
  });
  renderInShell(<Navigator shell={testShell(api.url)} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
}

/** The items of a row's overflow menu, in order. */
async function menuOf(name: string) {
  await userEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  await screen.findByRole('menu');
  const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  return items;
}

test("menus offer what the user's level allows: a viewer no Rename, Add, Move or Delete; an editor no Delete; Share... for all", async () => {
  await renderTree();
  expect(await menuOf('Budget')).toEqual(['Add to Favorites', 'Duplicate', 'Share...']);
  expect(await menuOf('Finance')).toEqual(['Share...']);
  expect(await menuOf('Notes')).toEqual(['Rename', 'Add to Favorites', 'Duplicate', 'Move to...', 'Share...']);
  expect(await menuOf('Mine')).toEqual(['Rename', 'Add to Favorites', 'Duplicate', 'Move to...', 'Share...', 'Delete']);
});

test("a viewer's row neither renames on double-click nor drags; an editor's does both", async () => {
  await renderTree();
  const budget = screen.getByText('Budget').closest('[data-testid^="row-sheet-"]')!;
  expect(budget).toHaveAttribute('draggable', 'false');
  fireEvent.doubleClick(screen.getByText('Budget'));
  expect(screen.queryByRole('textbox', { name: 'Rename Budget' })).not.toBeInTheDocument();

  const notes = screen.getByText('Notes').closest('[data-testid^="row-sheet-"]')!;
  expect(notes).toHaveAttribute('draggable', 'true');
  fireEvent.doubleClick(screen.getByText('Notes'));
  expect(await screen.findByRole('textbox', { name: 'Rename Notes' })).toBeInTheDocument();
});
