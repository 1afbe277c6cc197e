import { Button } from '@chakra-ui/react';
import { renderInShell } from '@tessera/jest-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DialogFrame } from './DialogFrame.js';

test('a titled dialog with its body and buttons; Escape closes it', async () => {
  const user = userEvent.setup();
  const closed: string[] = [];
  renderInShell(
    <DialogFrame open title="Trash" onClose={() => closed.push('closed')} footer={<Button>Close</Button>} contentProps={{ 'data-testid': 'frame' }}>
      The trash is empty.
    </DialogFrame>,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Trash' });
  expect(dialog).toHaveAttribute('data-testid', 'frame');
  expect(dialog).toHaveTextContent('The trash is empty.');
  expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  await user.keyboard('{Escape}');
  expect(closed).toEqual(['closed']);
});

test('closed, it is not in the page at all', () => {
  renderInShell(<DialogFrame open={false} title="Trash" onClose={() => {}} footer={null} />);
  expect(screen.queryByText('Trash')).not.toBeInTheDocument();
});
