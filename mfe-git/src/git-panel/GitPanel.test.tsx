import { screen } from '@testing-library/react';
import { createDevShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import GitPanel from './GitPanel.js';

test('shows the empty-repository message of the spec, exactly', () => {
  renderInShell(<GitPanel shell={createDevShellContext()} />);
  expect(
    screen.getByText('No commits yet — create your first file to initialize the repository.', { exact: true }),
  ).toBeInTheDocument();
});
