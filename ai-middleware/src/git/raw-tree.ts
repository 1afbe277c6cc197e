import { indexOfByte, sameBytes } from './bytes.js';
import type { ObjectStore } from './object-store.js';

/**
 * Lookups in tree objects as stored (`<mode> <name>\0<20-byte id>` repeated),
 * for walks over many commits that need one or a few names per tree: no parse
 * of the whole tree, no hex string per entry.
 */

/** The entry `name` of a raw tree: where its 20-byte id starts and whether it is a folder. */
export function findRawEntry(tree: Buffer, name: Uint8Array): { at: number; folder: boolean } | null {
  let p = 0;
  while (p < tree.length) {
    const space = indexOfByte(tree, 0x20, p);
    const nul = indexOfByte(tree, 0, space);
    if (nul - space - 1 === name.length && sameBytes(tree, space + 1, name)) {
      // Mode 40000 (a folder) is the only one of 5 digits.
      return { at: nul + 1, folder: space - p === 5 };
    }
    p = nul + 21;
  }
  return null;
}

/**
 * The entry at `p` of a raw tree when its name is `after`'s bytes `from`..`to`: a changed entry
 * is most often found at the same place in the other tree, with no search from the start.
 */
function entryHere(tree: Buffer, p: number, after: Buffer, from: number, to: number): { at: number; folder: boolean } | null {
  if (p >= tree.length) return null;
  const space = indexOfByte(tree, 0x20, p);
  const nul = indexOfByte(tree, 0, space);
  if (nul - space - 1 !== to - from || !sameBytes(tree, space + 1, after, from, to - from)) return null;
  return { at: nul + 1, folder: space - p === 5 };
}

/**
 * How many leading bytes two buffers share, compared byte by byte in JS: Buffer#compare with
 * offsets validates each offset through Node's error helpers, and a dozen such calls to halve
 * a tree cost more than the loop over its shared bytes (which the caller walks anyway).
 */
function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i += 1;
  return i;
}

/** An entry of a tree that differs from the other tree's: its name, its id's offset, and the other tree's entry of that name. */
export interface ChangedEntry {
  name: string;
  at: number;
  folder: boolean;
  /** The same name in the tree compared with (null: it is new there). */
  before: { at: number; folder: boolean } | null;
}

/**
 * The entries of `after` that `before` does not have with the same kind (file or folder) and
 * id, in one pass over both: entries that are byte for byte the same at the same place are
 * skipped without a lookup (a commit changes one or a few entries of a tree), and after a
 * difference the walk through `before` picks up again at the entry of the same name.
 */
export function changedRawEntries(before: Buffer | null, after: Buffer): ChangedEntry[] {
  const changed: ChangedEntry[] = [];
  // Bytes the same from the start in both trees are the same entries at the same places: only
  // their ends are looked for, with no comparison (one native search finds where they part).
  const common = before ? commonPrefix(before, after) : 0;
  let pa = 0;
  let pb = 0;
  while (pb < after.length) {
    const space = indexOfByte(after, 0x20, pb);
    const nul = indexOfByte(after, 0, space);
    const end = nul + 21;
    if (end <= common) {
      pa = pb = end;
      continue;
    }
    // Once the two walks are in step again, the same remaining bytes are the same remaining entries.
    if (before && before.length - pa === after.length - pb && before.compare(after, pb, after.length, pa, before.length) === 0) break;
    if (before && pa < before.length && end - pb <= before.length - pa && sameBytes(before, pa, after, pb, end - pb)) {
      pa += end - pb;
      pb = end;
      continue;
    }
    const name = after.subarray(space + 1, nul);
    const folder = space - pb === 5;
    // A tree holds a name once (git fsck refuses duplicates): the one at the same place is the one.
    const left = before ? (entryHere(before, pa, after, space + 1, nul) ?? findRawEntry(before, name)) : null;
    if (left) pa = left.at + 20;
    if (!(left && left.folder === folder && sameBytes(before!, left.at, after, nul + 1, 20))) {
      changed.push({ name: name.toString('utf8'), at: nul + 1, folder, before: left });
    }
    pb = end;
  }
  return changed;
}

/** Whether the entry at `segments` (a path split in UTF-8 names) differs between two trees; folders with the same id are not opened. */
export async function pathChanged(store: ObjectStore, a: string | null, b: string | null, segments: Uint8Array[]): Promise<boolean> {
  if (a === b) return false;
  const left = a ? await store.rawTree(a) : null;
  const right = b ? await store.rawTree(b) : null;
  const l = left ? findRawEntry(left, segments[0]) : null;
  const r = right ? findRawEntry(right, segments[0]) : null;
  if (!l && !r) return false;
  if (l && r && l.folder === r.folder && sameBytes(left!, l.at, right!, r.at, 20)) return false;
  if (segments.length === 1) return true;
  const sub = (tree: Buffer | null, e: typeof l) => (tree && e?.folder ? tree.toString('hex', e.at, e.at + 20) : null);
  return pathChanged(store, sub(left, l), sub(right, r), segments.slice(1));
}
