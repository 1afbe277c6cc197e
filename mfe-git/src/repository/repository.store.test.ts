import { createDevShellContext } from '@tessera/contracts';
import { GIT_TEXTS } from './git-texts.js';
import { GitClient } from '../git-api/git.client.js';
import { startGitApi, type GitTestApi } from '../test-support/git-test-api.js';
import { createRepositoryStore, saveStatusText, type RepositoryStore } from './repository.store.js';

let api: GitTestApi;
let store: RepositoryStore;

beforeEach(async () => {
  api = await startGitApi();
  store = createRepositoryStore(new GitClient(createDevShellContext({ aiBaseURL: api.url }).ai));
});
afterEach(() => api.close());

const state = () => store.getState();
const status = () => saveStatusText(state().saveStatus);

async function openForEdit(path: string) {
  await state().load();
  await state().select(path);
  state().startEdit();
  expect(state().edit?.path).toBe(path);
}

test('first load: history, files, and the first .py file is opened', async () => {
  api.commitAs('ann', { 'README.md': '# hi\n', 'src/app.ts': 'export {};\n', 'tools/b.py': 'b = 1\n', 'a/z.py': 'z = 1\n' });
  await state().load();
  expect(state().history).toHaveLength(1);
  expect(state().emptyRepo).toBe(false);
  expect(state().selected).toBe('a/z.py');
  expect(state().view).toMatchObject({ path: 'a/z.py', status: 'ready', text: 'z = 1\n', commit: api.head() });
});

test('first load without a .py file opens the first file; an empty repository opens nothing', async () => {
  await state().load();
  expect(state().emptyRepo).toBe(true);
  expect(state().selected).toBeNull();
  api.commitAs('ann', { 'b.md': 'b\n', 'a.json': '{}\n' });
  const again = createRepositoryStore(new GitClient(createDevShellContext({ aiBaseURL: api.url }).ai));
  await again.getState().load();
  expect(again.getState().selected).toBe('a.json');
});

test('Save commits the draft on the base with the default message, and the history shows it', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await openForEdit('calc.py');
  const base = api.head();
  state().setDraft('x = 2\n');
  await state().save();
  expect(status()).toBe(GIT_TEXTS.committed);
  expect(api.commitBodies).toEqual([{ message: 'Update calc.py', base_commit: base, changes: [{ path: 'calc.py', action: 'upsert', content: 'x = 2\n' }] }]);
  expect(api.fileAtHead('calc.py')).toBe('x = 2\n');
  expect(state().history[0]).toMatchObject({ hash: api.head(), message: 'Update calc.py' });
  // The edit goes on from the new commit: its text is the new original, its base the new head.
  expect(state().edit).toMatchObject({ original: 'x = 2\n', base: api.head() });
  expect(state().view?.text).toBe('x = 2\n');
});

test('a typed message is used; an empty or blank text cannot be saved', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await openForEdit('calc.py');
  state().setDraft('   \n');
  await state().save();
  expect(api.commitBodies).toHaveLength(0);
  state().setDraft('x = 3\n');
  state().setMessage('Bump x');
  await state().save(7);
  expect(api.commitBodies[0]).toMatchObject({ message: 'Bump x', sheetVersion: 7 });
  expect(state().history[0].sheetVersion).toBe(7);
});

test('New File commits a file that did not exist, on the current head (or on nothing in an empty repository)', async () => {
  await state().load();
  state().newFile('notes/todo.md');
  expect(state().edit).toMatchObject({ path: 'notes/todo.md', original: '', draft: '', base: null, isNew: true });
  state().setDraft('- one\n');
  await state().save();
  expect(status()).toBe(GIT_TEXTS.committed);
  expect(api.commitBodies[0]).toMatchObject({ base_commit: null, message: 'Update notes/todo.md' });
  expect(state().emptyRepo).toBe(false);
  expect(state().files.map((f) => f.path)).toEqual(['notes/todo.md']);
});

