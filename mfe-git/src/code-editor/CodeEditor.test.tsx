import { screen, within } from '@testing-library/react';
import { createDevShellContext, type ShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { EditorLoaderContext, type EditorLoader } from '../editor/editor-loader.js';
import { startGitApi, type GitTestApi } from '../test-support/git-test-api.js';
import CodeEditor, { currentSheetVersion } from './CodeEditor.js';

const pendingEditor: EditorLoader = () => new Promise(() => {});

let api: GitTestApi;
beforeEach(async () => {
  api = await startGitApi();
});
afterEach(() => api.close());

const withSheet = (sheet: Partial<ShellContext['sheet']>): ShellContext => {
  const shell = createDevShellContext({ aiBaseURL: 'http://127.0.0.1:1', sheetId: 's-1' });
  return { ...shell, sheet: { ...shell.sheet, ...sheet } };
};

test('the sheet version comes from the shell when a sheet is loaded, else the trailer is left out', () => {
  expect(currentSheetVersion(withSheet({ version: 12 }))).toBe(12);
  expect(currentSheetVersion(withSheet({ version: null }))).toBeUndefined();
  const noSheet = createDevShellContext();
  expect(currentSheetVersion({ ...noSheet, sheet: { ...noSheet.sheet, version: 3 } })).toBeUndefined();
});

test('the Code tab lists the repository files and opens the first .py file', async () => {
  api.commitAs('ann', { 'README.md': '# r\n', 'jobs/clean.py': 'rows = []\n' });
  renderInShell(
    <EditorLoaderContext.Provider value={pendingEditor}>
      <CodeEditor shell={createDevShellContext({ aiBaseURL: api.url })} />
    </EditorLoaderContext.Provider>,
  );
  expect(await screen.findByText('rows = []')).toBeInTheDocument();
  const tree = screen.getByRole('tree', { name: 'Repository files' });
  expect(within(tree).getByRole('button', { name: 'README.md' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'New File' })).toBeInTheDocument();
});
