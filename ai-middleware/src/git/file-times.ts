import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectStore } from './object-store.js';
import { changedRawEntries } from './raw-tree.js';
import { SerialQueue } from './serial-queue.js';

/** What is known about one head. */
interface WalkState {
  head: string;
  /** Path → author time (seconds) of the newest first-parent commit that wrote it. */
  times: Map<string, number>;
}

interface SavedState {
  version: 3;
  head: string;
  times: [string, number][];
}

/** The paths a walk looks for, as folders: a tree is opened only when it holds one of them. */
interface Trie {
  children: Map<string, Trie>;
  path: string | null;
}

/** A tree the fast reader could not read: the walk reads it through isomorphic-git, then retries the commit. */
class SlowTree extends Error {
  constructor(readonly oid: string) {
    super(`tree ${oid} is read through isomorphic-git`);
  }
}

function trieOf(paths: Iterable<string>): Trie {
  const root: Trie = { children: new Map(), path: null };
  for (const p of paths) {
    let node = root;
    for (const name of p.split('/')) {
      let next = node.children.get(name);
      if (!next) node.children.set(name, (next = { children: new Map(), path: null }));
      node = next;
    }
    node.path = p;
  }
  return root;
}

/**
 * When each file last changed (author time of the newest first-parent commit
 * that added or modified it), worked out lazily: a walk back from the head
 * looks only for the paths asked for and not known yet (opening only the
 * folders that hold them) and stops as soon as they are all known. A new head
 * is caught up by walking only the commits made since the known head. The
 * state is saved to `indexFile` (inside the git folder, which git ignores), so
 * a restart does not walk again.
 */
export class FileTimes {
  private state: WalkState | null = null;
  private loaded = false;
  private saves = 0;
  private readonly queue = new SerialQueue();
  /** Trees the fast reader could not read, read through isomorphic-git for the walk (see SlowTree). */
  private readonly slowTrees = new Map<string, Buffer>();

  constructor(
    private readonly store: ObjectStore,
    private readonly indexFile: string,
  ) {}

  /** Path → seconds since the epoch for each of `paths` (files of `head`). */
  at(head: string, paths: string[]): Promise<Map<string, number>> {
    return this.queue.run(async () => {
      if (!this.loaded) await this.load();
      let changed = false;
      if (this.state?.head !== head) {
        this.state = await this.catchUp(head, this.state);
        changed = true;
      }
      const state = this.state;
      const missing = new Set(paths.filter((p) => !state.times.has(p)));
      if (missing.size) {
        const found = await this.walk(head, missing, (times) => times.size === missing.size);
        for (const [p, t] of found.times) state.times.set(p, t);
        changed = true;
      }
      if (changed) {
        this.slowTrees.clear();
        await this.save(state);
      }
      const out = new Map<string, number>();
      for (const p of paths) {
        const time = state.times.get(p);
        if (time !== undefined) out.set(p, time);
      }
      return out;
    });
  }

  /**
   * The state for a new head: the commits since the known head update the
   * times they wrote. With nothing known, or when the known head is not on the
   * new head's first-parent line (history rewritten), an empty state: the
   * next question walks from the new head.
   */
  private async catchUp(head: string, known: WalkState | null): Promise<WalkState> {
    const empty: WalkState = { head, times: new Map() };
    if (!known) return empty;
    const found = await this.walk(head, new Set(known.times.keys()), () => false, known.head);
    if (found.cursor !== known.head) return empty;
    const times = new Map(known.times);
    for (const [p, t] of found.times) times.set(p, t);
    return { head, times };
  }

