import { screen } from '@testing-library/react';
import { renderInShell } from '@tessera/jest-react';
import { MessageContent } from './MessageContent.js';

test('a reply reads at once as written, then as Markdown with its table once the renderer has loaded', async () => {
  const text = 'The **North** region leads.\n\n| Region | Amount |\n|---|---|\n| North | 17 |';
  renderInShell(<MessageContent text={text} />);
  // Before the Markdown renderer arrives the text is there, never a blank reply.
  expect(document.body.textContent).toContain('The **North** region leads.');
  const table = await screen.findByRole('table');
  expect(table).toHaveTextContent('17');
  expect(screen.getByText('North', { selector: 'strong' })).toBeInTheDocument();
});
