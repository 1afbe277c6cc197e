import fs from 'node:fs';
import git, { type CommitObject, type TreeEntry } from 'isomorphic-git';

const TREE_CACHE_MAX = 50_000;

/**
 * Reads and writes git objects of one repository folder. Git objects never
 * change once written, so parsed trees, commits and blob sizes are cached by
 * object id.
 */
export class ObjectStore {
  /** isomorphic-git's own cache (parsed packfiles), shared by every call. */
  readonly cache: object = {};
  private readonly trees = new Map<string, TreeEntry[]>();
  private readonly commits = new Map<string, CommitObject>();
  private readonly sizes = new Map<string, number>();

  constructor(readonly gitdir: string) {}

  private remember<V>(map: Map<string, V>, key: string, value: V): V {
    if (map.size >= TREE_CACHE_MAX) map.clear();
    map.set(key, value);
    return value;
  }

  async tree(oid: string): Promise<TreeEntry[]> {
    const hit = this.trees.get(oid);
    if (hit) return hit;
    const { tree } = await git.readTree({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    return this.remember(this.trees, oid, tree);
  }

  async commit(oid: string): Promise<CommitObject> {
    const hit = this.commits.get(oid);
    if (hit) return hit;
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    return this.remember(this.commits, oid, commit);
  }

  async blob(oid: string): Promise<Uint8Array> {
    const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    this.remember(this.sizes, oid, blob.byteLength);
    return blob;
  }

  async blobSize(oid: string): Promise<number> {
    return this.sizes.get(oid) ?? (await this.blob(oid)).byteLength;
  }

  writeBlob(blob: Uint8Array): Promise<string> {
    return git.writeBlob({ fs, gitdir: this.gitdir, blob });
  }

  writeTree(tree: TreeEntry[]): Promise<string> {
    return git.writeTree({ fs, gitdir: this.gitdir, tree });
  }

  writeCommit(commit: CommitObject): Promise<string> {
    return git.writeCommit({ fs, gitdir: this.gitdir, commit });
  }
}
