import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACTIVITY_KINDS, type ActivityEntry, type ActivityKind, createDevShellContext, type ShellUser, type User } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import MembersPanel from '../members-panel/MembersPanel.js';
import { startFakeApi, type FakeApi } from '../test-support/fake-api.js';

// The member filter is sent as a uuid (the api validates it): the members have real-looking ids.
const ALICE_ID = '00000000-0000-4000-8000-00000000000a';
const BOB_ID = '00000000-0000-4000-8000-00000000000b';
const BUDGET = '11111111-1111-4111-8111-111111111111';
const FINANCE = '22222222-2222-4222-8222-222222222222';
const USERS: User[] = [
  { id: ALICE_ID, username: 'alice', role: 'admin', email: null, nickname: null },
  { id: BOB_ID, username: 'bob', role: 'user', email: null, nickname: null },
];
const ALICE: ShellUser = { id: ALICE_ID, username: 'alice', role: 'admin' };

// Each test walks the screen over real HTTP: generous under a loaded machine.
jest.setTimeout(60_000);

function entry(id: number, kind: ActivityKind, over: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    id: String(id),
    at: new Date(Date.UTC(2026, 10, 20, 9, id)).toISOString(),
    actor: { id: ALICE_ID, username: 'alice' },
    kind,
    item: { type: 'sheet', id: BUDGET, name: 'Budget' },
    detail: {},
    address: '10.0.0.7',
    ...over,
  };
}

const LOG: ActivityEntry[] = [
  entry(1, 'sheet_deleted', { actor: { id: BOB_ID, username: 'bob' }, address: '10.0.0.9' }),
  entry(2, 'item_restored'),
  entry(3, 'access_changed', {
    item: { type: 'group', id: FINANCE, name: 'Finance' },
    detail: { before: [{ user_id: null, level: 'editor' }], after: [{ user_id: BOB_ID, level: 'viewer' }, { user_id: null, level: 'none' }] },
  }),
];

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The members panel of `me`, over a real loopback server holding `log`; admins then open Activity. */
async function openActivity(log: ActivityEntry[], me: ShellUser = ALICE) {
  api = await startFakeApi(USERS, log);
  const shell = createDevShellContext({ apiBaseURL: api.url, user: me });
  shell.presence = { onSheet: [], online: [] };
  renderInShell(<MembersPanel shell={shell} />);
  await screen.findByTestId('member-row-bob');
  await userEvent.click(screen.getByRole('button', { name: 'Activity' }));
  return api;
}

const activityCalls = () => api!.calls.filter((c) => c.path.startsWith('/api/v1/activity')).map((c) => c.path);
const rowIds = () => screen.queryAllByTestId(/^activity-row-/).map((r) => r.getAttribute('data-testid')!.replace('activity-row-', ''));
const cells = (id: string) => within(screen.getByTestId(`activity-row-${id}`)).getAllByRole('cell').map((c) => c.textContent);

test('only admin-like members get the Activity button', async () => {
  for (const role of ['user', 'host', 'superadmin'] as const) {
    api = await startFakeApi(USERS, LOG);
    const shell = createDevShellContext({ apiBaseURL: api.url, user: { id: BOB_ID, username: 'bob', role } });
    const { unmount } = renderInShell(<MembersPanel shell={shell} />);
    await screen.findByTestId('member-row-bob');
    if (role === 'user') expect(screen.queryByRole('button', { name: 'Activity' })).not.toBeInTheDocument();
    else expect(screen.getByRole('button', { name: 'Activity' })).toBeInTheDocument();
    unmount();
    await api.close();
    api = undefined;
  }
});

test('the table: newest first, local time, who, what, the item with its type, the address', async () => {
  await openActivity(LOG);
  await screen.findByTestId('activity-row-3');
  expect(activityCalls()).toEqual(['/api/v1/activity']);
  expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['When', 'Who', 'What', 'Item', 'Address', 'Details']);
  expect(rowIds()).toEqual(['3', '2', '1']);
  expect(cells('1').slice(0, 5)).toEqual([new Date(LOG[0].at).toLocaleString(), 'bob', 'Deleted sheet', 'Budget (sheet)', '10.0.0.9']);
  expect(cells('3').slice(0, 5)).toEqual([new Date(LOG[2].at).toLocaleString(), 'alice', 'Changed sharing', 'Finance (group)', '10.0.0.7']);
  // No details to show: no expander.
  expect(within(screen.getByTestId('activity-row-2')).queryByRole('button', { name: 'Details' })).not.toBeInTheDocument();
});

