import fs from 'node:fs';
import git, { type CommitObject, type TreeEntry } from 'isomorphic-git';
import { CorruptPackError, ObjectReader } from './object-reader.js';
import { commitLinks, parseCommit, parseTree, type CommitLinks } from './object-parse.js';

const TREE_CACHE_MAX = 50_000;

/**
 * Reads and writes git objects of one repository folder. Reads go through
 * ObjectReader (native zlib) and fall back to isomorphic-git for whatever it
 * does not handle; writes go through isomorphic-git. Git objects never change
 * once written, so parsed trees, commits and blob sizes are cached by object id.
 */
export class ObjectStore {
  /** isomorphic-git's own cache (parsed packfiles), shared by every call. */
  readonly cache: object = {};
  private readonly reader: ObjectReader;
  private readonly trees = new Map<string, TreeEntry[]>();
  private readonly commits = new Map<string, CommitObject>();
  private readonly sizes = new Map<string, number>();

  constructor(readonly gitdir: string) {
    this.reader = new ObjectReader(gitdir);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): V {
    if (map.size >= TREE_CACHE_MAX) map.clear();
    map.set(key, value);
    return value;
  }

  /**
   * The object through the fast reader when it can, with its type checked; null sends the caller to isomorphic-git.
   * A corrupt pack entry is an error, not sent there: isomorphic-git would read the same bytes, and on some
   * (a delta that is its own base) it recurses until the process runs out of memory.
   */
  private fast(oid: string | Uint8Array, type: 'commit' | 'tree' | 'blob'): Buffer | null {
    try {
      const object = typeof oid === 'string' ? this.reader.read(oid) : this.reader.readId(oid);
      return object && object.type === type ? object.content : null;
    } catch (err) {
      if (err instanceof CorruptPackError) throw err;
      return null;
    }
  }

  async tree(oid: string): Promise<TreeEntry[]> {
    const hit = this.trees.get(oid);
    if (hit) return hit;
    const raw = this.fast(oid, 'tree');
    const tree = raw ? parseTree(raw) : (await git.readTree({ fs, gitdir: this.gitdir, oid, cache: this.cache })).tree;
    return this.remember(this.trees, oid, tree);
  }

  async commit(oid: string): Promise<CommitObject> {
    const hit = this.commits.get(oid);
    if (hit) return hit;
    const raw = this.fast(oid, 'commit');
    const commit = raw ? parseCommit(raw) : (await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache })).commit;
    return this.remember(this.commits, oid, commit);
  }

  /** A commit's tree, parents and author time, for long walks: read without the full parse (nor its cache) when the bytes allow. */
  async links(oid: string): Promise<CommitLinks> {
    const now = this.linksNow(oid);
    if (now) return now;
    const commit = await this.commit(oid);
    return { tree: commit.tree, parents: commit.parent, authorTime: commit.author.timestamp };
  }

  /**
   * As links, without a promise, when the commit is cached or the fast reader has it laid out as
   * git writes it; null otherwise (then ask links). A walk over 10,000 commits spent more on
   * awaiting than on some of its reads.
   */
  linksNow(oid: string): CommitLinks | null {
    const cached = this.commits.get(oid);
    if (cached) return { tree: cached.tree, parents: cached.parent, authorTime: cached.author.timestamp };
    const raw = this.fast(oid, 'commit');
    return raw ? commitLinks(raw) : null;
  }

  /**
   * A tree object's bytes, unparsed, without a promise, when the fast reader has it; null otherwise
   * (then ask rawTree). `oid`: hex, or the 20 bytes of a tree entry's id (no hex string made).
   */
  rawTreeNow(oid: string | Uint8Array): Buffer | null {
    return this.fast(oid, 'tree');
  }

  /** A tree object's bytes, unparsed: for walks that look up a few names per tree (see FileTimes). */
  async rawTree(oid: string): Promise<Buffer> {
    const raw = this.fast(oid, 'tree');
    if (raw) return raw;
    const { object } = await git.readObject({ fs, gitdir: this.gitdir, oid, format: 'content', cache: this.cache });
    return Buffer.from(object as Uint8Array);
  }

  async blob(oid: string): Promise<Uint8Array> {
    const raw = this.fast(oid, 'blob');
    const blob = raw ?? (await git.readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache })).blob;
    this.remember(this.sizes, oid, blob.byteLength);
    return blob;
  }

  /** A blob's size in bytes; read from the object's header when the fast reader can, not by reading the blob. */
  async blobSize(oid: string): Promise<number> {
    const known = this.sizes.get(oid);
    if (known !== undefined) return known;
    let size: number | null = null;
    try {
      size = this.reader.size(oid);
    } catch {
      // Unreadable here: isomorphic-git reads it below.
    }
    return size !== null ? this.remember(this.sizes, oid, size) : (await this.blob(oid)).byteLength;
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
