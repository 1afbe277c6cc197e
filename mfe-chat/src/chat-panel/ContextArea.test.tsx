import { createEvent, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInShell } from '@tessera/jest-react';
import { ContextArea, TESSERA_PATH_TYPE } from './ContextArea.js';

/** jsdom has no DataTransfer: a minimal one carrying what the git tree sets. */
function dropPath(target: Element, path: string) {
  const data = { types: [TESSERA_PATH_TYPE], getData: (type: string) => (type === TESSERA_PATH_TYPE ? path : '') };
  const event = createEvent.drop(target);
  Object.defineProperty(event, 'dataTransfer', { value: data });
  fireEvent(target, event);
}

test('dropped git paths become removable chips; a path already listed is ignored', async () => {
  renderInShell(<ContextArea sheetId={null} />);
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
