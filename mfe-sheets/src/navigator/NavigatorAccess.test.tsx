import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccessLevel, GroupTree } from '@tessera/contracts';
import { closeMenu, renderInShell } from '@tessera/jest-react';
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
  await closeMenu();
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

/** Drags a row over a target and drops; whether the target took it (cancelled dragover), as NavigatorMove.test.tsx does. */
function dragOnto(source: HTMLElement, target: () => HTMLElement) {
  const data = new Map<string, string>();
  const transfer = { data, effectAllowed: 'all', dropEffect: 'none', setData: (t: string, v: string) => data.set(t, v), getData: (t: string) => data.get(t) ?? '' };
  fireEvent.dragStart(source, { dataTransfer: transfer });
  return async () => {
    await screen.findByTestId('root-drop-zone');
    const at = target();
    fireEvent.dragEnter(at, { dataTransfer: transfer });
    const accepted = !fireEvent.dragOver(at, { dataTransfer: transfer });
    fireEvent.drop(at, { dataTransfer: transfer });
    fireEvent.dragEnd(source);
    await waitFor(() => expect(screen.queryByTestId('root-drop-zone')).not.toBeInTheDocument());
    return accepted;
  };
}

/** Shared and Locked at root, and the user's own sheet inside Shared; the user's level at root is `root`. */
async function renderPlaces(root: AccessLevel) {
  const shared = { ...group('Shared'), access: 'editor' as const };
  const locked = { ...group('Locked'), access: 'viewer' as const };
  const draft = sheet({ name: 'Draft', group_id: shared.id, access: 'owner' });
  const tree: GroupTree = {
    groups: [
      { group: shared, children: [], sheets: [draft] },
      { group: locked, children: [], sheets: [] },
    ],
    sheets: [],
    root_access: root,
  };
  const calls: string[] = [];
  api = await startApi((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, tree);
    apiError(res, 404, 'not_found', 'Not found');
  });
  renderInShell(<Navigator shell={testShell(api.url)} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
  return { shared, locked, draft, calls };
}

test('Import, Add Folder and Add Sheet put things at root: a member who may only view there gets no Import and disabled Add buttons', async () => {
  await renderPlaces('viewer');
  expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
  expect(screen.queryByLabelText('Import CSV / Excel')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Add Folder' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Add Sheet' })).toBeDisabled();
});

test('an editor at root keeps Import and the Add buttons', async () => {
  await renderPlaces('editor');
  expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Add Folder' })).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Add Sheet' })).toBeEnabled();
});

test("drops are pre-checked against the target's level: not onto a group the user may only view, not to a root they may only view; no request is made", async () => {
  const { locked, draft, calls } = await renderPlaces('viewer');
  const source = () => screen.getByTestId(`row-sheet-${draft.id}`);
  expect(await dragOnto(source(), () => screen.getByTestId(`row-group-${locked.id}`))()).toBe(false);
  expect(await dragOnto(source(), () => screen.getByTestId('root-drop-zone'))()).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  // 'Move to...' offers neither, and says there is nowhere to go.
  await userEvent.click(screen.getByRole('button', { name: 'Actions for Draft' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Move to...' }));
  const nowhere = await screen.findByRole('menuitem', { name: 'No place you can move it to' });
  expect(nowhere).toHaveAttribute('data-disabled');
  expect(screen.queryByRole('menuitem', { name: 'Locked' })).not.toBeInTheDocument();
  expect(screen.queryByRole('menuitem', { name: 'Root level' })).not.toBeInTheDocument();
});

test('with editing at root, the same sheet may be dropped to the root zone, still not onto the group it may only view', async () => {
  const { locked, draft } = await renderPlaces('editor');
  const source = () => screen.getByTestId(`row-sheet-${draft.id}`);
  expect(await dragOnto(source(), () => screen.getByTestId(`row-group-${locked.id}`))()).toBe(false);
  const drop = dragOnto(source(), () => screen.getByTestId('root-drop-zone'));
  expect(await drop()).toBe(true);
});
