import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type EventMap } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { startFakeApi, type FakeApi } from '../test-support/fake-api.js';
import AccountSettings from './AccountSettings.js';

// Each test walks several dialogs and menus over real HTTP: generous under a loaded machine.
jest.setTimeout(30_000);

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function renderSettings() {
  api = await startFakeApi([
    { id: 'u-1', username: 'alice', role: 'admin', email: null, nickname: null },
    { id: 'u-2', username: 'bob', role: 'user', email: 'bob@example.com', nickname: 'Bobby' },
  ]);
  const shell = createDevShellContext({ apiBaseURL: api.url, user: { id: 'u-2', username: 'bob', role: 'user' } });
  const announced: EventMap['profile-updated'][] = [];
  shell.bus.on('profile-updated', (p) => announced.push(p));
  renderInShell(<AccountSettings shell={shell} />);
  await screen.findByRole('form', { name: 'Profile' });
  // The API tokens section loads too: settled before the test ends and the api closes.
  await screen.findByText('No API tokens yet.');
  return { api, announced };
}

test("shows one's own nickname and email from the server", async () => {
  await renderSettings();
  expect(screen.getByRole('heading', { name: 'Account Settings' })).toBeInTheDocument();
  expect(screen.getByTestId('account-identity')).toHaveTextContent('bob · user');
  expect(screen.getByRole('textbox', { name: 'Nickname' })).toHaveValue('Bobby');
  expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('bob@example.com');
});

test('Save sends only the non-empty fields to PUT /users/{own id} and announces the new profile', async () => {
  const { api, announced } = await renderSettings();
  const nickname = screen.getByRole('textbox', { name: 'Nickname' });
  await userEvent.clear(nickname);
  await userEvent.type(nickname, 'Robert');
  await userEvent.clear(screen.getByRole('textbox', { name: 'Email' }));
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Profile saved');
  expect(api.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/v1/users/u-2', body: { nickname: 'Robert' } });
  expect(announced).toEqual([{ userId: 'u-2', nickname: 'Robert', email: 'bob@example.com' }]);
});

test('a refused save says Update failed', async () => {
  const { api } = await renderSettings();
  api.failNext('PUT', 400, 'Email must be a valid email address');
  await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'x');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Update failed');
  expect(alert).toHaveTextContent('Email must be a valid email address');
});

test('Change Password asks for the current and the new password and posts them', async () => {
  const { api } = await renderSettings();
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  const submit = within(dialog).getByRole('button', { name: 'Submit' });
  expect(submit).toBeDisabled();
  await userEvent.type(within(dialog).getByLabelText(/Current password/), 'old password');
  await userEvent.type(within(dialog).getByLabelText(/New password/), 'new password!');
  await userEvent.click(submit);
  expect(await screen.findByRole('status')).toHaveTextContent('Password updated');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(api.calls.find((c) => c.path === '/api/v1/auth/change-password')?.body).toEqual({
    old_password: 'old password',
    new_password: 'new password!',
  });
});
