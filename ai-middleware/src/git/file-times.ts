import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectStore } from './object-store.js';
import { diffTrees } from './tree-ops.js';

/**
 * When each file at the head last changed (author time of the newest
 * first-parent commit that added or modified it). Built once by walking back
 * from the head; after that, a new head is caught up by walking only the
 * commits made since the head it already knows. The result is saved to
 * `indexFile` (inside the git folder, which git ignores) so a restart does
 * not walk the whole history again.
 */
export class FileTimes {
  private head: string | null = null;
  private times = new Map<string, number>();
  private pending: Promise<Map<string, number>> | null = null;
  private pendingHead: string | null = null;

  private loaded = false;
  private saves = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly indexFile: string,
  ) {}

  private async load(): Promise<void> {
    this.loaded = true;
    try {
      const saved = JSON.parse(await readFile(this.indexFile, 'utf8')) as { head: string; times: [string, number][] };
      if (typeof saved.head === 'string' && Array.isArray(saved.times)) {
        this.head = saved.head;
        this.times = new Map(saved.times);
      }
    } catch {
      // No saved index (or an unreadable one): the walk starts from scratch.
    }
  }

  private async save(): Promise<void> {
    // A name of its own per save: two saves in flight never write the same temp file.
    const tmp = `${this.indexFile}.${process.pid}.${(this.saves += 1)}.tmp`;
    try {
      await mkdir(path.dirname(this.indexFile), { recursive: true });
      await writeFile(tmp, JSON.stringify({ head: this.head, times: [...this.times] }));
      await rename(tmp, this.indexFile);
    } catch {
      // Only a cache: losing it costs one walk at the next start.
    }
  }

  /** Path → seconds since the epoch, for every file of `head` (whose file list is `paths`). */
  async at(head: string, paths: string[]): Promise<Map<string, number>> {
    if (this.head === head) return this.times;
    if (this.pending && this.pendingHead === head) return this.pending;
    this.pendingHead = head;
    this.pending = this.compute(head, paths).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async compute(head: string, paths: string[]): Promise<Map<string, number>> {
    if (!this.loaded) await this.load();
    if (this.head === head) return this.times;
    const known = this.head;
    const knownTimes = this.times;
    const wanted = new Set(paths);
    const result = new Map<string, number>();
    let oid: string | null = head;
    let reachedKnown = false;
    while (oid && result.size < wanted.size) {
      if (oid === known) {
        reachedKnown = true;
        break;
      }
      const commit = await this.store.commit(oid);
      const parent = commit.parent[0] ?? null;
      const parentTree = parent ? (await this.store.commit(parent)).tree : null;
      for (const change of await diffTrees(this.store, parentTree, commit.tree)) {
        if (change.newOid && wanted.has(change.path) && !result.has(change.path)) {
          result.set(change.path, commit.author.timestamp);
        }
      }
      oid = parent;
    }
    if (reachedKnown) {
      // Unchanged since the known head: its time there still holds.
      for (const path of wanted) {
        if (!result.has(path)) {
          const time = knownTimes.get(path);
          if (time !== undefined) result.set(path, time);
        }
      }
    }
    this.head = head;
    this.times = result;
    await this.save();
    return result;
  }
}
