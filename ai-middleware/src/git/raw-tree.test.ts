import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ObjectStore } from './object-store.js';
import { changedRawEntries } from './raw-tree.js';

// Trees written by git itself (hash-object, mktree), read back as stored.
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-raw-tree-'));
after(() => rmSync(dir, { recursive: true, force: true }));
execFileSync('git', ['init', '-q', '--bare', dir]);
const git = (args: string[], input?: string) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', input }).trim();
const blob = (text: string) => git(['hash-object', '-w', '--stdin'], text);
const tree = (entries: [mode: string, name: string, oid: string][]) =>
  git(['mktree'], entries.map(([mode, name, oid]) => `${mode} ${mode === '040000' ? 'tree' : 'blob'} ${oid}\t${name}\n`).join(''));
const store = new ObjectStore(dir);
const changed = async (before: string | null, afterTree: string) =>
  changedRawEntries(before ? await store.rawTree(before) : null, await store.rawTree(afterTree)).map((e) => [e.name, e.folder, e.before ? 'was there' : 'new']);

const [one, two, three] = [blob('1\n'), blob('2\n'), blob('3\n')];
const folder = tree([['100644', 'inner.py', one]]);

test('only the entries whose id or kind differ, with whether the other tree had the name', async () => {
  const base = tree([['100644', 'a.py', one], ['040000', 'lib', folder], ['100644', 'z.py', two]]);
  assert.deepEqual(await changed(base, base), []);
  // One file changed: the rest is skipped in place.
  assert.deepEqual(await changed(base, tree([['100644', 'a.py', one], ['040000', 'lib', folder], ['100644', 'z.py', three]])), [['z.py', false, 'was there']]);
  // An entry added at the front shifts every other one: only it is new.
  assert.deepEqual(
    await changed(base, tree([['100644', '0.py', three], ['100644', 'a.py', one], ['040000', 'lib', folder], ['100644', 'z.py', two]])),
    [['0.py', false, 'new']],
  );
  // A removed entry is no change of the new tree; what follows it is found again.
  assert.deepEqual(await changed(base, tree([['040000', 'lib', folder], ['100644', 'z.py', three]])), [['z.py', false, 'was there']]);
  // A file that became a folder of the same name changed; a mode change with the same content did not.
  assert.deepEqual(await changed(base, tree([['100755', 'a.py', one], ['040000', 'lib', folder], ['040000', 'z.py', folder]])), [['z.py', true, 'was there']]);
  // Against no tree (the first commit) everything is new.
  assert.deepEqual(await changed(null, base), [['a.py', false, 'new'], ['lib', true, 'new'], ['z.py', false, 'new']]);
});

test('large trees: the same answer as comparing every entry by name, wherever the changes fall', async () => {
  // The shared start is skipped by a native search and a shared rest once the walks are in step: check both edges.
  const blobs = Array.from({ length: 8 }, (_, i) => blob(`v${i}\n`));
  const entries = (count: number, pick: (i: number) => number) =>
    Array.from({ length: count }, (_, i) => ['100644', `f${String(i).padStart(3, '0')}.py`, blobs[pick(i) % blobs.length]] as [string, string, string]);
  const base = entries(60, () => 0);
  const naive = (before: typeof base, afterEntries: typeof base) => {
    const was = new Map(before.map(([, name, oid]) => [name, oid]));
    return afterEntries.filter(([, name, oid]) => was.get(name) !== oid).map(([, name]) => [name, false, was.has(name) ? 'was there' : 'new']);
  };
  const variants: (typeof base)[] = [
    base.map((e, i) => (i === 0 ? [e[0], e[1], blobs[1]] : e)),
    base.map((e, i) => (i === 59 ? [e[0], e[1], blobs[1]] : e)),
    base.map((e, i) => (i === 30 || i === 31 || i === 45 ? [e[0], e[1], blobs[i % 7 + 1]] : e)),
    [...base.slice(0, 20), ['100644', 'f019a.py', blobs[3]], ...base.slice(20)],
    [...base.slice(0, 20), ...base.slice(23)],
    [...base.slice(0, 10), ...base.slice(11, 40).map((e) => [e[0], e[1], blobs[2]] as [string, string, string]), ...base.slice(40)],
    [...base, ['100644', 'zz.py', blobs[4]]],
    base.slice(0, 59),
  ];
  const baseTree = tree(base);
  for (const variant of variants) {
    assert.deepEqual(await changed(baseTree, tree(variant)), naive(base, variant));
    assert.deepEqual(await changed(tree(variant), baseTree), naive(variant, base));
  }
});
