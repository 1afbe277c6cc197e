import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type GroupTree, type ShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import type { ServerResponse } from 'node:http';
import Navigator from './Navigator.js';
import { apiError, emptyTree, group, json, sheet, startApi, type Handler, type TestApi } from './navigator-test-api.js';
import { EMPTY_TREE, useSheetTree } from './sheet-tree.store.js';
import { UserMenu } from './UserMenu.js';

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

const DAY = 24 * 60 * 60 * 1000;

/** An api holding `tree`, answering GET groups/tree, POST groups and sheets, and PUT rename as the real one does. */
async function treeApi(tree: GroupTree, override?: Handler): Promise<TestApi> {
  api = await startApi((req, res, body) => {
    if (override?.(req, res, body) === true || res.writableEnded) return;
    const url = req.url ?? '';
    if (req.method === 'GET' && url === '/api/v1/groups/tree') return json(res, 200, tree);
    if (req.method === 'POST' && url === '/api/v1/groups') {
      const created = group('New Group');
      tree.groups.push({ group: created, children: [], sheets: [] });
      return json(res, 201, created);
    }
    if (req.method === 'POST' && url === '/api/v1/sheets') {
      const created = sheet({ name: 'New Sheet', updated_at: new Date().toISOString() }, 0, 0);
      tree.sheets.push(created);
      return json(res, 201, { ...created, data: [] });
    }
    const rename = /^\/api\/v1\/items\/(sheet|group)\/([^/]+)\/rename$/.exec(url);
    if (req.method === 'PUT' && rename) {
      const name = (body as { name: string }).name;
      const [, type, id] = rename;
      const item = type === 'sheet' ? tree.sheets.find((s) => s.id === id) : tree.groups.find((g) => g.group.id === id)?.group;
      if (!item) return apiError(res, 404, 'not_found', 'Not found');
      item.name = name;
      return json(res, 200, { type, id, name, parent_id: null });
    }
    apiError(res, 404, 'not_found', 'Not found');
  });
  return api;
}

function shellFor(url: string, actions: string[] = []): ShellContext {
  return createDevShellContext({ apiBaseURL: url, user: { id: 'u-1', username: 'alice', role: 'admin' }, onAction: (a) => actions.push(a) });
}

/** Opens the user menu and waits until its content holds focus, so arrow keys reach it. */
async function openMenu(trigger: HTMLElement) {
  await userEvent.click(trigger);
  await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
}

const tree = () => screen.findByRole('list', { name: 'Sheet tree' });