test('a stale base is a Conflict; Retry Base takes the new head and the next Save commits', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await openForEdit('calc.py');
  api.commitAs('bob', { 'calc.py': 'x = 10\n' }, 'Bob was faster');
  state().setDraft('x = 2\n');
  await state().save();
  expect(status()).toBe(GIT_TEXTS.conflict);
  expect(state().saveStatus).toEqual({ kind: 'conflict', changedFiles: ['calc.py'] });
  expect(state().edit?.draft).toBe('x = 2\n');

  await state().retryBase();
  expect(status()).toBe(GIT_TEXTS.baseUpdated);
  expect(state().edit?.base).toBe(api.head());
  expect(state().history[0].message).toBe('Bob was faster');

  await state().save();
  expect(status()).toBe(GIT_TEXTS.committed);
  expect(api.fileAtHead('calc.py')).toBe('x = 2\n');
});

test('Retry Base that cannot reach the repository says Failed to refresh base', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await openForEdit('calc.py');
  api.commitAs('bob', { 'calc.py': 'x = 10\n' });
  state().setDraft('x = 2\n');
  await state().save();
  api.failHistory(true);
  await state().retryBase();
  expect(status()).toBe(GIT_TEXTS.baseRefreshFailed);
});

test('Reset restores the original text; Cancel leaves edit mode', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await openForEdit('calc.py');
  state().setDraft('x = 99\n');
  state().reset();
  expect(state().edit?.draft).toBe('x = 1\n');
  state().cancel();
  expect(state().edit).toBeNull();
  expect(state().view?.text).toBe('x = 1\n');
});

describe('a Save that gets no response re-reads the file after 300 ms', () => {
  beforeEach(async () => {
    // jsdom reports the dropped connection on the console; here it is the point of the test.
    jest.spyOn(console, 'error').mockImplementation(() => {});
    api.commitAs('ann', { 'calc.py': 'x = 1\n' });
    await openForEdit('calc.py');
    state().setDraft('x = 2\n');
  });
  afterEach(() => jest.restoreAllMocks());

  test('the commit landed: Committed (verified)', async () => {
    api.dropNextCommit(true);
    await state().save();
    expect(status()).toBe(GIT_TEXTS.committedVerified);
    expect(state().edit?.base).toBe(api.head());
    expect(api.calls.at(-1)).toMatch(/^GET \/git\/code-content/);
  });

  test('it did not: No response returned', async () => {
    api.dropNextCommit(false);
    await state().save();
    expect(status()).toBe(GIT_TEXTS.noResponse);
  });

  test('the re-read fails too: No response & verify failed', async () => {
    api.dropNextCommit(true);
    api.failContent(true);
    await state().save();
    expect(status()).toBe(GIT_TEXTS.noResponseVerifyFailed);
  });
});

test('AI recommendations for the change, and the debug strip calls (file history, commit graph)', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' }, 'first');
  api.commitAs('ann', { 'other.md': 'o\n' }, 'second');
  await openForEdit('calc.py');
  await state().loadRecommendations();
  expect(state().recommendations.status).toBe('idle'); // nothing changed yet
  state().setDraft('x = 2\n');
  await state().loadRecommendations();
  expect(state().recommendations.data).toMatchObject({ suggested_commit_message: 'Update calc.py', affected_files: ['calc.py'] });

  await state().loadFileHistory();
  expect(state().fileHistory).toMatchObject({ path: 'calc.py', status: 'ready' });
  expect(state().fileHistory!.commits.map((c) => c.message)).toEqual(['first']);
  await state().refreshGraph();
  expect(state().graph?.data?.count).toBe(2);
});

test('Reload and Full Refresh read again what changed on the server', async () => {
  api.commitAs('ann', { 'calc.py': 'x = 1\n' });
  await state().load();
  api.commitAs('bob', { 'calc.py': 'x = 5\n', 'new.py': 'n\n' }, 'from bob');
  await state().reloadFile();
  expect(state().view?.text).toBe('x = 5\n');
  expect(state().history).toHaveLength(1);
  await state().fullRefresh();
  expect(state().history[0].message).toBe('from bob');
  expect(state().files.map((f) => f.path)).toEqual(['calc.py', 'new.py']);
});
