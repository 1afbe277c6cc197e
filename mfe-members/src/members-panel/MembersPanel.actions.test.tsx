import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type ShellUser, type User } from '@tessera/contracts';
import { closeMenu, renderInShell } from '@tessera/jest-react';
import { startFakeApi, type FakeApi } from '../test-support/fake-api.js';
import MembersPanel from './MembersPanel.js';

const USERS: User[] = [
  { id: 'u-1', username: 'alice', role: 'admin', email: 'alice@example.com', nickname: 'Al' },
  { id: 'u-2', username: 'bob', role: 'user', email: null, nickname: null },
  { id: 'u-3', username: 'hank', role: 'host', email: null, nickname: null },
  { id: 'u-4', username: 'sam', role: 'superadmin', email: null, nickname: null },
];
const ALICE: ShellUser = { id: 'u-1', username: 'alice', role: 'admin' };
const BOB: ShellUser = { id: 'u-2', username: 'bob', role: 'user' };
const HANK: ShellUser = { id: 'u-3', username: 'hank', role: 'host' };
const SAM: ShellUser = { id: 'u-4', username: 'sam', role: 'superadmin' };

// Each test walks several dialogs and menus over real HTTP: generous under a loaded machine.
jest.setTimeout(30_000);

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function renderPanel(me: ShellUser, online: string[] = []) {
  api = await startFakeApi(USERS);
  const shell = createDevShellContext({ apiBaseURL: api.url, user: me });
  shell.presence = { onSheet: [], online };
  renderInShell(<MembersPanel shell={shell} />);
  const table = await screen.findByRole('table');
  return { api, table };
}

const row = (username: string) => screen.getByTestId(`member-row-${username}`);

/** Opens a row's menu; the items, by keyboard (jsdom has no layout for pointer hover). */
async function openMenu(username: string) {
  await userEvent.click(within(row(username)).getByRole('button', { name: `Actions for ${username}` }));
  await screen.findAllByRole('menuitem');
  return screen.getAllByRole('menuitem').map((i) => i.textContent);
}

async function choose(item: string) {
  for (let i = 0; i < 6; i++) {
    await userEvent.keyboard('{ArrowDown}');
    const highlighted = screen.getAllByRole('menuitem').find((m) => m.hasAttribute('data-highlighted'));
    if (highlighted?.textContent === item) return userEvent.keyboard('{Enter}');
  }
  throw new Error(`no menu item ${item}`);
}

test('a plain user sees no Actions column, no Refresh and no Add Member', async () => {
  const { table } = await renderPanel(BOB);
  expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Username', 'Role', 'Nickname', 'Email']);
  expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Add Member' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
  expect(within(row('bob')).getByText('(You)')).toBeInTheDocument();
});

test('dots: oneself and the presence list are online (green), the rest offline; the title counts them', async () => {
  await renderPanel(ALICE, ['u-3']);
  expect(within(row('alice')).getByRole('img', { name: 'Online' })).toBeInTheDocument();
  expect(within(row('hank')).getByRole('img', { name: 'Online' })).toBeInTheDocument();
  expect(within(row('bob')).getByRole('img', { name: 'Offline' })).toBeInTheDocument();
  expect(screen.getByTestId('members-online-count')).toHaveTextContent('2 online');
});

test('the row menu: Promote hidden for host, Delete hidden for host and for oneself', async () => {
  await renderPanel(ALICE);
  expect(await openMenu('bob')).toEqual(['Edit Info', 'Change Password', 'Promote', 'Delete']);
  await closeMenu();
  expect(await openMenu('alice')).toEqual(['Edit Info', 'Change Password', 'Promote']);
  await closeMenu();
  // An admin may not edit, reset or delete a host's account (the server refuses): no menu at all.
  expect(within(row('hank')).queryByRole('button', { name: 'Actions for hank' })).not.toBeInTheDocument();
  expect(within(row('sam')).queryByRole('button', { name: 'Actions for sam' })).not.toBeInTheDocument();
});

test('the row menu offers nothing the server would refuse: no Promote on a superadmin, nothing above one\'s rank', async () => {
  await renderPanel(SAM);
  // Promote would lower a superadmin to admin: the server refuses it, so it is not offered, not even on oneself.
  expect(await openMenu('sam')).toEqual(['Edit Info', 'Change Password']);
  await closeMenu();
  expect(await openMenu('hank')).toEqual(['Edit Info', 'Change Password']);
  await closeMenu();
  expect(await openMenu('alice')).toEqual(['Edit Info', 'Change Password', 'Promote', 'Delete']);
  cleanup();
  await api?.close();
  await renderPanel(HANK);
  expect(within(row('sam')).queryByRole('button', { name: 'Actions for sam' })).not.toBeInTheDocument();
  expect(await openMenu('bob')).toEqual(['Edit Info', 'Change Password', 'Promote', 'Delete']);
});

test('Edit Info: inline inputs; Save sends only the non-empty fields, returns to view and reloads', async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('bob');
  await choose('Edit Info');
  const nickname = await within(row('bob')).findByRole('textbox', { name: 'Nickname' });
  await userEvent.type(nickname, 'Bobby');
  await userEvent.click(within(row('bob')).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(within(row('bob')).queryByRole('textbox', { name: 'Nickname' })).not.toBeInTheDocument());
  expect(api.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/v1/users/u-2', body: { nickname: 'Bobby' } });
  await waitFor(() => expect(within(row('bob')).getAllByRole('cell')[2]).toHaveTextContent('Bobby'));
  expect(api.calls.filter((c) => c.method === 'GET')).toHaveLength(2);
});

