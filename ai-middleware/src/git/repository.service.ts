import fs from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import {
  DEFAULT_GIT_BRANCH,
  GIT_ERROR_CODES,
  type GitCommit,
  type GitCommitRequest,
  type GitCommitResponse,
  type GitFileResult,
} from '@tessera/contracts';
import { authorFor, composeMessage, parseMessage } from './commit-message.js';
import { conflictError, GitRequestError } from './git-errors.js';
import { FileTimes } from './file-times.js';
import { ObjectStore } from './object-store.js';
import { encodeFileContent, validateRepoPath } from './path-rules.js';
import { applyListingRules, type Listing } from './listing-rules.js';
import { pathChanged } from './raw-tree.js';
import { SerialQueue } from './serial-queue.js';
import { applyChanges, diffTrees, findEntry, listFiles, type RepoFile, type TreeChange } from './tree-ops.js';

export const BRANCH_REF = `refs/heads/${DEFAULT_GIT_BRANCH}`;
const FULL_OID = /^[0-9a-f]{40}$/;
const SHORT_OID = /^[0-9a-f]{4,40}$/;
/** A loose ref file as git and isomorphic-git write it. */
const LOOSE_REF = /^[0-9a-f]{40}\n?$/;

interface PreparedChange {
  path: string;
  /** Bytes to store, or null to delete. */
  bytes: Uint8Array | null;
}

/**
 * The one code repository: a bare git repository in `dir` (HEAD on
 * refs/heads/main), written through isomorphic-git and readable by the git
 * command line (`git -C dir log`). Writes go through one queue, so a commit
 * checks its base against the head and moves the branch with no other writer
 * in between.
 */
export class GitRepository {
  readonly store: ObjectStore;
  readonly fileTimes: FileTimes;
  private readonly writes = new SerialQueue();
  private opening: Promise<void> | null = null;
  private listed: { head: string | null; pending: Promise<{ files: RepoFile[]; listing: Listing<RepoFile> }> } | null = null;

  constructor(readonly dir: string) {
    this.store = new ObjectStore(dir);
    this.fileTimes = new FileTimes(this.store, path.join(dir, 'tessera', 'file-times.json'));
  }

  /** Creates the repository on first use (branch main); an existing one is used as is. */
  open(): Promise<void> {
    this.opening ??= this.init().catch((err: unknown) => {
      this.opening = null;
      throw err;
    });
    return this.opening;
  }

