import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TEXTS, UpdateSharingBodySchema, type AccessLevel, type GroupTree, type ShareEntry, type SharingRow, type SharingState, type User } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import Navigator from '../navigator/Navigator.js';
import { apiError, group, json, sheet, startApi, testShell, uuid, type TestApi } from '../navigator/navigator-test-api.js';
import { chooseMenuItem } from '../navigator/navigator-test-ui.js';
import { EMPTY_TREE, useSheetTree } from '../navigator/sheet-tree.store.js';

jest.setTimeout(20_000);

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

const [ALICE, BOB, CAROL] = [uuid(), uuid(), uuid()];
const members: User[] = [
  { id: ALICE, username: 'alice', role: 'user' },
  { id: BOB, username: 'bob', role: 'user' },
  { id: CAROL, username: 'carol', role: 'user' },
];
const nameOf = (id: string | null) => members.find((m) => m.id === id)?.username ?? null;

/**
 * The group Finance holding the sheet Budget, with the api's sharing routes over grants held
 * here: GET answers direct rows then the group's (inherited), PUT validates with the contracts'
 * schema, replaces the item's grants whole and refuses to leave alice without ownership.
 */
async function renderWorkspace(options: { aliceLevel?: AccessLevel } = {}) {
  const finance = { ...group('Finance'), access: options.aliceLevel ?? 'owner' };
  const budget = sheet({ name: 'Budget', group_id: finance.id, access: options.aliceLevel ?? 'owner' });
  const tree: GroupTree = { groups: [{ group: finance, children: [], sheets: [budget] }], sheets: [] };
  const grants = new Map<string, ShareEntry[]>([
    [finance.id, [{ user_id: null, level: 'viewer' }, { user_id: BOB, level: 'editor' }]],
    [budget.id, [{ user_id: ALICE, level: options.aliceLevel ?? 'owner' }]],
  ]);
  const puts: { path: string; body: unknown }[] = [];
  const rowsOf = (id: string, from: SharingRow['inherited_from']): SharingRow[] =>
    (grants.get(id) ?? []).map((g) => ({ user_id: g.user_id, username: nameOf(g.user_id), level: g.level, inherited_from: from }));
  const state = (type: 'sheet' | 'group'): SharingState => {
    const item = type === 'sheet' ? budget : finance;
    const rows = type === 'sheet' ? [...rowsOf(budget.id, null), ...rowsOf(finance.id, { id: finance.id, name: 'Finance' })] : rowsOf(finance.id, null);
    return { item: { type, id: item.id, name: item.name }, access: options.aliceLevel ?? 'owner', rows, workspace_default: 'editor' };
  };
  api = await startApi((req, res, body) => {
    const access = /^\/api\/v1\/(sheets|groups)\/([^/]+)\/access$/.exec(req.url ?? '');
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, tree);
    if (req.method === 'GET' && req.url === '/api/v1/users') return json(res, 200, members);
    if (access) {
      const type = access[1] === 'sheets' ? 'sheet' : 'group';
      if (req.method === 'GET') return json(res, 200, state(type));
      if (req.method === 'PUT') {
        puts.push({ path: req.url!, body });
        if ((options.aliceLevel ?? 'owner') !== 'owner') return apiError(res, 403, 'forbidden', ACCESS_TEXTS.ownersOnly);
        const parsed = UpdateSharingBodySchema.safeParse(body);
        if (!parsed.success) return apiError(res, 400, 'validation_failed', parsed.error.issues[0]!.message);
        if (!parsed.data.entries.some((e) => e.user_id === ALICE && e.level === 'owner')) return apiError(res, 400, 'bad_request', ACCESS_TEXTS.keepOwnOwnership);
        grants.set(access[2]!, parsed.data.entries);
        return json(res, 200, state(type));
      }
    }
    apiError(res, 404, 'not_found', 'Not found');
  });
  const shell = testShell(api.url);
  shell.user = { id: ALICE, username: 'alice', role: 'user' };
  renderInShell(<Navigator shell={shell} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
  return { finance, budget, grants, puts, calls: api.calls };
}

const dialog = () => screen.findByTestId('sharing-dialog');
const row = (list: string, name: string) => within(within(screen.getByTestId('sharing-dialog')).getByRole('list', { name: list })).getByRole('listitem', { name });

