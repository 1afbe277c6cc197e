import type { ObjectStore } from './object-store.js';

/**
 * Lookups in tree objects as stored (`<mode> <name>\0<20-byte id>` repeated),
 * for walks over many commits that need one or a few names per tree: no parse
 * of the whole tree, no hex string per entry.
 */

export function sameBytes(buf: Uint8Array, at: number, other: Uint8Array, from = 0, length = other.length): boolean {
  for (let i = 0; i < length; i += 1) if (buf[at + i] !== other[from + i]) return false;
  return true;
}

/** The entry `name` of a raw tree: where its 20-byte id starts and whether it is a folder. */
export function findRawEntry(tree: Buffer, name: Uint8Array): { at: number; folder: boolean } | null {
  let p = 0;
  while (p < tree.length) {
    const space = tree.indexOf(0x20, p);
    const nul = tree.indexOf(0, space);
    if (nul - space - 1 === name.length && sameBytes(tree, space + 1, name)) {
      // Mode 40000 (a folder) is the only one of 5 digits.
      return { at: nul + 1, folder: space - p === 5 };
    }
    p = nul + 21;
  }
  return null;
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