  private async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const isRepo = await stat(path.join(this.dir, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (isRepo) return;
    if ((await readdir(this.dir)).length > 0) {
      throw new Error(`GIT_REPO_DIR ${this.dir} is not empty and is not a git repository`);
    }
    await git.init({ fs, dir: this.dir, bare: true, defaultBranch: DEFAULT_GIT_BRANCH });
  }

  /**
   * At service start on an existing repository: works out the listed files'
   * times in the background, so the first GET /git/tree finds them ready. A
   * history the service has never seen (one made with the git command line)
   * costs one walk back; after that the saved state is read. A missing
   * repository is left alone (it is created on first use).
   */
  async warmUp(): Promise<void> {
    const exists = await stat(path.join(this.dir, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    const head = await this.head();
    if (!head) return;
    const { listing } = await this.listing(head);
    await this.fileTimes.at(head, listing.listed.map((f) => f.path));
  }

  /**
   * The head's files and their listing (spec 02 §5), kept for the last head
   * asked: the warm-up and the first GET /git/tree ask for the same one.
   */
  listing(head: string | null): Promise<{ files: RepoFile[]; listing: Listing<RepoFile> }> {
    if (this.listed?.head !== head) {
      const pending = this.files(head).then((files) => ({ files, listing: applyListingRules(files) }));
      this.listed = { head, pending };
      // A failed read is not kept: the next request reads again.
      pending.catch(() => {
        if (this.listed?.pending === pending) this.listed = null;
      });
    }
    return this.listed.pending;
  }

  /** The commit main points at, or null while the repository is empty. */
  async head(): Promise<string | null> {
    await this.open();
    // Main's loose ref file (`<40 hex digits>\n`), read here: isomorphic-git wraps node's fs anew at
    // every call and tests it by calling readFile() with no arguments, two TypeErrors built each
    // time (about a twentieth of a cold /git/tree). A loose ref wins over packed-refs, as in git;
    // anything else (packed, symbolic, none, half written) is resolved by isomorphic-git.
    const loose = await readFile(path.join(this.dir, BRANCH_REF), 'latin1').catch(() => null);
    if (loose !== null && LOOSE_REF.test(loose)) return loose.slice(0, 40);
    try {
      return await git.resolveRef({ fs, gitdir: this.dir, ref: BRANCH_REF });
    } catch (err) {
      if (err instanceof git.Errors.NotFoundError) return null;
      throw err;
    }
  }

  /** A full or abbreviated commit id, HEAD or main, as a full commit id; 400 when malformed, 404 when unknown. */
  async resolveCommit(ref: string): Promise<string> {
    await this.open();
    const value = ref.trim().toLowerCase();
    if (value === 'head' || value === DEFAULT_GIT_BRANCH) {
      const head = await this.head();
      if (!head) throw new GitRequestError(404, GIT_ERROR_CODES.commitNotFound, 'The repository has no commits yet');
      return head;
    }
    if (!SHORT_OID.test(value)) {
      throw new GitRequestError(400, GIT_ERROR_CODES.invalidCommit, `"${ref}" is not a commit id (4 to 40 hex digits)`);
    }
    let oid: string;
    try {
      oid = FULL_OID.test(value) ? value : await git.expandOid({ fs, gitdir: this.dir, oid: value, cache: this.store.cache });
      await this.store.commit(oid);
    } catch (err) {
      if (err instanceof git.Errors.AmbiguousError) {
        throw new GitRequestError(400, GIT_ERROR_CODES.invalidCommit, `Commit id "${ref}" is ambiguous; give more digits`);
      }
      throw new GitRequestError(404, GIT_ERROR_CODES.commitNotFound, `Commit ${ref} not found`);
    }
    return oid;
  }

  async treeOf(commit: string | null): Promise<string | null> {
    return commit ? (await this.store.commit(commit)).tree : null;
  }

  async files(commit: string | null): Promise<RepoFile[]> {
    return listFiles(this.store, await this.treeOf(commit));
  }

  /** The bytes of a file at a commit, or null when the path holds no file there. */
  async readFile(commit: string, filePath: string): Promise<{ oid: string; bytes: Uint8Array } | null> {
    const entry = await findEntry(this.store, await this.treeOf(commit), filePath);
    if (!entry || entry.type !== 'blob') return null;
    return { oid: entry.oid, bytes: await this.store.blob(entry.oid) };
  }

  diff(from: string | null, to: string | null): Promise<TreeChange[]> {
    return Promise.all([this.treeOf(from), this.treeOf(to)]).then(([a, b]) => diffTrees(this.store, a, b));
  }

  async toCommit(oid: string): Promise<GitCommit> {
    const commit = await this.store.commit(oid);
    const { message, sheetVersion } = parseMessage(commit.message);
    return {
      id: oid,
      hash: oid,
      message,
      author: commit.author.name,
      email: commit.author.email,
      timestamp: new Date(commit.author.timestamp * 1000).toISOString(),
      sheetVersion,
      parents: commit.parent,
    };
  }

  /**
   * Newest commits first, following every parent, ordered by committer time
   * as git log (and isomorphic-git's log) orders them; each commit once.
   */
  async log(limit: number): Promise<GitCommit[]> {
    const head = await this.head();
    if (!head) return [];
    const out: string[] = [];
    const seen = new Set<string>([head]);
    const tips: { oid: string; time: number }[] = [{ oid: head, time: (await this.store.commit(head)).committer.timestamp }];
    while (tips.length && out.length < limit) {
      const { oid } = tips.pop()!;
      out.push(oid);
      for (const parent of (await this.store.commit(oid)).parent) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        tips.push({ oid: parent, time: (await this.store.commit(parent)).committer.timestamp });
      }
      // Oldest first, so pop() takes the newest.
      tips.sort((a, b) => a.time - b.time);
    }
    return Promise.all(out.map((oid) => this.toCommit(oid)));
  }

  /** Commits on the first-parent line that changed `filePath` (added, modified or deleted it), newest first. */
  async fileLog(filePath: string, limit: number): Promise<GitCommit[]> {
    const segments = filePath.split('/').map((s) => Buffer.from(s, 'utf8'));
    const out: string[] = [];
    let oid = await this.head();
    let commit = oid ? await this.store.links(oid) : null;
    let steps = 0;
    while (oid && commit && out.length < limit) {
      // Reads are synchronous underneath: let other requests in now and then.
      if (++steps % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
      const parent: string | null = commit.parents[0] ?? null;
      const parentCommit = parent ? await this.store.links(parent) : null;
      if (await pathChanged(this.store, parentCommit?.tree ?? null, commit.tree, segments)) out.push(oid);
      oid = parent;
      commit = parentCommit;
    }
    return Promise.all(out.map((c) => this.toCommit(c)));
  }

  /** POST /git/commits: applies the changes as one commit by `username` on top of base_commit, or refuses with 409 when main has moved. */
  commit(username: string, request: GitCommitRequest): Promise<GitCommitResponse> {
    const prepared = prepareChanges(request.changes);
    return this.writes.run(async () => {
      const head = await this.head();
      const base = request.base_commit?.trim().toLowerCase() || null;
      if (base !== head) {
        const baseTree = base && FULL_OID.test(base) ? await this.treeOf(base).catch(() => null) : null;
        const changed = (await diffTrees(this.store, baseTree, await this.treeOf(head))).map((c) => c.path);
        throw conflictError(
          head
            ? `The branch ${DEFAULT_GIT_BRANCH} has moved since ${base ?? 'the empty repository'}: ${changed.length} file(s) changed; refresh and retry`
            : `The repository is empty: base_commit must be null or empty`,
          { base_commit: base, head_commit: head, changed_files: changed },
        );
      }
      return this.write(username, head, prepared, composeMessage(request.message, request.sheetVersion));
    });
  }

  /** POST /git/revert-commit: a new commit that restores every file the commit changed, refused with 409 when one changed again since. */
  revert(username: string, ref: string, message: string | undefined): Promise<GitCommitResponse & { reverted?: { hash: string; subject: string } }> {
    return this.writes.run(async () => {
      const target = await this.resolveCommit(ref);
      const head = await this.head();
      const commit = await this.store.commit(target);
      const parent = commit.parent[0] ?? null;
      const changes = await diffTrees(this.store, await this.treeOf(parent), commit.tree);
      const headTree = await this.treeOf(head);
      const diverged: string[] = [];
      for (const change of changes) {
        const now = await findEntry(this.store, headTree, change.path);
        if ((now?.type === 'blob' ? now.oid : null) !== change.newOid) diverged.push(change.path);
      }
      if (diverged.length) {
        throw conflictError(`Cannot revert ${target.slice(0, 7)}: ${diverged.length} file(s) changed since that commit`, {
          base_commit: target,
          head_commit: head,
          changed_files: diverged,
        });
      }
      const prepared: PreparedChange[] = [];
      for (const change of changes) {
        prepared.push({ path: change.path, bytes: change.oldOid ? await this.store.blob(change.oldOid) : null });
      }
      const subject = parseMessage(commit.message).message.split('\n')[0];
      const text = message ?? `Revert "${subject}"\n\nThis reverts commit ${target}.`;
      return { ...(await this.write(username, head, prepared, composeMessage(text, undefined))), reverted: { hash: target, subject } };
    });
  }

  /** Runs inside the write queue: writes blobs, trees and the commit, then moves main. */
  private async write(username: string, head: string | null, changes: PreparedChange[], message: string): Promise<GitCommitResponse> {
    const headTree = await this.treeOf(head);
    const results: GitFileResult[] = [];
    const applied: { path: string; blob: string | null }[] = [];
    for (const change of changes) {
      const current = await findEntry(this.store, headTree, change.path);
      if (current && current.type === 'tree') {
        throw new GitRequestError(400, GIT_ERROR_CODES.pathConflict, `"${change.path}" is a folder in the repository, not a file`);
      }
      const currentOid = current?.oid ?? null;
      if (change.bytes === null) {
        if (!currentOid) results.push({ path: change.path, status: 'skipped', message: 'Not in the repository; nothing to delete' });
        else {
          applied.push({ path: change.path, blob: null });
          results.push({ path: change.path, status: 'applied', message: 'Deleted' });
        }
        continue;
      }
      const blob = await this.store.writeBlob(change.bytes);
      if (blob === currentOid) {
        results.push({ path: change.path, status: 'skipped', message: 'Unchanged' });
      } else {
        applied.push({ path: change.path, blob });
        results.push({ path: change.path, status: 'applied', message: currentOid ? 'Updated' : 'Created' });
      }
    }
    if (applied.length === 0) return { commit_hash: head, committed: false, file_results: results };
    const tree = (await applyChanges(this.store, headTree, applied)) ?? (await this.store.writeTree([]));
    const who = authorFor(username);
    const stamp = { ...who, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const oid = await this.store.writeCommit({
      message,
      tree,
      parent: head ? [head] : [],
      author: stamp,
      committer: stamp,
    });
    await git.writeRef({ fs, gitdir: this.dir, ref: BRANCH_REF, value: oid, force: true });
    return { commit_hash: oid, committed: true, file_results: results };
  }
}

/** Validates every path and size before anything is written; a repeated path is refused. */
function prepareChanges(changes: GitCommitRequest['changes']): PreparedChange[] {
  const seen = new Set<string>();
  return changes.map((change) => {
    const filePath = validateRepoPath(change.path);
    if (seen.has(filePath)) {
      throw new GitRequestError(400, GIT_ERROR_CODES.duplicatePath, `"${filePath}" appears more than once in the changes`);
    }
    seen.add(filePath);
    return { path: filePath, bytes: change.action === 'upsert' ? encodeFileContent(filePath, change.content) : null };
  });
}