  /**
   * Walks the first-parent line from `from` and records, for each of `paths`,
   * the author time of the newest commit that wrote it. Stops when `done`
   * says so (checked after each commit), at `stopAt`, or at the root;
   * `cursor` is where it stopped (the next commit not looked at).
   */
  private async walk(
    from: string,
    paths: Set<string>,
    done: (times: Map<string, number>) => boolean,
    stopAt: string | null = null,
  ): Promise<{ times: Map<string, number>; cursor: string | null }> {
    const times = new Map<string, number>();
    const root = trieOf(paths);
    let oid: string | null = from;
    // Each commit is read once: as the parent of one step, then as the commit of the next.
    // The fast reader's reads need no promise: a walk over 10,000 commits awaits only when it cannot.
    let commit = this.store.linksNow(from) ?? (await this.store.links(from));
    // The commit's root tree, when read at the step before (as the parent's).
    let tree: Buffer | null = null;
    let steps = 0;
    while (oid && oid !== stopAt) {
      // Reads are synchronous underneath: let other requests in now and then.
      if (++steps % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
      const parent: string | null = commit.parents[0] ?? null;
      const parentCommit = parent ? (this.store.linksNow(parent) ?? (await this.store.links(parent))) : null;
      const before = parentCommit?.tree ?? null;
      let parentTree: Buffer | null = tree;
      if (before !== commit.tree) {
        for (;;) {
          try {
            const after = tree ?? this.treeNow(commit.tree);
            parentTree = before ? this.treeNow(before) : null;
            this.compare(parentTree, after, root, commit.authorTime, times);
            break;
          } catch (err) {
            // Retrying the commit whole records the same: the first time seen for a path wins, and it is this commit's.
            if (!(err instanceof SlowTree)) throw err;
            if (this.slowTrees.size > 1024) this.slowTrees.clear();
            this.slowTrees.set(err.oid, await this.store.rawTree(err.oid));
          }
        }
      }
      tree = parentTree;
      oid = parent;
      if (parentCommit) commit = parentCommit;
      if (done(times)) break;
    }
    return { times, cursor: oid };
  }

  /** Records (first seen wins) the trie's files whose blob differs between two trees. */
  private compare(a: Buffer | null, b: Buffer, node: Trie, time: number, into: Map<string, number>): void {
    for (const entry of changedRawEntries(a, b)) {
      const child = node.children.get(entry.name);
      if (!child || (child.path !== null && into.has(child.path))) continue;
      if (child.path !== null && !entry.folder) into.set(child.path, time);
      else if (child.children.size && entry.folder) {
        // Entries that differ have other ids: the two folders are compared (ids as the tree's bytes: no hex made).
        const left = entry.before?.folder ? this.treeNow(a!.subarray(entry.before.at, entry.before.at + 20)) : null;
        this.compare(left, this.treeNow(b.subarray(entry.at, entry.at + 20)), child, time, into);
      }
    }
  }

  /** A tree of the walk: through the fast reader, else one read through isomorphic-git already (or a SlowTree). */
  private treeNow(oid: string | Uint8Array): Buffer {
    const fast = this.store.rawTreeNow(oid);
    if (fast) return fast;
    const hex = typeof oid === 'string' ? oid : Buffer.from(oid).toString('hex');
    const slow = this.slowTrees.get(hex);
    if (!slow) throw new SlowTree(hex);
    return slow;
  }

  private async load(): Promise<void> {
    this.loaded = true;
    try {
      const saved = JSON.parse(await readFile(this.indexFile, 'utf8')) as SavedState;
      if (saved.version === 3 && typeof saved.head === 'string' && Array.isArray(saved.times)) {
        this.state = { head: saved.head, times: new Map(saved.times) };
      }
    } catch {
      // No saved state (or an unreadable one): the walk starts from scratch.
    }
  }

  private async save(state: WalkState): Promise<void> {
    // A name of its own per save: two processes saving at once never write the same temp file.
    const tmp = `${this.indexFile}.${process.pid}.${(this.saves += 1)}.tmp`;
    const saved: SavedState = { version: 3, head: state.head, times: [...state.times] };
    try {
      await mkdir(path.dirname(this.indexFile), { recursive: true });
      await writeFile(tmp, JSON.stringify(saved));
      await rename(tmp, this.indexFile);
    } catch {
      // Only a cache: losing it costs one walk at the next start.
    }
  }
}
