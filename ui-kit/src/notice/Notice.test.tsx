import { renderInShell } from '@tessera/jest-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notice } from './Notice.js';

test('a failure is an alert with its title and the server words; × dismisses it', async () => {
  const user = userEvent.setup();
  const closed: string[] = [];
  renderInShell(<Notice status="error" title="Update failed" detail="Email already in use" onClose={() => closed.push('x')} />);
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Update failed');
  expect(alert).toHaveTextContent('Email already in use');
  await user.click(screen.getByRole('button', { name: 'Dismiss' }));
  expect(closed).toEqual(['x']);
});

test('a success is a status, with no detail when there is none', () => {
  renderInShell(<Notice status="success" title="Password updated" detail={null} />);
  expect(screen.getByRole('status')).toHaveTextContent(/^Password updated$/);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});

test('an action button with words; role="" leaves the box unannounced', async () => {
  const user = userEvent.setup();
  const reloads: string[] = [];
  renderInShell(<Notice status="error" role="" detail="Sheet not found" action={{ label: 'Reload', onClick: () => reloads.push('r') }} data-testid="box" />);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.getByTestId('box')).toHaveTextContent('Sheet not found');
  await user.click(screen.getByRole('button', { name: 'Reload' }));
  expect(reloads).toEqual(['r']);
});
