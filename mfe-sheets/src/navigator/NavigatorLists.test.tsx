import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GroupTree, SheetSummary } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import type { ServerResponse } from 'node:http';
import Navigator from './Navigator.js';
import { apiError, group, json, sheet, startApi, testShell, type TestApi } from './navigator-test-api.js';
import { chooseMenuItem } from './navigator-test-ui.js';
import { EMPTY_TREE, useSheetTree } from './sheet-tree.store.js';

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

const DAY = 24 * 60 * 60 * 1000;
const lists = (calls: string[]) => calls.filter((c) => c.startsWith('GET /api/v1/sheets'));

/** A workspace of a group holding 'Plan' and two root sheets, 'Budget' (a favorite, edited yesterday) and 'Notes'. */
function workspace() {
  const projects = group('Projects');
  const plan = sheet({ name: 'Plan', group_id: projects.id }, 30, 6);
  const budget = sheet({ name: 'Budget', is_favorite: true, updated_at: new Date(Date.now() - DAY).toISOString() }, 12, 3);
  const notes = sheet({ name: 'Notes' }, 5, 2);
  const tree: GroupTree = { groups: [{ group: projects, children: [], sheets: [plan] }], sheets: [budget, notes] };
  return { tree, projects, plan, budget, notes, all: [plan, budget, notes] };
}

type ListReply = (res: ServerResponse, query: URLSearchParams) => void;

/** The api of `workspace()`: the tree, the sheet list (favorites, recent and search as the server answers them), the favorite toggle. */
async function workspaceApi(w: ReturnType<typeof workspace>, onList?: ListReply) {
  api = await startApi((req, res) => {
    const url = new URL(req.url ?? '', 'http://x');
    if (req.method === 'GET' && url.pathname === '/api/v1/groups/tree') return json(res, 200, w.tree);
    if (req.method === 'GET' && url.pathname === '/api/v1/sheets') {
      if (onList) return onList(res, url.searchParams);
      const q = url.searchParams;
      let sheets: SheetSummary[] = w.all;
      if (q.get('favorites') === 'true') sheets = sheets.filter((s) => s.is_favorite);
      const search = q.get('search');
      if (search) sheets = sheets.filter((s) => s.name.toLowerCase().includes(search.toLowerCase()));
      if (q.get('sort') === 'updated_at') sheets = [...sheets].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
      return json(res, 200, { sheets, count: sheets.length });
    }
    const favorite = /^\/api\/v1\/sheets\/([^/]+)\/favorite$/.exec(url.pathname);
    if (req.method === 'POST' && favorite) {
      const s = w.all.find((x) => x.id === favorite[1]);
      if (!s) return apiError(res, 404, 'not_found', 'Sheet not found');
      s.is_favorite = !s.is_favorite;
      return json(res, 200, { sheet_id: s.id, is_favorite: s.is_favorite });
    }
    apiError(res, 404, 'not_found', 'Not found');
  });
  return api;
}

