import {
  EMPTY_COMMIT_RETRY_DELAY_MS,
  HISTORY_PAGE_SIZE,
  describeError,
  type GitCommit,
  type GitCommitGraphResponse,
  type GitFileEntry,
  type GitRecommendations,
  type GitTreeNode,
} from '@tessera/contracts';
import { GIT_TEXTS, defaultCommitMessage } from './git-texts.js';
import { createStore, type StoreApi } from 'zustand';
import type { GitClient } from '../git-api/git.client.js';

/** Where a Save stands (spec 02 §4 Code file, §8 Repository). */
export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'committed'; verified: boolean; hash: string | null }
  | { kind: 'conflict'; changedFiles: string[] }
  | { kind: 'base-updated' }
  | { kind: 'base-failed' }
  | { kind: 'no-response' }
  | { kind: 'no-response-verify-failed' }
  | { kind: 'failed'; detail: string };

/** The text a save state shows, from the spec's catalogue; null when there is nothing to say. */
export function saveStatusText(save: SaveState): string | null {
  switch (save.kind) {
    case 'committed':
      return save.verified ? GIT_TEXTS.committedVerified : GIT_TEXTS.committed;
    case 'conflict':
      return GIT_TEXTS.conflict;
    case 'base-updated':
      return GIT_TEXTS.baseUpdated;
    case 'base-failed':
      return GIT_TEXTS.baseRefreshFailed;
    case 'no-response':
      return GIT_TEXTS.noResponse;
    case 'no-response-verify-failed':
      return GIT_TEXTS.noResponseVerifyFailed;
    case 'failed':
      return GIT_TEXTS.saveFailed;
    default:
      return null;
  }
}

export interface ViewedFile {
  path: string;
  status: 'loading' | 'ready' | 'error';
  text: string;
  /** The commit the text was read at. */
  commit: string | null;
  error: string | null;
}

export interface EditSession {
  path: string;
  /** The text at `base` ('' for a new file): what Reset restores and the diff compares with. */
  original: string;
  draft: string;
  /** The head the edit started from, sent as base_commit. */
  base: string | null;
  /** The commit message as typed; empty means the default 'Update {path}'. */
  message: string;
  isNew: boolean;
}

export interface RepositoryState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  history: GitCommit[];
  emptyRepo: boolean;
  files: GitFileEntry[];
  tree: GitTreeNode[];
  head: string | null;
  selected: string | null;
  view: ViewedFile | null;
  edit: EditSession | null;
  saveStatus: SaveState;
  recommendations: { status: 'idle' | 'loading' | 'ready' | 'error'; data: GitRecommendations | null; error: string | null };
  fileHistory: { path: string; status: 'loading' | 'ready' | 'error'; commits: GitCommit[]; error: string | null } | null;
  graph: { status: 'loading' | 'ready' | 'error'; data: GitCommitGraphResponse | null; error: string | null } | null;
}

export interface RepositoryActions {
  /** History and files; on the first load, selects the first .py file (else the first file). */
  load(): Promise<void>;
  /** Full Refresh: history, files and the open file again. */
  fullRefresh(): Promise<void>;
  /** Reload: the open file's text again. */
  reloadFile(): Promise<void>;
  select(path: string): Promise<void>;
  startEdit(): void;
  newFile(path: string): void;
  setDraft(text: string): void;
  setMessage(message: string): void;
  /** Save: one commit of the draft on top of the edit's base. `sheetVersion` becomes the commit's trailer. */
  save(sheetVersion?: number): Promise<void>;
  /** Retry Base, after a conflict: the head becomes the edit's base. */
  retryBase(): Promise<void>;
  reset(): void;
  cancel(): void;
  loadRecommendations(): Promise<void>;
  loadFileHistory(): Promise<void>;
  refreshGraph(): Promise<void>;
}

export type RepositoryStore = StoreApi<RepositoryState & RepositoryActions>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first .py file of the listing (the server lists .py first), else the first file (spec 02 §4). */
export function firstFileToOpen(files: GitFileEntry[]): string | null {
  return (files.find((f) => f.path.endsWith('.py')) ?? files[0])?.path ?? null;
}

export const initialRepositoryState = (): RepositoryState => ({
  status: 'idle',
  error: null,
  history: [],
  emptyRepo: false,
  files: [],
  tree: [],
  head: null,
  selected: null,
  view: null,
  edit: null,
  saveStatus: { kind: 'idle' },
  recommendations: { status: 'idle', data: null, error: null },
  fileHistory: null,
  graph: null,
});

/**
 * The state of one mounted repository view (the git tab or the Code tab):
 * one store per mount, so the two never share an edit.
 */
