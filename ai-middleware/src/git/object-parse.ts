import type { CommitObject, TreeEntry } from 'isomorphic-git';
import { indexOfByte, sameBytes } from './bytes.js';

type Person = CommitObject['author'];

/** `Name <email> 1700000000 +0100` as isomorphic-git gives it (timezoneOffset in minutes, negative east of UTC). */
function parsePerson(value: string): Person {
  const match = /^(.*?) ?<(.*)> (-?\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (!match) return { name: value, email: '', timestamp: 0, timezoneOffset: 0 };
  const minutes = Number(match[5]) * 60 + Number(match[6]);
  return {
    name: match[1],
    email: match[2],
    timestamp: Number(match[3]),
    timezoneOffset: match[4] === '+' ? -minutes || 0 : minutes,
  };
}

/**
 * A commit object's text, read the way git reads it: `tree` first, the
 * `parent` lines right after it, author and committer, continuation lines
 * (a leading space) joined to the header above, then the message after the
 * first blank line.
 */
export function parseCommit(content: Buffer): CommitObject {
  const text = content.toString('utf8');
  const cut = text.indexOf('\n\n');
  const head = cut === -1 ? text : text.slice(0, cut);
  const message = cut === -1 ? '' : text.slice(cut + 2).replace(/\r\n/g, '\n');
  const headers: string[] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1] += `\n${line.slice(1)}`;
    else headers.push(line);
  }
  const keyOf = (h: string) => h.slice(0, h.indexOf(' '));
  const valueOf = (h: string) => h.slice(h.indexOf(' ') + 1);
  if (!headers.length || keyOf(headers[0]) !== 'tree') throw new Error('commit: tree is not the first header');
  const commit: CommitObject = {
    message,
    tree: valueOf(headers[0]),
    parent: [],
    author: parsePerson(''),
    committer: parsePerson(''),
  };
  let i = 1;
  while (i < headers.length && keyOf(headers[i]) === 'parent') commit.parent.push(valueOf(headers[i++]));
  for (; i < headers.length; i += 1) {
    const key = keyOf(headers[i]);
    if (key === 'author') commit.author = parsePerson(valueOf(headers[i]));
    else if (key === 'committer') commit.committer = parsePerson(valueOf(headers[i]));
    else if (key === 'gpgsig') commit.gpgsig = valueOf(headers[i]);
  }
  return commit;
}

/** Modes git writes, as constant strings: no string built per entry. */
const MODES: Record<string, string> = { '100644': '100644', '100755': '100755', '120000': '120000', '160000': '160000' };

/** A tree object's entries (`<mode> <name>\0<20-byte id>`), modes as isomorphic-git writes them (040000 for folders). */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let p = 0;
  while (p < content.length) {
    const space = indexOfByte(content, 0x20, p);
    const nul = indexOfByte(content, 0, space);
    // Mode 40000 (a folder) is the only one of 5 digits git writes.
    let mode: string;
    if (space - p === 5 && content[p] === 0x34 && content[p + 1] === 0x30 && content[p + 2] === 0x30 && content[p + 3] === 0x30 && content[p + 4] === 0x30) mode = '040000';
    // 100644, a plain file, the most common mode by far: no string made to look it up.
    else if (space - p === 6 && content[p] === 0x31 && content[p + 1] === 0x30 && content[p + 2] === 0x30 && content[p + 3] === 0x36 && content[p + 4] === 0x34 && content[p + 5] === 0x34) mode = '100644';
    else {
      const text = content.toString('latin1', p, space);
      mode = MODES[text] ?? text;
    }
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path: content.toString('utf8', space + 1, nul), oid: content.toString('hex', nul + 1, nul + 21), type });
    p = nul + 21;
  }
  return entries;
}

/** What a history walk needs of a commit, read straight from its bytes: no message, no full parse. */
export interface CommitLinks {
  tree: string;
  parents: string[];
  /** Author time, seconds since the epoch. */
  authorTime: number;
}

const TREE = Buffer.from('tree ');
const PARENT = Buffer.from('parent ');
const AUTHOR = Buffer.from('author ');

/** Whether `prefix` is at `at` (four looks per commit of a walk: a byte loop, see bytes.ts). */
const startsWith = (buf: Buffer, at: number, prefix: Buffer) => at + prefix.length <= buf.length && sameBytes(buf, at, prefix);

/** The number written in ASCII digits from `from` to `to` (no string made); null when it is not only digits (Number decides). */
function digitsAt(buf: Buffer, from: number, to: number): number | null {
  if (to <= from || to - from > 15) return null;
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return null;
    value = value * 10 + d;
  }
  return value;
}

/** The tree, parents and author time of a commit object (git's fixed header order: tree, parents, author); null when it is not laid out so. */
export function commitLinks(content: Buffer): CommitLinks | null {
  if (!startsWith(content, 0, TREE) || content[45] !== 0x0a) return null;
  const tree = content.toString('latin1', 5, 45);
  const parents: string[] = [];
  let p = 46;
  while (startsWith(content, p, PARENT) && content[p + 47] === 0x0a) {
    parents.push(content.toString('latin1', p + 7, p + 47));
    p += 48;
  }
  if (!startsWith(content, p, AUTHOR)) return null;
  const end = content.indexOf(0x0a, p);
  const zone = content.lastIndexOf(0x20, end);
  const stamp = content.lastIndexOf(0x20, zone - 1);
  const authorTime = digitsAt(content, stamp + 1, zone) ?? Number(content.toString('latin1', stamp + 1, zone));
  return Number.isFinite(authorTime) ? { tree, parents, authorTime } : null;
}