async function renderNavigator(w: ReturnType<typeof workspace>, onList?: ListReply, searchDebounceMs?: number) {
  const { url, calls } = await workspaceApi(w, onList);
  const actions: string[] = [];
  renderInShell(<Navigator shell={testShell(url, actions)} searchDebounceMs={searchDebounceMs} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
  return { calls, actions };
}

describe('the filter menu', () => {
  test('Recent lists the 10 last updated sheets flat, with their sizes, dots and menus; All Sheets shows the tree again', async () => {
    const w = workspace();
    const { calls, actions } = await renderNavigator(w);
    expect(screen.getByRole('button', { name: 'Filter: All Sheets' })).toBeInTheDocument();

    await chooseMenuItem('Filter: All Sheets', 'Recent', 'menuitemradio');
    const recent = await screen.findByRole('list', { name: 'Recent' });
    expect(lists(calls)).toEqual(['GET /api/v1/sheets?limit=10&sort=updated_at&order=desc']);
    expect(screen.queryByRole('list', { name: 'Sheet tree' })).not.toBeInTheDocument();
    // Flat: the sheet of the group sits beside the root ones, newest first; no group rows.
    const rows = within(recent).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual([`sheet-${w.budget.id}`, `sheet-${w.plan.id}`, `sheet-${w.notes.id}`]);
    expect(within(recent).queryByText('Projects')).not.toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('12 rows • 3 cols');
    expect(within(rows[0]).getByRole('img', { name: 'Updated recently' })).toBeInTheDocument();
    expect(within(rows[1]).queryByRole('img', { name: 'Updated recently' })).not.toBeInTheDocument();
    expect(within(rows[0]).getByRole('button', { name: 'Actions for Budget' })).toBeInTheDocument();
    await userEvent.click(within(rows[1]).getByRole('button', { name: /^Plan/ }));
    expect(actions).toEqual([`open sheet ${w.plan.id}`]);

    await chooseMenuItem('Filter: Recent', 'All Sheets', 'menuitemradio');
    expect(await screen.findByRole('list', { name: 'Sheet tree' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recent' })).not.toBeInTheDocument();
  });

  test('Favorites lists the favorite sheets; removing one from favorites there takes it off the list', async () => {
    const w = workspace();
    const { calls } = await renderNavigator(w);
    await chooseMenuItem('Filter: All Sheets', 'Favorites', 'menuitemradio');
    const favorites = await screen.findByRole('list', { name: 'Favorites' });
    expect(lists(calls)).toEqual(['GET /api/v1/sheets?favorites=true']);
    expect(within(favorites).getAllByRole('listitem')).toHaveLength(1);
    expect(favorites).toHaveTextContent('Budget');

    await chooseMenuItem('Actions for Budget', 'Remove from Favorites');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Favorites' })).not.toBeInTheDocument());
    expect(screen.getByText('No Sheets Found')).toBeInTheDocument();
    expect(calls).toContain(`POST /api/v1/sheets/${w.budget.id}/favorite`);
    expect(lists(calls)).toEqual(['GET /api/v1/sheets?favorites=true', 'GET /api/v1/sheets?favorites=true']);
    // The footer still counts the whole workspace.
    expect(screen.getByTestId('navigator-footer')).toHaveTextContent('3 sheets • 1 groups');
  });

  test("switching from Favorites to Recent never shows the favorites as Recent while Recent loads", async () => {
    const w = workspace();
    let release: (() => void) | undefined;
    await renderNavigator(w, (res, q) => {
      if (q.get('favorites') === 'true') return json(res, 200, { sheets: [w.budget], count: 1 });
      release = () => json(res, 200, { sheets: [w.notes], count: 1 });
    });
    await chooseMenuItem('Filter: All Sheets', 'Favorites', 'menuitemradio');
    expect(await screen.findByRole('list', { name: 'Favorites' })).toHaveTextContent('Budget');
    await chooseMenuItem('Filter: Favorites', 'Recent', 'menuitemradio');
    await waitFor(() => expect(release).toBeDefined());
    expect(screen.queryByRole('list', { name: 'Recent' })).not.toBeInTheDocument();
    expect(screen.queryByText('Budget')).not.toBeInTheDocument();
    release?.();
    expect(await screen.findByRole('list', { name: 'Recent' })).toHaveTextContent('Notes');
  });

  test("a filter list that fails says Failed to load navigation data, with the service's 'Failed to list sheets: …' and no sheets", async () => {
    const w = workspace();
    await renderNavigator(w, (res) => apiError(res, 500, 'internal_error', 'Boom'));
    await chooseMenuItem('Filter: All Sheets', 'Favorites', 'menuitemradio');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load navigation data');
    expect(alert).toHaveTextContent('Failed to list sheets: Boom');
    expect(screen.queryByRole('list', { name: 'Favorites' })).not.toBeInTheDocument();
  });
});

describe("the search box 'Search sheets...'", () => {
  test('lists the matching sheets flat; clearing it returns to the tree', async () => {
    const w = workspace();
    const { calls } = await renderNavigator(w);
    const box = screen.getByRole('searchbox', { name: 'Search sheets...' });
    expect(box).toHaveAttribute('placeholder', 'Search sheets...');
    await userEvent.type(box, 'PLA');
    const results = await screen.findByRole('list', { name: 'Search results' });
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(1));
    expect(results).toHaveTextContent('Plan30 rows • 6 cols');
    expect(lists(calls).at(-1)).toBe('GET /api/v1/sheets?search=PLA');

    await userEvent.clear(box);
    expect(await screen.findByRole('list', { name: 'Sheet tree' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Search results' })).not.toBeInTheDocument();
  });

  test('searches all sheets whatever the filter, and gives the filter back when cleared', async () => {
    const w = workspace();
    const { calls } = await renderNavigator(w);
    await chooseMenuItem('Filter: All Sheets', 'Favorites', 'menuitemradio');
    await screen.findByRole('list', { name: 'Favorites' });
    const box = screen.getByRole('searchbox', { name: 'Search sheets...' });
    await userEvent.type(box, 'notes');
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(results).toHaveTextContent('Notes');
    expect(lists(calls).at(-1)).toBe('GET /api/v1/sheets?search=notes');
    await userEvent.clear(box);
    expect(await screen.findByRole('list', { name: 'Favorites' })).toHaveTextContent('Budget');
  });

  test('the newest reply wins: a slow reply to an earlier search never replaces a later one', async () => {
    const w = workspace();
    const held: (() => void)[] = [];
    const { calls } = await renderNavigator(
      w,
      (res, q) => {
        const text = q.get('search');
        const found = w.all.filter((s) => s.name.toLowerCase().includes(String(text).toLowerCase()));
        if (text === 'n') held.push(() => json(res, 200, { sheets: w.all, count: 3 }));
        else json(res, 200, { sheets: found, count: found.length });
      },
      0,
    );
    const box = screen.getByRole('searchbox', { name: 'Search sheets...' });
    await userEvent.type(box, 'n');
    await waitFor(() => expect(held).toHaveLength(1));
    await userEvent.type(box, 'o');
    const results = await screen.findByRole('list', { name: 'Search results' });
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(1));
    held[0]();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('list', { name: 'Search results' })).toHaveTextContent('Notes');
    expect(lists(calls)).toEqual(['GET /api/v1/sheets?search=n', 'GET /api/v1/sheets?search=no']);
  });

  test('a failed search says Search failed; clearing it shows the tree', async () => {
    const w = workspace();
    await renderNavigator(w, (res) => apiError(res, 500, 'internal_error', 'Boom'));
    const box = screen.getByRole('searchbox', { name: 'Search sheets...' });
    await userEvent.type(box, 'x');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search failed');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to list sheets: Boom');
    await userEvent.clear(box);
    expect(await screen.findByRole('list', { name: 'Sheet tree' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
