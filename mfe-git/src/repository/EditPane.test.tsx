import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext } from '@tessera/contracts';
import { GIT_TEXTS } from './git-texts.js';
import { renderInShell } from '@tessera/jest-react';
import { EditorLoaderContext, type EditorLoader } from '../editor/editor-loader.js';
import { GitClient } from '../git-api/git.client.js';
import { startGitApi, type GitTestApi } from '../test-support/git-test-api.js';
import { RepositoryContext } from './repository-context.js';
import { createRepositoryStore, type RepositoryStore } from './repository.store.js';
import { RepositoryFiles } from './RepositoryFiles.js';

// Monaco does not run in jsdom: the boundary stays loading, and the tests type
// through the store's setDraft, which is what the editor's onChange calls.
const pendingEditor: EditorLoader = () => new Promise(() => {});

let api: GitTestApi;
let store: RepositoryStore;

beforeEach(async () => {
  api = await startGitApi();
  api.commitAs('ann', { 'calc.py': 'x = 1\ny = 2\n' });
  store = createRepositoryStore(new GitClient(createDevShellContext({ aiBaseURL: api.url }).ai));
  await store.getState().load();
  renderInShell(
    <EditorLoaderContext.Provider value={pendingEditor}>
      <RepositoryContext.Provider value={store}>
        <RepositoryFiles sheetVersion={4} />
      </RepositoryContext.Provider>
    </EditorLoaderContext.Provider>,
  );
  await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
});
afterEach(() => api.close());

const type = (text: string) => act(() => store.getState().setDraft(text));

test('the diff preview shows the change before committing; Save commits it with the sheet version', async () => {
  type('x = 1\ny = 3\n');
  const diff = await screen.findByTestId('diff-preview');
  expect(diff).toHaveTextContent('--- a/calc.py');
  expect(diff).toHaveTextContent('+++ b/calc.py');
  expect(within(diff).getByText('-y = 2')).toHaveClass('diff-del');
  expect(within(diff).getByText('+y = 3')).toHaveClass('diff-add');

  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText(GIT_TEXTS.committed, { exact: true })).toBeInTheDocument();
  expect(api.commitBodies[0]).toMatchObject({ message: 'Update calc.py', sheetVersion: 4 });
  expect(screen.getByText('No changes')).toBeInTheDocument();
});

test('a conflict shows the Conflict badge; Retry Base, then Save, commits; Reset restores the text', async () => {
  api.commitAs('bob', { 'calc.py': 'x = 100\n' });
  type('x = 5\n');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText(GIT_TEXTS.conflict, { exact: true })).toBeInTheDocument();
  expect(screen.getByText(GIT_TEXTS.conflictBadge, { exact: true })).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Retry Base' }));
  expect(await screen.findByText('Base updated – retry Save', { exact: true })).toBeInTheDocument();
  expect(screen.queryByText(GIT_TEXTS.conflictBadge, { exact: true })).not.toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText(GIT_TEXTS.committed, { exact: true })).toBeInTheDocument();
  expect(api.fileAtHead('calc.py')).toBe('x = 5\n');

  type('x = 6\n');
  await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
  expect(store.getState().edit?.draft).toBe('x = 5\n');
});

test('AI Recommendations: a deterministic summary of the change, whose message can be used', async () => {
  const button = screen.getByRole('button', { name: 'Get recommendations' });
  expect(button).toBeDisabled();
  type('x = 1\ny = 9\n');
  await userEvent.click(button);
  const section = await screen.findByTestId('recommendations');
  expect(section).toHaveTextContent('Update calc.py');
  expect(section).toHaveTextContent('merge complexity: low');
  await userEvent.click(within(section).getByRole('button', { name: 'Use' }));
  expect(screen.getByRole('textbox', { name: 'Commit message' })).toHaveValue('Update calc.py');
});

test('Save is disabled when the text is empty', async () => {
  type('');
  expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
});