test("Share... from a sheet's menu: Everyone, the members with their levels, and who has it through its group 'from Finance'", async () => {
  await renderWorkspace();
  await chooseMenuItem('Actions for Budget', 'Share...');
  const shown = await dialog();
  expect(within(shown).getByRole('heading')).toHaveTextContent('Share “Budget”');

  // Everyone has no grant on the sheet itself: it inherits the group's Viewer.
  await waitFor(() => expect(within(shown).getByRole('combobox', { name: 'Level for Everyone in the workspace' })).toHaveValue('inherit'));
  expect(within(shown).getByRole('option', { name: 'Inherit (Viewer from Finance)' })).toBeInTheDocument();
  expect(within(row('People with access', 'alice (you)')).getByRole('combobox', { name: 'Level for alice' })).toHaveValue('owner');

  // Inherited rows are read-only: no select, the level and the group it comes from.
  const bob = row('Through parent groups', 'bob');
  expect(bob).toHaveTextContent('Editor');
  expect(bob).toHaveTextContent('from Finance');
  expect(within(bob).queryByRole('combobox')).not.toBeInTheDocument();
  expect(row('Through parent groups', 'Everyone in the workspace')).toHaveTextContent('Viewer' + 'from Finance');
});

test('an owner sets Everyone, adds a member and changes their level: Save sends the direct grants whole (PUT) and closes', async () => {
  const { budget, grants, puts } = await renderWorkspace();
  await chooseMenuItem('Actions for Budget', 'Share...');
  const shown = await dialog();
  const everyone = await within(shown).findByRole('combobox', { name: 'Level for Everyone in the workspace' });
  await userEvent.selectOptions(everyone, 'No access');

  const add = await within(shown).findByRole('combobox', { name: 'Add a member' });
  // Only members without a direct row here can be added.
  await waitFor(() => expect(within(add).getByRole('option', { name: 'carol' })).toBeInTheDocument());
  expect(within(add).queryByRole('option', { name: 'alice' })).not.toBeInTheDocument();
  await userEvent.selectOptions(add, 'carol');
  const carol = within(row('People with access', 'carol')).getByRole('combobox', { name: 'Level for carol' });
  expect(carol).toHaveValue('viewer');
  await userEvent.selectOptions(carol, 'Editor');

  await userEvent.click(within(shown).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(screen.queryByTestId('sharing-dialog')).not.toBeInTheDocument());
  expect(puts).toEqual([
    {
      path: `/api/v1/sheets/${budget.id}/access`,
      body: {
        entries: [
          { user_id: null, level: 'none' },
          { user_id: ALICE, level: 'owner' },
          { user_id: CAROL, level: 'editor' },
        ],
      },
    },
  ]);
  expect(grants.get(budget.id)).toHaveLength(3);
});

test("removing a row sends the grants without it; the server's refusal shows with its text and changes nothing", async () => {
  const { budget, grants, puts } = await renderWorkspace();
  await chooseMenuItem('Actions for Budget', 'Share...');
  const shown = await dialog();
  await userEvent.click(await within(shown).findByRole('button', { name: 'Remove alice' }));
  expect(within(within(shown).getByRole('list', { name: 'People with access' })).queryByRole('listitem', { name: 'alice (you)' })).not.toBeInTheDocument();

  await userEvent.click(within(shown).getByRole('button', { name: 'Save' }));
  expect(await within(shown).findByRole('alert')).toHaveTextContent(ACCESS_TEXTS.keepOwnOwnership);
  expect(puts.map((p) => p.body)).toEqual([{ entries: [] }]);
  expect(grants.get(budget.id)).toEqual([{ user_id: ALICE, level: 'owner' }]);
  expect(screen.getByTestId('sharing-dialog')).toBeInTheDocument();
});

test("from a group's menu, a member who is not an owner sees the rows read-only: no add, no remove, no Save, nothing sent", async () => {
  const { finance, calls, puts } = await renderWorkspace({ aliceLevel: 'editor' });
  await chooseMenuItem('Actions for Finance', 'Share...');
  const shown = await dialog();
  expect(await within(shown).findByText('Only owners can change who has access.')).toBeInTheDocument();
  expect(within(shown).getByRole('combobox', { name: 'Level for Everyone in the workspace' })).toBeDisabled();
  expect(within(shown).getByRole('combobox', { name: 'Level for bob' })).toBeDisabled();
  expect(within(shown).queryByRole('combobox', { name: 'Add a member' })).not.toBeInTheDocument();
  expect(within(shown).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  expect(within(shown).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

  await userEvent.click(within(shown).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByTestId('sharing-dialog')).not.toBeInTheDocument());
  expect(calls).toContain(`GET /api/v1/groups/${finance.id}/access`);
  expect(calls).not.toContain('GET /api/v1/users');
  expect(puts).toEqual([]);
});