test('Edit Info: Cancel returns to view without a call; a failed Save says Update failed', async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('bob');
  await choose('Edit Info');
  await userEvent.click(await within(row('bob')).findByRole('button', { name: 'Cancel' }));
  expect(within(row('bob')).queryByRole('textbox', { name: 'Nickname' })).not.toBeInTheDocument();
  expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

  await openMenu('bob');
  await choose('Edit Info');
  await userEvent.type(await within(row('bob')).findByRole('textbox', { name: 'Email' }), 'not-an-email');
  api.failNext('PUT', 400, 'Email must be a valid email address');
  await userEvent.click(within(row('bob')).getByRole('button', { name: 'Save' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Update failed');
  expect(alert).toHaveTextContent('Email must be a valid email address');
});

test('Promote sends role admin and reloads; a refusal says Promote failed', async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('bob');
  await choose('Promote');
  await waitFor(() => expect(within(row('bob')).getAllByRole('cell')[1]).toHaveTextContent('admin'));
  expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ role: 'admin' });

  api.failNext('PUT', 403, 'A superadmin cannot be changed to admin');
  await openMenu('alice');
  await choose('Promote');
  expect(await screen.findByRole('alert')).toHaveTextContent('Promote failed');
});

test('Delete asks Delete user? in a dialog; Cancel keeps the user, Delete removes them', async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('bob');
  await choose('Delete');
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete user?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

  await openMenu('bob');
  await choose('Delete');
  await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(screen.queryByTestId('member-row-bob')).not.toBeInTheDocument());
  expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/v1/users/u-2');
});

test('a failed delete is silently ignored: no alert, the list reloads', async () => {
  const { api } = await renderPanel(ALICE);
  api.failNext('DELETE', 403, 'nope');
  await openMenu('bob');
  await choose('Delete');
  await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(api.calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(row('bob')).toBeInTheDocument();
});

test("Change Password for another user asks only the new one, sends it by PUT, says Password updated", async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('bob');
  await choose('Change Password');
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  expect(within(dialog).queryByLabelText(/Current password/)).not.toBeInTheDocument();
  const submit = within(dialog).getByRole('button', { name: 'Submit' });
  expect(submit).toBeDisabled();
  await userEvent.type(within(dialog).getByLabelText(/New password/), 'brand new password');
  expect(submit).toBeEnabled();
  await userEvent.click(submit);
  expect(await screen.findByRole('status')).toHaveTextContent('Password updated');
  expect(api.calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/v1/users/u-2', body: { password: 'brand new password' } });
});

test('Change Password for oneself needs current and new; a refusal says Password change failed', async () => {
  const { api } = await renderPanel(ALICE);
  await openMenu('alice');
  await choose('Change Password');
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  const submit = within(dialog).getByRole('button', { name: 'Submit' });
  await userEvent.type(within(dialog).getByLabelText(/New password/), 'brand new password');
  expect(submit).toBeDisabled();
  await userEvent.type(within(dialog).getByLabelText(/Current password/), 'wrong one');
  expect(submit).toBeEnabled();
  api.failNext('POST', 400, 'Current password is incorrect');
  await userEvent.click(submit);
  const alert = await within(dialog).findByRole('alert');
  expect(alert).toHaveTextContent('Password change failed');
  expect(alert).toHaveTextContent('Current password is incorrect');
  expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ old_password: 'wrong one', new_password: 'brand new password' });
});

test('Add Member: Create disabled until username and password; creates with the chosen role and reloads', async () => {
  const { api } = await renderPanel(ALICE);
  await userEvent.click(screen.getByRole('button', { name: 'Add Member' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
  const create = within(dialog).getByRole('button', { name: 'Create' });
  expect(create).toBeDisabled();
  await userEvent.type(within(dialog).getByLabelText(/Username/), 'carol');
  expect(create).toBeDisabled();
  await userEvent.type(within(dialog).getByLabelText(/Password/), 'carol password');
  expect(create).toBeEnabled();
  const role = within(dialog).getByRole('combobox');
  expect(within(role).getAllByRole('option').map((o) => o.textContent)).toEqual(['User', 'Admin']);
  await userEvent.selectOptions(role, 'admin');
  await userEvent.type(within(dialog).getByLabelText(/Nickname/), 'Caz');
  await userEvent.click(create);
  expect(await screen.findByTestId('member-row-carol')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ username: 'carol', password: 'carol password', role: 'admin', nickname: 'Caz' });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Member' })).not.toBeInTheDocument());
});

test('Add Member: a refusal says Create failed with the reason, and the dialog stays', async () => {
  const { api } = await renderPanel(ALICE);
  await userEvent.click(screen.getByRole('button', { name: 'Add Member' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
  await userEvent.type(within(dialog).getByLabelText(/Username/), 'bob');
  await userEvent.type(within(dialog).getByLabelText(/Password/), 'bob password');
  api.failNext('POST', 409, 'Username "bob" is already taken');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
  const alert = await within(dialog).findByRole('alert');
  expect(alert).toHaveTextContent('Create failed');
  expect(alert).toHaveTextContent('Username "bob" is already taken');
});

test('Refresh loads the list again', async () => {
  const { api } = await renderPanel(ALICE);
  api.users.push({ id: 'u-9', username: 'zed', role: 'user' });
  await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
  expect(await screen.findByTestId('member-row-zed')).toBeInTheDocument();
});