test('the details expander shows a sharing change in words, members named', async () => {
  await openActivity(LOG);
  const details = await within(await screen.findByTestId('activity-row-3')).findByRole('button', { name: 'Details' });
  expect(details).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(details);
  const shown = screen.getByTestId('activity-detail-3');
  expect(shown).toHaveTextContent('BeforeEveryone in the workspace: editor');
  expect(shown).toHaveTextContent('Afterbob: viewer, Everyone in the workspace: none');
  await userEvent.click(within(screen.getByTestId('activity-row-3')).getByRole('button', { name: 'Hide details' }));
  expect(screen.queryByTestId('activity-detail-3')).not.toBeInTheDocument();
});

test('every kind has the label the issue names', async () => {
  await openActivity(ACTIVITY_KINDS.map((kind, i) => entry(i + 1, kind)));
  await screen.findByTestId('activity-row-1');
  const labels = rowIds()
    .reverse()
    .map((id) => cells(id)[2]);
  expect(labels).toEqual([
    'Deleted sheet',
    'Deleted group',
    'Restored',
    'Deleted forever',
    'Pruned history',
    'Discarded version',
    'Changed sharing',
    'Changed role',
    'Reset password',
    'Created member',
    'Deleted member',
    'Reverted git commit',
  ]);
});

test('filters: member, kind and item send the query, show what matches; Clear filters shows all', async () => {
  await openActivity(LOG);
  await screen.findByTestId('activity-row-3');

  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Member' }), 'bob');
  await waitFor(() => expect(rowIds()).toEqual(['1']));
  expect(activityCalls().at(-1)).toBe(`/api/v1/activity?user_id=${BOB_ID}`);

  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Restored');
  await screen.findByText('No activity matches these filters');
  expect(activityCalls().at(-1)).toBe(`/api/v1/activity?user_id=${BOB_ID}&kind=item_restored`);

  await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
  await waitFor(() => expect(rowIds()).toEqual(['3', '2', '1']));
  expect(activityCalls().at(-1)).toBe('/api/v1/activity');

  await userEvent.type(screen.getByRole('textbox', { name: 'Item id' }), `${FINANCE}{Enter}`);
  await waitFor(() => expect(rowIds()).toEqual(['3']));
  expect(activityCalls().at(-1)).toBe(`/api/v1/activity?item_id=${FINANCE}`);

  await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
  await waitFor(() => expect(rowIds()).toEqual(['3', '2', '1']));
  // Clicking an item in a row filters by it.
  await userEvent.click(within(screen.getByTestId('activity-row-1')).getByRole('button', { name: 'Budget' }));
  await waitFor(() => expect(rowIds()).toEqual(['2', '1']));
  expect(activityCalls().at(-1)).toBe(`/api/v1/activity?item_id=${BUDGET}`);
  expect(screen.getByRole('textbox', { name: 'Item id' })).toHaveValue(BUDGET);
});

test('Load more fetches older pages with next_before until the last', async () => {
  // The api's page is 50 (ACTIVITY_PAGE_SIZE): 60 entries make two pages.
  await openActivity(Array.from({ length: 60 }, (_, i) => entry(i + 1, 'sheet_deleted')));
  await screen.findByTestId('activity-row-60');
  expect(rowIds()).toHaveLength(50);
  expect(rowIds().at(-1)).toBe('11');
  await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
  await screen.findByTestId('activity-row-1');
  expect(activityCalls()).toEqual(['/api/v1/activity', '/api/v1/activity?before=11']);
  expect(rowIds().map(Number)).toEqual(Array.from({ length: 60 }, (_, i) => 60 - i));
  expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
});

test("empty log, the server's refusal, Retry, and Back to members", async () => {
  const fake = await openActivity([]);
  await screen.findByText('No activity yet');
  expect(screen.queryByRole('table')).not.toBeInTheDocument();

  fake.failNext('GET', 403, 'Only admins can see the activity log', '/api/v1/activity');
  fake.activity.push(entry(1, 'member_created', { item: { type: 'user', id: BOB_ID, name: 'bob' } }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Created member');
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Could not load activity');
  expect(alert).toHaveTextContent('Only admins can see the activity log');
  await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
  await screen.findByTestId('activity-row-1');
  expect(cells('1').slice(2, 4)).toEqual(['Created member', 'bob (member)']);
  expect(activityCalls().at(-1)).toBe('/api/v1/activity?kind=member_created');

  await userEvent.click(screen.getByRole('button', { name: 'Back to members' }));
  expect(await screen.findByTestId('member-row-bob')).toBeInTheDocument();
});
