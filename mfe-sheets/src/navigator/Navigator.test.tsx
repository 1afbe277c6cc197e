import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import Navigator from './Navigator.js';
import { useSheetTree } from './sheet-tree.store.js';
import { UserMenu } from './UserMenu.js';

afterEach(() => useSheetTree.setState({ status: 'ready' }));

test('with no sheets it shows the title and the empty state, and no create buttons yet', () => {
  renderInShell(<Navigator shell={createDevShellContext()} />);
  expect(screen.getByRole('navigation', { name: 'Sheets' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Sheets' })).toBeInTheDocument();
  expect(screen.getByText('No Sheets Found')).toBeInTheDocument();
  expect(screen.getByText('Create your first group or sheet to get started.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /Create (Group|Sheet)/ })).not.toBeInTheDocument();
  expect(screen.queryByTestId('navigator-skeleton')).not.toBeInTheDocument();
});

test('while the tree loads it shows the skeleton titled Sheets instead of the empty state', () => {
  renderInShell(<Navigator shell={createDevShellContext()} />);
  act(() => useSheetTree.setState({ status: 'loading' }));
  const skeleton = screen.getByTestId('navigator-skeleton');
  expect(skeleton).toHaveTextContent('Sheets');
  expect(skeleton).toHaveAttribute('aria-busy', 'true');
  expect(screen.queryByText('No Sheets Found')).not.toBeInTheDocument();
});

test('the user menu shows the nickname and email; Account Settings opens /settings; Log out calls shell.logout', async () => {
  const actions: string[] = [];
  const shell = createDevShellContext({
    user: { id: 'u-1', username: 'alice', role: 'admin', nickname: 'Al', email: 'al@example.com' },
    onAction: (action) => actions.push(action),
  });
  renderInShell(<Navigator shell={shell} />);
  const trigger = screen.getByRole('button', { name: 'User menu' });
  expect(trigger).toHaveTextContent('Al');
  expect(trigger).toHaveTextContent('al@example.com');

  await userEvent.click(trigger);
  await userEvent.keyboard('{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Account Settings' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings']);

  await userEvent.click(trigger);
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
  await userEvent.click(trigger);
  await userEvent.keyboard('{ArrowDown}');
  expect(await screen.findByRole('menuitem', { name: 'Account Settings' })).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  expect(actions).toEqual(['navigate /settings']);

  await userEvent.click(trigger);
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
