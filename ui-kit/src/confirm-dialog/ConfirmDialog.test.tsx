import { renderInShell } from '@tessera/jest-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog.js';

test('asks in an alert dialog: Cancel and Escape cancel, the confirming button confirms', async () => {
  const user = userEvent.setup();
  const seen: string[] = [];
  renderInShell(
    <ConfirmDialog open title="Delete user?" description="bob" confirmLabel="Delete" onConfirm={() => seen.push('confirm')} onCancel={() => seen.push('cancel')} />,
  );
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete user?' });
  expect(dialog).toHaveTextContent('bob');
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  await user.keyboard('{Escape}');
  expect(seen).toEqual(['cancel', 'confirm', 'cancel']);
});

test('closed, nothing is in the page', () => {
  renderInShell(<ConfirmDialog open={false} title="Delete user?" confirmLabel="Delete" onConfirm={() => {}} onCancel={() => {}} />);
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  expect(screen.queryByText('Delete user?')).not.toBeInTheDocument();
});

test('a failed attempt is said in the dialog, and the button spins while busy', async () => {
  renderInShell(
    <ConfirmDialog
      open
      title="Restore version 3?"
      description="The sheet becomes what it was then."
      error="Network error"
      tone="primary"
      busy
      confirmLabel="Restore"
      onConfirm={() => {}}
      onCancel={() => {}}
      testId="restore-dialog"
      errorTestId="restore-error"
    />,
  );
  const dialog = await screen.findByRole('alertdialog', { name: 'Restore version 3?' });
  expect(dialog).toHaveAttribute('data-testid', 'restore-dialog');
  expect(screen.getByRole('alert')).toHaveTextContent('Network error');
  expect(screen.getByTestId('restore-error')).toHaveTextContent('Network error');
  expect(screen.getByText('Restore').closest('button')).toBeDisabled();
});
