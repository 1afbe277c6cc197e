import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInShell } from '@tessera/jest-react';
import { ImportStatus } from './ImportStatus.js';

// The whole import runs against a server in NavigatorImport.test.tsx; jsdom reports an upload's
// progress only once the answer starts, so the processing state between is shown here.
test('the upload shows its share sent, then Processing... until the server answers', () => {
  const uploading = renderInShell(<ImportStatus progress={{ phase: 'uploading', percent: 40 }} error={null} onDismissError={() => {}} />);
  expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
  expect(screen.getByText('Uploading...')).toBeInTheDocument();
  uploading.unmount();
  renderInShell(<ImportStatus progress={{ phase: 'processing' }} error={null} onDismissError={() => {}} />);
  expect(screen.getByRole('status')).toHaveTextContent('Processing...');
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
});

test('an error is an alert with a Dismiss button', async () => {
  const dismissed: string[] = [];
  renderInShell(<ImportStatus progress={{ phase: 'idle' }} error="Import failed: Boom" onDismissError={() => dismissed.push('x')} />);
  expect(screen.getByRole('alert')).toHaveTextContent('Import failed: Boom');
  await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
  expect(dismissed).toEqual(['x']);
});

test("the server's phase shows the rows stored so far, of all", () => {
  renderInShell(<ImportStatus progress={{ phase: 'storing', stored: 120_000, total: 500_000 }} error={null} onDismissError={() => {}} />);
  expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '24');
  expect(screen.getByText('Storing rows: 120,000 of 500,000')).toBeInTheDocument();
});
