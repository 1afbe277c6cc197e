import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type AuthUser } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { closeAllLoopbackServers, json, startLoopbackServer as startApi } from '@tessera/jest-react/loopback';
import MembersPanel from './MembersPanel.js';

const me: AuthUser = { id: 'u-1', username: 'alice', role: 'admin' };
afterEach(closeAllLoopbackServers);

test('lists the users of GET /api/v1/users and tags the current user (You)', async () => {
  const paths: string[] = [];
  const api = await startApi((req, res) => {
    paths.push(req.url ?? '');
    json(res, 200, [
      { id: 'u-1', username: 'alice', role: 'admin', email: 'alice@example.com', nickname: 'Al' },
      { id: 'u-2', username: 'bob', role: 'user', email: null, nickname: null },
    ]);
  });
  renderInShell(<MembersPanel shell={createDevShellContext({ apiBaseURL: api.url, user: me })} />);

  expect(screen.getByRole('heading', { name: 'Members' })).toBeInTheDocument();
  const table = await screen.findByRole('table');
  const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
  expect(headers).toEqual(['Username', 'Role', 'Nickname', 'Email', 'Actions']);

  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(2);
  expect(within(rows[0]).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual([
    'alice(You)',
    'admin',
    'Al',
    'alice@example.com',
  ]);
  expect(within(rows[1]).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['bob', 'user', '', '']);
  expect(screen.getAllByText('(You)')).toHaveLength(1);
  expect(paths).toEqual(['/api/v1/users']);
});

test('shows the loading state until the reply arrives', async () => {
  let release: (() => void) | undefined;
  const api = await startApi((_req, res) => {
    release = () => json(res, 200, []);
  });
  renderInShell(<MembersPanel shell={createDevShellContext({ apiBaseURL: api.url, user: me })} />);
  expect(screen.getByRole('status')).toHaveTextContent('Loading members...');
  // The request is held by the server: the panel stays in its loading state meanwhile.
  await waitFor(() => expect(release).toBeDefined());
  expect(screen.getByRole('status')).toHaveTextContent('Loading members...');
  release?.();
  expect(await screen.findByRole('table')).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});

test('a 500 shows the error state with the api message, and Retry loads again', async () => {
  let calls = 0;
  const api = await startApi((_req, res) => {
    calls += 1;
    if (calls === 1) json(res, 500, { error: { code: 'internal_error', message: 'Database unavailable' } });
    else json(res, 200, [{ id: 'u-1', username: 'alice', role: 'admin' }]);
  });
  renderInShell(<MembersPanel shell={createDevShellContext({ apiBaseURL: api.url, user: me })} />);

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Could not load members');
  expect(alert).toHaveTextContent('Database unavailable');
  expect(screen.queryByRole('table')).not.toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('table')).toBeInTheDocument();
  expect(calls).toBe(2);
});

test('a reply that does not match the users schema is an error, not a table', async () => {
  const api = await startApi((_req, res) => json(res, 200, [{ id: 'u-1' }]));
  renderInShell(<MembersPanel shell={createDevShellContext({ apiBaseURL: api.url, user: me })} />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not load members');
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
});
