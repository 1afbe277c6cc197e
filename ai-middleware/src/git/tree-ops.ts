import type { TreeEntry } from 'isomorphic-git';
import { GIT_ERROR_CODES } from '@tessera/contracts';
import { GitRequestError } from './git-errors.js';
import type { ObjectStore } from './object-store.js';

export const BLOB_MODE = '100644';
export const TREE_MODE = '040000';

export interface RepoFile {
  path: string;
  oid: string;
}

export interface TreeChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  oldOid: string | null;
  newOid: string | null;
}

const join = (prefix: string, name: string) => (prefix ? `${prefix}/${name}` : name);
const isTree = (entry: TreeEntry) => entry.type === 'tree';
// Submodule entries (commit type) are not files of this repository.
const isFile = (entry: TreeEntry) => entry.type === 'blob';

/** Every file under a tree, depth first. */
export async function listFiles(store: ObjectStore, treeOid: string | null, prefix = ''): Promise<RepoFile[]> {
  if (!treeOid) return [];
  const out: RepoFile[] = [];
  const walk = async (oid: string, base: string): Promise<void> => {
    for (const entry of await store.tree(oid)) {
      if (isTree(entry)) await walk(entry.oid, join(base, entry.path));
      else if (isFile(entry)) out.push({ path: join(base, entry.path), oid: entry.oid });
    }
  };
  await walk(treeOid, prefix);
  return out;
}

/** The entry at `path` under a tree, or null. */
export async function findEntry(store: ObjectStore, treeOid: string | null, path: string): Promise<TreeEntry | null> {
  let current = treeOid;
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    if (!current) return null;
    const entry = (await store.tree(current)).find((e) => e.path === segments[i]);
    if (!entry) return null;
    if (i === segments.length - 1) return entry;
    if (!isTree(entry)) return null;
    current = entry.oid;
  }
  return null;
}

/** Files that differ between two trees; identical subtrees are skipped by object id, so cost follows the change, not the tree. */
export async function diffTrees(store: ObjectStore, oldTree: string | null, newTree: string | null): Promise<TreeChange[]> {
  const out: TreeChange[] = [];
  const walk = async (a: string | null, b: string | null, base: string): Promise<void> => {
    if (a === b) return;
    const left = new Map((a ? await store.tree(a) : []).map((e) => [e.path, e]));
    const right = new Map((b ? await store.tree(b) : []).map((e) => [e.path, e]));
    const names = [...new Set([...left.keys(), ...right.keys()])].sort();
    for (const name of names) {
      const l = left.get(name);
      const r = right.get(name);
      if (l && r && l.oid === r.oid && l.type === r.type) continue;
      const path = join(base, name);
      const lTree = l && isTree(l) ? l.oid : null;
      const rTree = r && isTree(r) ? r.oid : null;
      if (lTree || rTree) await walk(lTree, rTree, path);
      const lBlob = l && isFile(l) ? l.oid : null;
      const rBlob = r && isFile(r) ? r.oid : null;
      if (lBlob === rBlob) continue;
      out.push({
        path,
        status: !lBlob ? 'added' : !rBlob ? 'deleted' : 'modified',
        oldOid: lBlob,
        newOid: rBlob,
      });
    }
  };
  await walk(oldTree, newTree, '');
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

interface PendingChange {
  segments: string[];
  path: string;
  /** New blob id, or null to delete. */
  blob: string | null;
}

function pathConflict(message: string): GitRequestError {
  return new GitRequestError(400, GIT_ERROR_CODES.pathConflict, message);
}

/**
 * Writes the trees for a set of file changes on top of `treeOid` and returns
 * the new root tree (null when nothing is left). Only the folders on changed
 * paths are rewritten.
 */
export async function applyChanges(
  store: ObjectStore,
  treeOid: string | null,
  changes: { path: string; blob: string | null }[],
): Promise<string | null> {
  const rec = async (oid: string | null, pending: PendingChange[], base: string): Promise<string | null> => {
    const entries = new Map((oid ? await store.tree(oid) : []).map((e) => [e.path, e]));
    const byName = new Map<string, PendingChange[]>();
    for (const change of pending) {
      const list = byName.get(change.segments[0]) ?? [];
      list.push(change);
      byName.set(change.segments[0], list);
    }
    for (const [name, group] of byName) {
      const path = join(base, name);
      const existing = entries.get(name);
      const direct = group.filter((c) => c.segments.length === 1);
      const deeper = group.filter((c) => c.segments.length > 1);
      if (direct.length && deeper.length) {
        throw pathConflict(`"${path}" cannot be both a file and a folder in one commit`);
      }
      if (direct.length) {
        const { blob } = direct[0];
        if (existing && isTree(existing)) throw pathConflict(`"${path}" is a folder in the repository, not a file`);
        if (blob === null) entries.delete(name);
        else entries.set(name, { mode: BLOB_MODE, path: name, oid: blob, type: 'blob' });
        continue;
      }
      if (existing && !isTree(existing)) {
        if (deeper.every((c) => c.blob === null)) continue;
        throw pathConflict(`"${path}" is a file in the repository, so "${deeper[0].path}" cannot be created under it`);
      }
      const sub = await rec(
        existing?.oid ?? null,
        deeper.map((c) => ({ ...c, segments: c.segments.slice(1) })),
        path,
      );
      if (sub === null) entries.delete(name);
      else entries.set(name, { mode: TREE_MODE, path: name, oid: sub, type: 'tree' });
    }
    if (entries.size === 0) return null;
    return store.writeTree([...entries.values()]);
  };
  return rec(
    treeOid,
    changes.map((c) => ({ segments: c.path.split('/'), path: c.path, blob: c.blob })),
    '',
  );
}
