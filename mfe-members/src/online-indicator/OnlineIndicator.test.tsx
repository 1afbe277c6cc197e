import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import { createDevShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import OnlineIndicator, { OnlineUsers } from './OnlineIndicator.js';

const shellWith = (online: string[]) => {
  const shell = createDevShellContext({ user: { id: 'me', username: 'me', role: 'user' } });
  shell.presence = { onSheet: [], online };
  return shell;
};

test('until the live connection reports others, oneself is online: one dot and 1 online', () => {
  renderInShell(<OnlineIndicator shell={shellWith([])} />);
  const indicator = screen.getByTestId('online-indicator');
  expect(indicator).toHaveTextContent('1 online');
  expect(screen.getAllByRole('img', { name: 'Online' })).toHaveLength(1);
  expect(indicator).not.toHaveTextContent('+');
});

test('counts the presence list and oneself once', () => {
  renderInShell(<OnlineIndicator shell={shellWith(['me', 'a'])} />);
  expect(screen.getByTestId('online-indicator')).toHaveTextContent('2 online');
  expect(screen.getAllByRole('img', { name: 'Online' })).toHaveLength(2);
});

test('shows at most 3 dots, then +N', () => {
  renderInShell(<OnlineIndicator shell={shellWith(['a', 'b', 'c', 'd', 'e'])} />);
  expect(screen.getAllByRole('img', { name: 'Online' })).toHaveLength(3);
  expect(screen.getByText('+3')).toBeInTheDocument();
  expect(screen.getByText('6 online')).toBeInTheDocument();
});

test("says 'No users online' when nobody is", () => {
  renderInShell(<OnlineUsers ids={[]} />);
  expect(screen.getByTestId('online-indicator')).toHaveTextContent('No users online');
  expect(screen.queryByRole('img')).not.toBeInTheDocument();
});

test('follows the presence the shell passes as people come and go', () => {
  const inShell = (online: string[]) => (
    <ChakraProvider value={defaultSystem}>
      <OnlineIndicator shell={shellWith(online)} />
    </ChakraProvider>
  );
  const { rerender } = render(inShell(['me']));
  expect(screen.getByTestId('online-indicator')).toHaveTextContent('1 online');
  rerender(inShell(['me', 'a', 'b', 'c']));
  expect(screen.getByTestId('online-indicator')).toHaveTextContent('+14 online');
  expect(screen.getAllByRole('img', { name: 'Online' })).toHaveLength(3);
  rerender(inShell(['me', 'b']));
  expect(screen.getByTestId('online-indicator')).toHaveTextContent('2 online');
  expect(screen.queryByText(/^\+/)).not.toBeInTheDocument();
});
