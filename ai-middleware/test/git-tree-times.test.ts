import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GitTreeResponseSchema } from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

/**
 * GET /git/tree's `modified` and `size` on a history the service never saw,
 * made with the git command line: renames, deletes, a file deleted and added
 * again, edits undone (the content goes back to what it was), and merges of a
 * side branch. Each file's time must be what `git log --first-parent -1 -- path`
 * gives (the newest commit on main's first-parent line that changed it), and
 * its size what `git cat-file -s` gives, on a packed repository (deltas) and on
 * the same history as loose objects.
 */
describe('git: /git/tree times and sizes against git log', () => {
  let issuer: TestIssuer;
  let work: string;
  let packed: string;
  let loose: string;
  const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

  before(async () => {
    issuer = await startTestIssuer();
    work = mkdtempSync(path.join(tmpdir(), 'tessera-git-times-'));
    packed = path.join(work, 'packed.git');
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', packed]);
    const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
    // A distinct author time per commit (an hour apart), so a wrong commit shows as a wrong time.
    let n = 0;
    const commit = (branch: string, message: string, body: string, from?: string, merge?: string) => {
      n += 1;
      const time = 1_700_000_000 + n * 3600;
      return (
        `commit refs/heads/${branch}\nmark :${n}\nauthor Ann <ann@x.test> ${time} +0000\ncommitter Ann <ann@x.test> ${time} +0000\n${data(message)}` +
        (from ? `from ${from}\n` : '') +
        (merge ? `merge ${merge}\n` : '') +
        body
      );
    };
    const put = (p: string, content: string) => `M 100644 inline ${p}\n${data(content)}`;
    const long = (tag: string) => `${tag}\n${'some line of code\n'.repeat(40)}`;
    const stream = [
      // :1 the first files
      commit('main', 'init', put('a.py', long('a0')) + put('b.py', long('b0')) + put('c.py', long('c0')) + put('d/e.py', long('e0')) + put('d/f.ts', long('f0')) + put('keep.md', long('k0')) + put('old/x.txt', long('x0'))),
      // :2 a.py edited
      commit('main', 'edit a', put('a.py', long('a1')), ':1'),
      // :3 b.py renamed into d/ (same content): the new path's time is the rename
      commit('main', 'rename b', 'R b.py d/b2.py\n', ':2'),
      // :4 c.py deleted
      commit('main', 'delete c', 'D c.py\n', ':3'),
      // :5 a side branch from :4 edits d/e.py, :6 adds g.py
      commit('side', 'side edit e', put('d/e.py', long('e1')), ':4'),
      commit('side', 'side add g', put('g.py', long('g0')), ':5'),
      // :7 main edits d/f.ts (the side branch does not touch it)
      commit('main', 'edit f', put('d/f.ts', long('f1')), ':4'),
      // :8 a.py back to what it was at :1: still a change, made at :8
      commit('main', 'undo a', put('a.py', long('a0')), ':7'),
      // :9 the merge: d/e.py and g.py change on the first-parent line here
      commit('main', 'merge side', put('d/e.py', long('e1')) + put('g.py', long('g0')), ':8', ':6'),
      // :10 c.py added again, as it was; old/ removed as a folder
      commit('main', 'c again', put('c.py', long('c0')) + 'D old\n', ':9'),
      // :11 a second side branch edits keep.md and is merged with a merge commit of its own, :13
      commit('side2', 'side2 keep', put('keep.md', long('k1')), ':10'),
      commit('main', 'edit e again', put('d/e.py', long('e2')), ':10'),
      commit('main', 'merge side2', put('keep.md', long('k1')), ':12', ':11'),
      // :14 keep.md edited and :15 edited back: the newest write is :15
      commit('main', 'keep k2', put('keep.md', long('k2')), ':13'),
      commit('main', 'keep back', put('keep.md', long('k1')), ':14'),
      // :16 an unrelated file, last
      commit('main', 'add z', put('z/zz.json', '{"z":1}\n'), ':15'),
    ].join('');
    const run = spawnSync('git', ['-C', packed, 'fast-import', '--quiet'], { input: stream });
    assert.equal(run.status, 0, run.stderr?.toString());
    git(packed, 'symbolic-ref', 'HEAD', 'refs/heads/main');
    git(packed, 'gc', '-q', '--aggressive');
    // The same history as loose objects (what commits through the API leave behind).
    loose = path.join(work, 'loose.git');
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', loose]);
    const packDir = path.join(packed, 'objects', 'pack');
    for (const file of readdirSync(packDir).filter((f) => f.endsWith('.pack'))) {
      execFileSync('sh', ['-c', `git -C "${loose}" unpack-objects -q < "${path.join(packDir, file)}"`]);
    }
    git(loose, 'update-ref', 'refs/heads/main', git(packed, 'rev-parse', 'main').trim());
  });
  after(async () => {
    await issuer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const kind of ['packed', 'loose'] as const) {
    test(`${kind}: every listed file's modified time and size are git's`, async () => {
      const dir = kind === 'packed' ? packed : loose;
      let t: TestApp | undefined;
      try {
        // A fresh service on a history it never saw: the first request waits for the walk back.
        t = await startTestApp(issuer.apiUrl, { gitRepoDir: dir });
        const token = await issuer.sign({ sub: 'u-1', username: 'carol', role: 'user' });
        const res = await t.app.inject({ method: 'GET', url: '/git/tree', headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.statusCode, 200, res.body);
        const listing = GitTreeResponseSchema.parse(res.json());
        const head = git(dir, 'rev-parse', 'main').trim();
        assert.equal(listing.repository.head, head);
        const paths = git(dir, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n');
        assert.deepEqual(paths.sort(), ['a.py', 'c.py', 'd/b2.py', 'd/e.py', 'd/f.ts', 'g.py', 'keep.md', 'z/zz.json']);
        assert.deepEqual(
          listing.files.map((f) => f.path),
          ['a.py', 'c.py', 'd/b2.py', 'd/e.py', 'g.py', 'd/f.ts', 'keep.md', 'z/zz.json'],
        );
        for (const f of listing.files) {
          const at = Number(git(dir, 'log', '--first-parent', '-1', '--format=%at', 'main', '--', f.path).trim());
          assert.equal(f.modified, new Date(at * 1000).toISOString(), `${f.path} modified`);
          assert.equal(f.size, Number(git(dir, 'cat-file', '-s', `main:${f.path}`).trim()), `${f.path} size`);
        }
        // The cases above, spelled out: the undo at :8, the merges at :9 and :13, the re-add at :10, the edit back at :15.
        const hour = (mark: number) => new Date((1_700_000_000 + mark * 3600) * 1000).toISOString();
        const modified = new Map(listing.files.map((f) => [f.path, f.modified]));
        assert.equal(modified.get('a.py'), hour(8));
        assert.equal(modified.get('d/b2.py'), hour(3));
        assert.equal(modified.get('g.py'), hour(9));
        assert.equal(modified.get('c.py'), hour(10));
        assert.equal(modified.get('d/f.ts'), hour(7));
        assert.equal(modified.get('d/e.py'), hour(12));
        assert.equal(modified.get('keep.md'), hour(15));
      } finally {
        await t?.close();
      }
    });
  }
});