export function createRepositoryStore(client: GitClient): RepositoryStore {
  return createStore<RepositoryState & RepositoryActions>()((set, get) => {
    /** Reads the file into the view, unless another file was selected meanwhile. */
    const readFile = async (path: string) => {
      set({ view: { path, status: 'loading', text: '', commit: null, error: null } });
      try {
        const content = await client.content(path);
        if (get().selected !== path) return;
        set({ view: { path, status: 'ready', text: content.content, commit: content.commit_hash, error: null } });
      } catch (err) {
        if (get().selected !== path) return;
        set({ view: { path, status: 'error', text: '', commit: null, error: describeError(err) } });
      }
    };

    const loadLists = async () => {
      const [history, tree] = await Promise.all([client.history(HISTORY_PAGE_SIZE), client.tree()]);
      set({
        history: history.history,
        emptyRepo: history.empty_repo,
        files: tree.files,
        tree: tree.tree,
        head: tree.repository.head,
        status: 'ready',
        error: null,
      });
    };

    const afterCommit = async (hash: string | null, verified: boolean) => {
      const edit = get().edit;
      if (edit) set({ edit: { ...edit, original: edit.draft, base: hash ?? edit.base, isNew: false, message: '' } });
      set({ saveStatus: { kind: 'committed', verified, hash } });
      try {
        await loadLists();
      } catch (err) {
        set({ error: describeError(err) });
      }
      if (edit && get().selected !== edit.path) set({ selected: edit.path });
      if (edit) await readFile(edit.path);
    };

    return {
      ...initialRepositoryState(),

      async load() {
        const first = get().status === 'idle';
        set({ status: 'loading' });
        try {
          await loadLists();
        } catch (err) {
          set({ status: 'error', error: describeError(err) });
          return;
        }
        if (first && !get().selected) {
          const path = firstFileToOpen(get().files);
          if (path) await get().select(path);
        }
      },

      async fullRefresh() {
        try {
          await loadLists();
        } catch (err) {
          set({ status: 'error', error: describeError(err) });
          return;
        }
        const { selected } = get();
        if (selected) await readFile(selected);
      },

      async reloadFile() {
        const { selected } = get();
        if (selected) await readFile(selected);
      },

      async select(path) {
        set({ selected: path, fileHistory: null });
        await readFile(path);
      },

      startEdit() {
        const { view } = get();
        if (!view || view.status !== 'ready') return;
        set({
          edit: { path: view.path, original: view.text, draft: view.text, base: view.commit, message: '', isNew: false },
          saveStatus: { kind: 'idle' },
          recommendations: { status: 'idle', data: null, error: null },
        });
      },

      newFile(path) {
        set({
          edit: { path, original: '', draft: '', base: get().head, message: '', isNew: true },
          saveStatus: { kind: 'idle' },
          recommendations: { status: 'idle', data: null, error: null },
        });
      },

      setDraft(text) {
        const edit = get().edit;
        if (edit) set({ edit: { ...edit, draft: text } });
      },

      setMessage(message) {
        const edit = get().edit;
        if (edit) set({ edit: { ...edit, message } });
      },

      async save(sheetVersion) {
        const { edit, saveStatus } = get();
        if (!edit || saveStatus.kind === 'saving' || edit.draft.trim() === '') return;
        set({ saveStatus: { kind: 'saving' } });
        const outcome = await client.commit({
          message: edit.message.trim() || defaultCommitMessage(edit.path),
          base_commit: edit.base,
          changes: [{ path: edit.path, action: 'upsert', content: edit.draft }],
          ...(sheetVersion !== undefined ? { sheetVersion } : {}),
        });
        if (outcome.kind === 'committed') return afterCommit(outcome.response.commit_hash, false);
        if (outcome.kind === 'conflict') return set({ saveStatus: { kind: 'conflict', changedFiles: outcome.details.changed_files } });
        if (outcome.kind === 'failed') return set({ saveStatus: { kind: 'failed', detail: outcome.message } });
        // No answer: it may still have been committed. Wait, re-read, compare (spec 02 §4).
        await sleep(EMPTY_COMMIT_RETRY_DELAY_MS);
        try {
          const content = await client.content(edit.path);
          if (content.content === edit.draft) return afterCommit(content.commit_hash, true);
          set({ saveStatus: { kind: 'no-response' } });
        } catch {
          set({ saveStatus: { kind: 'no-response-verify-failed' } });
        }
      },

      async retryBase() {
        const edit = get().edit;
        if (!edit) return;
        try {
          const history = await client.history(HISTORY_PAGE_SIZE);
          const head = history.history[0]?.hash ?? null;
          const current = get().edit;
          if (current) set({ edit: { ...current, base: head } });
          set({ history: history.history, emptyRepo: history.empty_repo, head, saveStatus: { kind: 'base-updated' } });
        } catch {
          set({ saveStatus: { kind: 'base-failed' } });
        }
      },

      reset() {
        const edit = get().edit;
        if (edit) set({ edit: { ...edit, draft: edit.original }, saveStatus: { kind: 'idle' } });
      },

      cancel() {
        set({ edit: null, saveStatus: { kind: 'idle' }, recommendations: { status: 'idle', data: null, error: null } });
      },

      async loadRecommendations() {
        const edit = get().edit;
        if (!edit || edit.draft === edit.original) return;
        set({ recommendations: { status: 'loading', data: null, error: null } });
        try {
          const data = await client.recommendations([{ path: edit.path, action: 'upsert', content: edit.draft }]);
          set({ recommendations: { status: 'ready', data, error: null } });
        } catch (err) {
          set({ recommendations: { status: 'error', data: null, error: describeError(err) } });
        }
      },

      async loadFileHistory() {
        const path = get().selected;
        if (!path) return;
        set({ fileHistory: { path, status: 'loading', commits: [], error: null } });
        try {
          const history = await client.history(HISTORY_PAGE_SIZE, path);
          set({ fileHistory: { path, status: 'ready', commits: history.history, error: null } });
        } catch (err) {
          set({ fileHistory: { path, status: 'error', commits: [], error: describeError(err) } });
        }
      },

      async refreshGraph() {
        set({ graph: { status: 'loading', data: get().graph?.data ?? null, error: null } });
        try {
          set({ graph: { status: 'ready', data: await client.commitGraph(), error: null } });
        } catch (err) {
          set({ graph: { status: 'error', data: null, error: describeError(err) } });
        }
      },
    };
  });
}
