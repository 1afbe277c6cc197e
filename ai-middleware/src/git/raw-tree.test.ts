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
