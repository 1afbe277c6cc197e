import { createEvent, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInShell } from '@tessera/jest-react';
import { useState } from 'react';
import { ContextArea, TESSERA_PATH_TYPE } from './ContextArea.js';

/** jsdom has no DataTransfer: a minimal one carrying what the git tree sets. */
function dropPath(target: Element, path: string) {
  const data = { types: [TESSERA_PATH_TYPE], getData: (type: string) => (type === TESSERA_PATH_TYPE ? path : '') };
  const event = createEvent.drop(target);
  Object.defineProperty(event, 'dataTransfer', { value: data });
  fireEvent(target, event);
}

function Harness({ sheet }: { sheet: { id: string | null; name: string | null; size: { rows: number; cols: number } } }) {
  const [files, setFiles] = useState<string[]>([]);
  return <ContextArea sheet={sheet} files={files} onFilesChange={setFiles} />;
}

test('dropped git paths become removable chips; a path already listed is ignored', async () => {
  renderInShell(<Harness sheet={{ id: null, name: null, size: { rows: 0, cols: 0 } }} />);
  expect(screen.getByRole('region', { name: 'Chat context' })).toHaveTextContent('Active Sheet: none');
  const zone = screen.getByTestId('git-files-dropzone');
  dropPath(zone, 'src/solver.py');
  dropPath(zone, 'README.md');
  dropPath(zone, 'src/solver.py');
  expect(screen.getAllByRole('button', { name: /^Remove / }).map((b) => b.getAttribute('aria-label'))).toEqual([
    'Remove src/solver.py',
    'Remove README.md',
  ]);
  await userEvent.click(screen.getByRole('button', { name: 'Remove src/solver.py' }));
  expect(screen.queryByText('src/solver.py')).not.toBeInTheDocument();
  expect(screen.getByText('README.md')).toBeInTheDocument();
});

test('the Active Sheet line names the sheet with its rows × cols', () => {
  renderInShell(<Harness sheet={{ id: 's1', name: 'Budget', size: { rows: 120, cols: 6 } }} />);
  expect(screen.getByRole('region', { name: 'Chat context' })).toHaveTextContent('Active Sheet: Budget (120 rows × 6 cols)');
});

test('a drag of something else than a git path is not taken', () => {
  renderInShell(<Harness sheet={{ id: null, name: null, size: { rows: 0, cols: 0 } }} />);
  const zone = screen.getByTestId('git-files-dropzone');
  const event = createEvent.drop(zone);
  Object.defineProperty(event, 'dataTransfer', { value: { types: ['text/plain'], getData: () => '' } });
  fireEvent(zone, event);
  expect(screen.getByText('Drop files from the git tree here')).toBeInTheDocument();
});