test('renders nested groups, root sheets, sizes and the footer from GET /api/v1/groups/tree', async () => {
  const reports = group('Reports');
  const monthly = group('Monthly', reports.id);
  const data: GroupTree = {
    groups: [
      {
        group: reports,
        children: [{ group: monthly, children: [], sheets: [sheet({ name: 'January', group_id: monthly.id }, 31, 5)] }],
        sheets: [sheet({ name: 'Summary', group_id: reports.id }, 3, 2)],
      },
    ],
    sheets: [sheet({ name: 'Inbox' }, 120, 8)],
  };
  const { url, calls } = await treeApi(data);
  renderInShell(<Navigator shell={shellFor(url)} />);

  const list = await tree();
  const reportsRow = within(list).getByTestId(`group-${reports.id}`);
  expect(within(reportsRow).getByRole('button', { name: /^Reports/ })).toHaveAttribute('aria-expanded', 'true');
  expect(within(reportsRow).getAllByTestId('group-badge')[0]).toHaveTextContent('2');
  expect(within(reportsRow).getByTestId(`group-${monthly.id}`)).toHaveTextContent('January31 rows • 5 cols');
  expect(within(reportsRow).getByText('Summary')).toBeInTheDocument();
  // The root sheet sits beside the top-level group, not inside it.
  const inbox = within(list).getByTestId(`sheet-${data.sheets[0].id}`);
  expect(inbox.parentElement).toBe(list);
  expect(inbox).toHaveTextContent('120 rows • 8 cols');
  expect(screen.getByTestId('navigator-footer')).toHaveTextContent('3 sheets • 2 groups');
  expect(screen.getByRole('button', { name: 'Add Folder' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Add Sheet' })).toBeInTheDocument();
  expect(calls).toEqual(['GET /api/v1/groups/tree']);
});

test('a group badge shows the count up to 20, then 20+', async () => {
  const twenty = group('Twenty');
  const many = group('Many');
  const sheets = (n: number, groupId: string) => Array.from({ length: n }, (_, i) => sheet({ name: `S${i}`, group_id: groupId }));
  const { url } = await treeApi({
    groups: [
      { group: twenty, children: [], sheets: sheets(20, twenty.id) },
      { group: many, children: [group('Sub', many.id)].map((g) => ({ group: g, children: [], sheets: [] })), sheets: sheets(20, many.id) },
    ],
    sheets: [],
  });
  renderInShell(<Navigator shell={shellFor(url)} />);
  await tree();
  expect(within(screen.getByTestId(`group-${twenty.id}`)).getByTestId('group-badge')).toHaveTextContent(/^20$/);
  expect(within(screen.getByTestId(`group-${many.id}`)).getAllByTestId('group-badge')[0]).toHaveTextContent(/^20\+$/);
});

test('a green dot marks sheets updated within the last 7 days', async () => {
  const fresh = sheet({ name: 'Fresh', updated_at: new Date(Date.now() - 6 * DAY).toISOString() });
  const stale = sheet({ name: 'Stale', updated_at: new Date(Date.now() - 8 * DAY).toISOString() });
  const { url } = await treeApi({ groups: [], sheets: [fresh, stale] });
  renderInShell(<Navigator shell={shellFor(url)} />);
  await tree();
  expect(within(screen.getByTestId(`sheet-${fresh.id}`)).getByRole('img', { name: 'Updated recently' })).toBeInTheDocument();
  expect(within(screen.getByTestId(`sheet-${stale.id}`)).queryByRole('img', { name: 'Updated recently' })).not.toBeInTheDocument();
});

test('each sheet shows its category’s icon in the category’s colour', async () => {
  const budget = sheet({ name: 'Budget 2026' });
  const sprint = sheet({ name: 'Sprint board' });
  const notes = sheet({ name: 'Notes' });
  const { url } = await treeApi({ groups: [], sheets: [budget, sprint, notes] });
  renderInShell(<Navigator shell={shellFor(url)} />);
  await tree();
  const icon = (id: string, category: string) => within(screen.getByTestId(`sheet-${id}`)).getByTitle(category);
  expect(icon(budget.id, 'Financial')).toHaveTextContent('💰');
  expect(icon(budget.id, 'Financial')).toHaveAttribute('data-category-color', 'blue');
  expect(icon(sprint.id, 'Project Management')).toHaveTextContent('📋');
  expect(icon(sprint.id, 'Project Management')).toHaveAttribute('data-category-color', 'green');
  expect(icon(notes.id, 'General')).toHaveTextContent('📄');
  expect(icon(notes.id, 'General')).toHaveAttribute('data-category-color', 'teal');
});

test('clicking a sheet opens it; clicking a group collapses and expands it', async () => {
  const g = group('Projects');
  const inner = sheet({ name: 'Inner', group_id: g.id });
  const { url } = await treeApi({ groups: [{ group: g, children: [], sheets: [inner] }], sheets: [] });
  const actions: string[] = [];
  renderInShell(<Navigator shell={shellFor(url, actions)} />);
  await tree();
  await userEvent.click(screen.getByRole('button', { name: /^Inner/ }));
  expect(actions).toEqual([`open sheet ${inner.id}`]);

  const folder = screen.getByRole('button', { name: /^Projects/ });
  await userEvent.click(folder);
  expect(folder).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByText('Inner')).not.toBeInTheDocument();
  await userEvent.click(folder);
  expect(screen.getByText('Inner')).toBeInTheDocument();
});

test('shows the skeleton until the tree arrives', async () => {
  let release: (() => void) | undefined;
  const { url } = await treeApi(emptyTree(), (_req, res) => {
    release = () => json(res, 200, { groups: [], sheets: [sheet({ name: 'Late' })] });
    return true;
  });
  renderInShell(<Navigator shell={shellFor(url)} />);
  const skeleton = screen.getByTestId('navigator-skeleton');
  expect(skeleton).toHaveTextContent('Sheets');
  expect(skeleton).toHaveAttribute('aria-busy', 'true');
  await waitFor(() => expect(release).toBeDefined());
  expect(screen.getByTestId('navigator-skeleton')).toBeInTheDocument();
  expect(screen.queryByText('No Sheets Found')).not.toBeInTheDocument();
  release?.();
  expect(await screen.findByText('Late')).toBeInTheDocument();
  expect(screen.queryByTestId('navigator-skeleton')).not.toBeInTheDocument();
});

test('a failing tree is asked 3 times, then shows Failed to load navigation data', async () => {
  const { url, calls } = await treeApi(emptyTree(), (_req, res) => apiError(res, 503, 'unavailable', 'Down'));
  renderInShell(<Navigator shell={shellFor(url)} retryDelaysMs={[1, 1]} />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load navigation data');
  expect(calls).toEqual(Array(3).fill('GET /api/v1/groups/tree'));
  expect(screen.queryByText('No Sheets Found')).not.toBeInTheDocument();
});

test('any non-OK reply is retried: a 404 then a 200 shows the tree', async () => {
  let n = 0;
  const { url, calls } = await treeApi({ groups: [], sheets: [sheet({ name: 'Back' })] }, (_req, res) => {
    if (++n === 1) apiError(res, 404, 'not_found', 'Not found');
  });
  renderInShell(<Navigator shell={shellFor(url)} retryDelaysMs={[1, 1]} />);
  expect(await screen.findByText('Back')).toBeInTheDocument();
  expect(calls).toHaveLength(2);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('an empty tree keeps the empty state with Create Group and Create Sheet', async () => {
  const { url } = await treeApi(emptyTree());
  renderInShell(<Navigator shell={shellFor(url)} />);
  expect(await screen.findByText('No Sheets Found')).toBeInTheDocument();
  expect(screen.getByRole('navigation', { name: 'Sheets' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Sheets' })).toBeInTheDocument();
  expect(screen.getByText('Create your first group or sheet to get started.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Create Group' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Create Sheet' })).toBeInTheDocument();
  expect(screen.getByTestId('navigator-footer')).toHaveTextContent('0 sheets • 0 groups');
});

test('sheet-created and sheet-updated on the bus reload the tree', async () => {
  const data = emptyTree();
  const { url, calls } = await treeApi(data);
  const shell = shellFor(url);
  renderInShell(<Navigator shell={shell} />);
  await screen.findByText('No Sheets Found');
  data.sheets.push(sheet({ name: 'From elsewhere' }));
  act(() => shell.bus.emit('sheet-created', { sheetId: data.sheets[0].id, name: 'From elsewhere' }));
  expect(await screen.findByText('From elsewhere')).toBeInTheDocument();
  data.sheets[0].name = 'Renamed elsewhere';
  act(() => shell.bus.emit('sheet-updated', { sheetId: data.sheets[0].id }));
  expect(await screen.findByText('Renamed elsewhere')).toBeInTheDocument();
  expect(calls).toEqual(Array(3).fill('GET /api/v1/groups/tree'));
});

test("a navigation change by someone else ('navigation-changed', from the live sockets) reloads the tree", async () => {
  const data = emptyTree();
  const { url, calls } = await treeApi(data);
  const shell = shellFor(url);
  renderInShell(<Navigator shell={shell} />);
  await screen.findByText('No Sheets Found');
  data.sheets.push(sheet({ name: 'Made by Bob' }));
  act(() => shell.bus.emit('navigation-changed', { type: 'sheet_created', id: data.sheets[0].id, userId: 'bob' }));
  expect(await screen.findByText('Made by Bob')).toBeInTheDocument();
  data.sheets.length = 0;
  act(() => shell.bus.emit('navigation-changed', { type: 'sheet_deleted', id: null, userId: null }));
  expect(await screen.findByText('No Sheets Found')).toBeInTheDocument();
  expect(calls).toEqual(Array(3).fill('GET /api/v1/groups/tree'));
});

test('Create Sheet shows Creating... while busy, posts {}, announces sheet-created and shows the new sheet', async () => {
  let release: (() => void) | undefined;
  const bodies: unknown[] = [];
  const data = emptyTree();
  const { url } = await treeApi(data, (req, res, body) => {
    if (req.method !== 'POST') return false;
    bodies.push(body);
    const created = sheet({ name: 'New Sheet' }, 0, 0);
    release = () => {
      data.sheets.push(created);
      json(res, 201, { ...created, data: [] });
    };
    return true;
  });
  const shell = shellFor(url);
  const events: unknown[] = [];
  shell.bus.on('sheet-created', (e) => events.push(e));
  renderInShell(<Navigator shell={shell} />);
  await userEvent.click(await screen.findByRole('button', { name: 'Create Sheet' }));
  expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Create Group' })).toBeDisabled();
  await waitFor(() => expect(release).toBeDefined());
  release?.();
  expect(await screen.findByText('New Sheet')).toBeInTheDocument();
  expect(bodies).toEqual([{}]);
  expect(events).toEqual([{ sheetId: data.sheets[0].id, name: 'New Sheet' }]);
});

test('Add Folder posts {} to /api/v1/groups and shows the new group; Add Sheet adds a sheet', async () => {
  const { url, calls } = await treeApi({ groups: [], sheets: [sheet({ name: 'Existing' })] });
  renderInShell(<Navigator shell={shellFor(url)} />);
  await tree();
  await userEvent.click(screen.getByRole('button', { name: 'Add Folder' }));
  expect(await screen.findByRole('button', { name: /^New Group/ })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Add Sheet' }));
  expect(await screen.findByText('New Sheet')).toBeInTheDocument();
  expect(screen.getByTestId('navigator-footer')).toHaveTextContent('2 sheets • 1 groups');
  expect(calls).toEqual([
    'GET /api/v1/groups/tree',
    'POST /api/v1/groups',
    'GET /api/v1/groups/tree',
    'POST /api/v1/sheets',
    'GET /api/v1/groups/tree',
  ]);
});

test("a failed create shows 'Failed to create sheet: ' with the api's reason and announces nothing; a failed group shows the api's message", async () => {
  const { url } = await treeApi(emptyTree(), (req, res) => {
    if (req.method === 'POST') apiError(res, 500, 'internal_error', 'Boom');
  });
  const shell = shellFor(url);
  const events: unknown[] = [];
  shell.bus.on('sheet-created', (e) => events.push(e));
  renderInShell(<Navigator shell={shell} />);
  await userEvent.click(await screen.findByRole('button', { name: 'Create Sheet' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create sheet: Boom');
  expect(screen.getByRole('button', { name: 'Create Sheet' })).toBeEnabled();
  expect(events).toEqual([]);
  await userEvent.click(screen.getByRole('button', { name: 'Create Group' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Boom'));
});

describe('inline rename', () => {
  async function renderTree(override?: Handler) {
    const g = group('Projects');
    const s = sheet({ name: 'Budget' });
    const data: GroupTree = { groups: [{ group: g, children: [], sheets: [] }], sheets: [s] };
    const { url, calls } = await treeApi(data, override);
    const shell = shellFor(url);
    renderInShell(<Navigator shell={shell} />);
    await tree();
    return { g, s, calls, shell };
  }
  const puts = (calls: string[]) => calls.filter((c) => c.startsWith('PUT'));

  test('double-click then Enter saves the trimmed name of a sheet and announces sheet-updated', async () => {
    const { s, calls, shell } = await renderTree();
    const events: unknown[] = [];
    shell.bus.on('sheet-updated', (e) => events.push(e));
    await userEvent.dblClick(screen.getByRole('button', { name: /^Budget/ }));
    const input = screen.getByRole('textbox', { name: 'Rename Budget' });
    await userEvent.clear(input);
    await userEvent.type(input, '  Budget 2027  {Enter}');
    expect(await screen.findByText('Budget 2027')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(puts(calls)).toEqual([`PUT /api/v1/items/sheet/${s.id}/rename`]);
    expect(events).toEqual([{ sheetId: s.id, name: 'Budget 2027' }]);
  });

  test('losing focus saves the name of a group', async () => {
    const { g, calls } = await renderTree();
    await userEvent.dblClick(screen.getByRole('button', { name: /^Projects/ }));
    const input = screen.getByRole('textbox', { name: 'Rename Projects' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Archive');
    fireEvent.blur(input);
    expect(await screen.findByRole('button', { name: /^Archive/ })).toBeInTheDocument();
    expect(puts(calls)).toEqual([`PUT /api/v1/items/group/${g.id}/rename`]);
  });

  test('an empty name cancels without a request', async () => {
    const { calls } = await renderTree();
    await userEvent.dblClick(screen.getByRole('button', { name: /^Budget/ }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Rename Budget' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Rename Budget' }), '   {Enter}');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText('Budget')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  test('Escape cancels without a request', async () => {
    const { calls } = await renderTree();
    await userEvent.dblClick(screen.getByRole('button', { name: /^Projects/ }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Rename Projects' }), ' changed{Escape}');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText('Projects')).toBeInTheDocument();
    expect(screen.queryByText(/changed/)).not.toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  test("a refused name shows the server's message and keeps the old name", async () => {
    const tooLong = 'x'.repeat(101);
    const { s } = await renderTree((req, res: ServerResponse) => {
      if (req.method === 'PUT') apiError(res, 400, 'validation_error', 'Sheet name cannot exceed 100 characters');
    });
    await userEvent.dblClick(screen.getByRole('button', { name: /^Budget/ }));
    const input = screen.getByRole('textbox', { name: 'Rename Budget' });
    await userEvent.clear(input);
    fireEvent.change(input, { target: { value: tooLong } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Sheet name cannot exceed 100 characters');
    expect(screen.getByTestId(`sheet-${s.id}`)).toHaveTextContent('Budget');
  });

  test("a rename the server fails for another reason says 'Failed to rename sheet' and keeps the old name", async () => {
    const { s } = await renderTree((req, res: ServerResponse) => {
      if (req.method === 'PUT') apiError(res, 500, 'internal_error', 'Internal server error');
    });
    await userEvent.dblClick(screen.getByRole('button', { name: /^Budget/ }));
    const input = screen.getByRole('textbox', { name: 'Rename Budget' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Budget 2027{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to rename sheet$/);
    expect(screen.getByTestId(`sheet-${s.id}`)).toHaveTextContent('Budget');
  });
});

test('the user menu shows the nickname and email; Account Settings opens /settings; Log out calls shell.logout', async () => {
  const { url } = await treeApi(emptyTree());
  const actions: string[] = [];
  const shell = createDevShellContext({
    apiBaseURL: url,
    user: { id: 'u-1', username: 'alice', role: 'admin', nickname: 'Al', email: 'al@example.com' },
    onAction: (action) => actions.push(action),
  });
  renderInShell(<Navigator shell={shell} />);
  await screen.findByText('No Sheets Found');
  const trigger = screen.getByRole('button', { name: 'User menu' });
  expect(trigger).toHaveTextContent('Al');
  expect(trigger).toHaveTextContent('al@example.com');

  await openMenu(trigger);
  await userEvent.keyboard('{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Account Settings' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings']);

  await openMenu(trigger);
  await userEvent.keyboard('{ArrowDown}{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Log out' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings', 'logout']);
});

test('the user menu offers Account Settings when there is a screen to open', async () => {
  const actions: string[] = [];
  renderInShell(
    <UserMenu
      user={{ username: 'alice', role: 'admin' }}
      onAccountSettings={() => actions.push('navigate /settings')}
      onLogout={() => actions.push('logout')}
    />,
  );
  const trigger = screen.getByRole('button', { name: 'User menu' });
  expect(trigger).toHaveTextContent('alice');
  expect(trigger).toHaveTextContent('admin');

  // Menu items select by keyboard as by pointer: jsdom has no layout for pointer hover.
  await openMenu(trigger);
  await userEvent.keyboard('{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Account Settings' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings']);

  await openMenu(trigger);
  await userEvent.keyboard('{ArrowDown}{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Log out' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings', 'logout']);
});

test('the user menu falls back to User and Member', () => {
  renderInShell(<UserMenu user={{}} onAccountSettings={() => {}} onLogout={() => {}} />);
  const trigger = screen.getByRole('button', { name: 'User menu' });
  expect(trigger).toHaveTextContent('User');
  expect(trigger).toHaveTextContent('Member');
});

describe('delete from the overflow menu', () => {
  async function renderForDelete(openSheetId: (ids: { inner: string; root: string }) => string | null, override?: Handler) {
    const g = group('Projects');
    const inner = sheet({ name: 'Plan', group_id: g.id });
    const root = sheet({ name: 'Budget' });
    const data: GroupTree = { groups: [{ group: g, children: [], sheets: [inner] }], sheets: [root] };
    const actions: string[] = [];
    api = await startApi((req, res, body) => {
      if (override?.(req, res, body) === true || res.writableEnded) return;
      const url = req.url ?? '';
      if (req.method === 'GET') return json(res, 200, data);
      const del = /^\/api\/v1\/(sheets|groups)\/([^/]+)$/.exec(url);
      if (req.method === 'DELETE' && del) {
        if (del[1] === 'groups') data.groups = data.groups.filter((n) => n.group.id !== del[2]);
        else data.sheets = data.sheets.filter((s) => s.id !== del[2]);
        return json(res, 200, { status: 'deleted', id: del[2] });
      }
      apiError(res, 404, 'not_found', 'Not found');
    });
    const shell = createDevShellContext({
      apiBaseURL: api.url,
      user: { id: 'u-1', username: 'alice', role: 'admin' },
      sheetId: openSheetId({ inner: inner.id, root: root.id }),
      onAction: (a) => actions.push(a),
    });
    renderInShell(<Navigator shell={shell} />);
    await tree();
    return { g, inner, root, actions, calls: api.calls };
  }

  async function chooseDelete(name: string) {
    const trigger = screen.getByRole('button', { name: `Actions for ${name}` });
    await userEvent.click(trigger);
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    // Delete is the last item of both menus.
    await userEvent.keyboard('{End}');
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');
    return screen.findByRole('alertdialog');
  }

  test('asks in a dialog, deletes the open sheet and clears the selection', async () => {
    const { root, actions, calls } = await renderForDelete(({ root }) => root);
    const dialog = await chooseDelete('Budget');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this group or sheet?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Budget')).not.toBeInTheDocument());
    expect(calls).toContain(`DELETE /api/v1/sheets/${root.id}`);
    expect(actions).toEqual(['open sheet (none)']);
    expect(screen.getByTestId('navigator-footer')).toHaveTextContent('1 sheets • 1 groups');
  });

  test('deleting a group holding the open sheet clears the selection; Cancel deletes nothing', async () => {
    const { g, actions, calls } = await renderForDelete(({ inner }) => inner);
    const first = await chooseDelete('Projects');
    await userEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);

    const dialog = await chooseDelete('Projects');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Plan')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([`DELETE /api/v1/groups/${g.id}`]);
    expect(actions).toEqual(['open sheet (none)']);
  });

  test('deleting another sheet keeps the selection', async () => {
    const { actions } = await renderForDelete(({ inner }) => inner);
    const dialog = await chooseDelete('Budget');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Budget')).not.toBeInTheDocument());
    expect(actions).toEqual([]);
  });

  test('a failed delete shows Failed to delete sheet and keeps the item', async () => {
    const { actions } = await renderForDelete(
      ({ root }) => root,
      (req, res) => {
        if (req.method === 'DELETE') apiError(res, 500, 'internal_error', 'Boom');
      },
    );
    const dialog = await chooseDelete('Budget');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete sheet')).toBeInTheDocument();
    expect(screen.getByText('Budget')).toBeInTheDocument();
    expect(actions).toEqual([]);
  });

  test('Rename in the menu starts the inline rename', async () => {
    await renderForDelete(() => null);
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Plan' }));
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    expect(await screen.findByRole('menuitem', { name: 'Rename' })).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');
    const input = await screen.findByRole('textbox', { name: 'Rename Plan' });
    // The menu gives focus back as it closes: the input must keep it, not lose it and end the edit.
    await waitFor(() => expect(input).toHaveFocus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('textbox', { name: 'Rename Plan' })).toHaveFocus();
  });
});

test("a group's menu adds a group and a sheet inside it; a sheet's menu offers Rename, favorites, Duplicate, Move to..., Share... and Delete", async () => {
  const g = group('Projects');
  const data: GroupTree = { groups: [{ group: g, children: [], sheets: [] }], sheets: [sheet({ name: 'Budget' })] };
  const bodies: unknown[] = [];
  api = await startApi((req, res, body) => {
    if (req.method === 'GET') return json(res, 200, data);
    bodies.push(body);
    if (req.url === '/api/v1/groups') {
      const created = group('New Group', g.id);
      data.groups[0].children.push({ group: created, children: [], sheets: [] });
      return json(res, 201, created);
    }
    const created = sheet({ name: 'New Sheet', group_id: g.id }, 0, 0);
    data.groups[0].sheets.push(created);
    json(res, 201, { ...created, data: [] });
  });
  renderInShell(<Navigator shell={shellFor(api.url)} />);
  await tree();

  const choose = async (item: string) => {
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Projects' }));
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    await userEvent.keyboard(item === 'Add Group' ? '{ArrowDown}{ArrowDown}' : '{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(await screen.findByRole('menuitem', { name: item })).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');
  };
  await choose('Add Group');
  const folder = screen.getByTestId(`group-${g.id}`);
  expect(await within(folder).findByRole('button', { name: /^New Group/ })).toBeInTheDocument();
  await choose('Add Sheet');
  expect(await within(folder).findByText('New Sheet')).toBeInTheDocument();
  expect(bodies).toEqual([{ parent_id: g.id }, { group_id: g.id }]);
  expect(within(folder).getAllByTestId('group-badge')[0]).toHaveTextContent(/^2$/);

  await userEvent.click(screen.getByRole('button', { name: 'Actions for Budget' }));
  await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
  expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Rename', 'Add to Favorites', 'Duplicate', 'Move to...', 'Share...', 'Delete']);
});

test('Add to Favorites toggles the sheet and the menu then offers Remove from Favorites; a failure says so', async () => {
  const budget = sheet({ name: 'Budget' });
  const data: GroupTree = { groups: [], sheets: [budget] };
  let fail = false;
  api = await startApi((req, res) => {
    if (req.method === 'GET') return json(res, 200, data);
    if (fail) return apiError(res, 500, 'internal_error', 'Boom');
    budget.is_favorite = !budget.is_favorite;
    json(res, 200, { sheet_id: budget.id, is_favorite: budget.is_favorite });
  });
  renderInShell(<Navigator shell={shellFor(api.url)} />);
  await tree();
  const choose = async (item: string) => {
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Budget' }));
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(await screen.findByRole('menuitem', { name: item })).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');
  };
  await choose('Add to Favorites');
  await waitFor(() => expect(api?.calls).toContain(`POST /api/v1/sheets/${budget.id}/favorite`));
  await waitFor(() => expect(api?.calls.filter((c) => c.startsWith('GET'))).toHaveLength(2));
  fail = true;
  await choose('Remove from Favorites');
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to toggle favorite');
});
