import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API_TOKEN_PATTERN, API_TOKEN_TEXTS, API_TOKENS_PATH, createDevShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { startFakeApi, type FakeApi } from '../test-support/fake-api.js';
import AccountSettings from './AccountSettings.js';

// Dialogs and a real HTTP api on a loaded machine.
jest.setTimeout(30_000);

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function renderSettings(prepare: (api: FakeApi) => void = () => {}) {
  api = await startFakeApi([{ id: 'u-2', username: 'bob', role: 'user', email: null, nickname: null }]);
  prepare(api);
  const shell = createDevShellContext({ apiBaseURL: api.url, user: { id: 'u-2', username: 'bob', role: 'user' } });
  renderInShell(<AccountSettings shell={shell} />);
  await screen.findByRole('heading', { name: 'API tokens' });
  return api;
}

test('create: name, expiry and scope are sent; the token is shown once with a copy button, then only its start is listed', async () => {
  const writeText = jest.fn().mockResolvedValue(undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  const api = await renderSettings();
  expect(await screen.findByText('No API tokens yet.')).toBeInTheDocument();
  const create = screen.getByRole('button', { name: 'Create token' });
  expect(create).toBeDisabled();
  await userEvent.type(screen.getByRole('textbox', { name: 'Token name' }), 'nightly export');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Expires in' }), '90 days');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Scope' }), 'Read and write');
  await userEvent.click(create);

  const shown = await screen.findByRole('status', { name: 'New API token' });
  expect(shown).toHaveTextContent('Copy your new token now: it will not be shown again.');
  const token = (within(shown).getByRole('textbox', { name: 'New token' }) as HTMLInputElement).value;
  expect(token).toMatch(API_TOKEN_PATTERN);
  expect(api.calls.find((c) => c.method === 'POST' && c.path === API_TOKENS_PATH)?.body).toEqual({
    name: 'nightly export',
    scope: 'read-write',
    expires_in_days: 90,
  });
  await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
  expect(writeText).toHaveBeenCalledWith(token);
  expect(within(shown).getByRole('button', { name: 'Copied' })).toBeInTheDocument();

  const item = await screen.findByRole('listitem', { name: 'nightly export' });
  expect(item).toHaveTextContent('read-write');
  expect(item).toHaveTextContent(`${token.slice(0, 16)}…`);
  expect(item).toHaveTextContent('last used never');
  await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
  await waitFor(() => expect(screen.queryByRole('status', { name: 'New API token' })).not.toBeInTheDocument());
  expect(document.body.textContent).not.toContain(token.slice(17));
});

test('the list shows when each token was last used', async () => {
  await renderSettings((api) => {
    api.apiTokens.push({
      id: '00000000-0000-4000-8000-00000000000a',
      name: 'report bot',
      prefix: 'tsr_00000000000a',
      scope: 'read',
      created_at: new Date(Date.now() - 86_400_000).toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      last_used_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      revoked_at: null,
    });
  });
  const item = await screen.findByRole('listitem', { name: 'report bot' });
  expect(item).toHaveTextContent('read only');
  expect(item).toHaveTextContent('last used 5m ago');
});

test('revoke asks first: Cancel changes nothing, Revoke revokes it at the api and the list says so', async () => {
  const api = await renderSettings((api) => {
    api.apiTokens.push({
      id: '00000000-0000-4000-8000-00000000000b',
      name: 'old script',
      prefix: 'tsr_00000000000b',
      scope: 'read-write',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      last_used_at: null,
      revoked_at: null,
    });
  });
  const item = await screen.findByRole('listitem', { name: 'old script' });
  await userEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
  let dialog = await screen.findByRole('alertdialog', { name: 'Revoke API token?' });
  expect(dialog).toHaveTextContent('Scripts using “old script” stop working at once.');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

  await userEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
  dialog = await screen.findByRole('alertdialog', { name: 'Revoke API token?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
  await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'old script' })).getByText('revoked')).toBeInTheDocument());
  expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${API_TOKENS_PATH}/00000000-0000-4000-8000-00000000000b`]);
  expect(within(screen.getByRole('listitem', { name: 'old script' })).queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
});

test("a refused create shows the api's reason and shows no token", async () => {
  const api = await renderSettings();
  api.failNext('POST', 409, API_TOKEN_TEXTS.tooMany, API_TOKENS_PATH);
  await userEvent.type(screen.getByRole('textbox', { name: 'Token name' }), 'one too many');
  await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(API_TOKEN_TEXTS.tooMany);
  expect(screen.queryByRole('status', { name: 'New API token' })).not.toBeInTheDocument();
});
