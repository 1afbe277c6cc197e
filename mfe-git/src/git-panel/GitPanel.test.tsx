import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, MESSAGES } from '@tessera/contracts';
import { GIT_PATH_DRAG_TYPE } from '../repository/git-texts.js';
import { renderInShell } from '@tessera/jest-react';
import { EditorLoaderContext, type EditorLoader } from '../editor/editor-loader.js';
import { startGitApi, type GitTestApi } from '../test-support/git-test-api.js';
import GitPanel from './GitPanel.js';

// Monaco does not run in jsdom: the editor boundary stays in its loading state here.
const pendingEditor: EditorLoader = () => new Promise(() => {});

let api: GitTestApi;
beforeEach(async () => {
  api = await startGitApi();
});
afterEach(() => api.close());

function renderPanel() {
  const shell = createDevShellContext({ aiBaseURL: api.url, tab: 'git' });
  return renderInShell(
    <EditorLoaderContext.Provider value={pendingEditor}>
      <GitPanel shell={shell} />
    </EditorLoaderContext.Provider>,
  );
}

test('an empty repository shows the spec message, exactly', async () => {
  renderPanel();
  expect(await screen.findByText(MESSAGES.emptyRepository, { exact: true })).toBeInTheDocument();
  expect(MESSAGES.emptyRepository).toBe('No commits yet — create your first file to initialize the repository.');
});

test('the commit list shows the newest 50 with relative times', async () => {
  for (let i = 1; i <= 55; i += 1) api.commitAs('ann', { 'a.py': `x = ${i}\n` }, `Change ${i}`);
  renderPanel();
  const list = await screen.findByRole('list', { name: 'Commits' });
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(50));
  const first = within(list).getAllByRole('listitem')[0];
  expect(first).toHaveTextContent('Change 55');
  expect(first).toHaveTextContent(/\d+(m|h|d) ago/);
  expect(within(list).queryByText('Change 5')).not.toBeInTheDocument();
  expect(api.calls).toContain('GET /git/history?limit=50');
});

test('the Git Tree opens the first .py file on first load; another file opens on click; rows drag their path', async () => {
  api.commitAs('ann', { 'README.md': '# Read me\n', 'src/app.ts': 'export const a = 1;\n', 'tools/run.py': 'print("run")\n' });
  renderPanel();
  expect(await screen.findByText('print("run")')).toBeInTheDocument();
  const tree = screen.getByRole('tree', { name: 'Repository files' });
  expect(within(tree).getByRole('button', { name: 'run.py' }).closest('[role="treeitem"]')).toHaveAttribute('aria-selected', 'true');

  await userEvent.click(within(tree).getByRole('button', { name: 'README.md' }));
  expect(await screen.findByText('# Read me')).toBeInTheDocument();

  const row = within(tree).getByRole('button', { name: 'app.ts' }).closest('[draggable="true"]')!;
  const data = new Map<string, string>();
  fireEvent.dragStart(row, { dataTransfer: { setData: (type: string, value: string) => data.set(type, value), effectAllowed: '' } });
  expect(data.get(GIT_PATH_DRAG_TYPE)).toBe('src/app.ts');
  expect(GIT_PATH_DRAG_TYPE).toBe('application/x-tessera-path');
});

test('Copy puts the code on the clipboard; Edit opens the editor (loading behind its boundary)', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  const writeText = jest.fn(async () => {});
  Object.assign(navigator, { clipboard: { writeText } });
  renderPanel();
  await screen.findByText('x = 1');
  await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
  expect(writeText).toHaveBeenCalledWith('x = 1\n');
  await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
  expect(await screen.findByText('Loading editor…')).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Commit message' })).toHaveAttribute('placeholder', 'Update calc.py');
  expect(screen.getByText('No changes')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(screen.getByText('x = 1')).toBeInTheDocument();
});

test('New File opens an empty editor whose Save stays disabled while the text is empty', async () => {
  renderPanel();
  await screen.findByText(MESSAGES.emptyRepository);
  await userEvent.click(screen.getByRole('button', { name: 'New File' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'New file path' }), 'hello.py');
  await userEvent.click(screen.getByRole('button', { name: 'Create' }));
  expect(await screen.findByText('Loading editor…')).toBeInTheDocument();
  expect(screen.getByText(/New file: hello\.py/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('a file that cannot be read shows Failed; the debug strip refreshes, reloads, lists the file history and the graph', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' }, 'first');
  renderPanel();
  await screen.findByText('x = 1');
  api.commitAs('bob', { 'calc.py': 'x = 2\n' }, 'second');

  await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
  expect(await screen.findByText('x = 2')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Full Refresh' }));
  expect(await within(screen.getByRole('list', { name: 'Commits' })).findByText('second')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'file history' }));
  const history = await screen.findByTestId('file-history');
  await waitFor(() => expect(history).toHaveTextContent(/second.*first/));
  await userEvent.click(screen.getByRole('button', { name: 'Graph Refresh' }));
  expect(await screen.findByText('Graph: 2 commits on main')).toBeInTheDocument();

  api.failContent(true);
  await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
  expect(await screen.findByText('Failed')).toBeInTheDocument();
});

test('an empty file shows No content', async () => {
  api.commitAs('ann', { 'empty.py': '' });
  renderPanel();
  expect(await screen.findByText('No content')).toBeInTheDocument();
});
