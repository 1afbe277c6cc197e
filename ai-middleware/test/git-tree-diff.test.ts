// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the git tree and diffs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ErrorBodySchema,
  GitCommitResponseSchema,
  GitConflictBodySchema,
  GitDiffResponseSchema,
  GitHistoryResponseSchema,
  GitTreeResponseSchema,
} from '@tessera/contracts';
import { GitRepository } from '../src/git/repository.service.js';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

type Change = { path: string; action: 'upsert' | 'delete'; content?: string };

describe('git: tree listing, diff and revert', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let token: string;
  let repoDir: string;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    repoDir = path.join(t.storage.dataDir, 'repo');
    token = await issuer.sign({ sub: 'u-1', username: 'carol', role: 'user' });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const head = async () => GitHistoryResponseSchema.parse((await call('GET', '/git/history?limit=1')).json()).history[0]?.hash ?? null;
  const commit = async (changes: Change[], message = 'change') => {
    const res = await call('POST', '/git/commits', { message, base_commit: await head(), changes });
    assert.equal(res.statusCode, 200, res.body);
    return GitCommitResponseSchema.parse(res.json()).commit_hash!;
  };
  const tree = async () => GitTreeResponseSchema.parse((await call('GET', '/git/tree')).json());

  test('an empty repository lists nothing', async () => {
    assert.deepEqual(await tree(), {
      files: [],
      tree: [],
      repository: { branch: 'main', head: null, empty: true },
      metadata: { total_files: 0, matched_files: 0, relaxed: false, truncated: false, cap: 300 },
    });
  });

  test('only other extensions: the relaxed list is used', async () => {
    await commit([
      { path: 'data.csv', action: 'upsert', content: 'a,b\n' },
      { path: 'conf/app.yaml', action: 'upsert', content: 'x: 1\n' },
      { path: 'refs/heads.csv', action: 'upsert', content: 'excluded\n' },
    ]);
    const listing = await tree();
    assert.equal(listing.metadata.relaxed, true);
    assert.deepEqual(listing.files.map((f) => f.path), ['conf/app.yaml', 'data.csv']);
  });

  test('listing rules: extensions, exclusions, .py first then by path, sizes and times, folder tree', async () => {
    const first = await commit([
      { path: 'README.md', action: 'upsert', content: '# readme\n' },
      { path: 'z_last.py', action: 'upsert', content: 'x = 1\n' },
      { path: 'src/app.ts', action: 'upsert', content: 'export {};\n' },
      { path: 'src/view.tsx', action: 'upsert', content: 'export {};\n' },
      { path: 'src/a.py', action: 'upsert', content: 'y = 2\n' },
      { path: 'web/x.js', action: 'upsert', content: '1\n' },
      { path: 'cmd/main.go', action: 'upsert', content: 'package main\n' },
      { path: 'cfg.json', action: 'upsert', content: '{}\n' },
      { path: 'notes.txt', action: 'upsert', content: 'n\n' },
      { path: 'image.png', action: 'upsert', content: 'not listed' },
      { path: 'objects/pack.py', action: 'upsert', content: 'excluded\n' },
      { path: 'logs/HEAD.txt', action: 'upsert', content: 'excluded\n' },
      { path: 'hooks/pre.py', action: 'upsert', content: 'excluded\n' },
      { path: 'info/exclude.txt', action: 'upsert', content: 'excluded\n' },
      { path: 'index', action: 'upsert', content: 'excluded\n' },
      { path: 'deep/objects/kept.py', action: 'upsert', content: 'kept: only top-level git folders are excluded\n' },
    ]);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await commit([{ path: 'src/a.py', action: 'upsert', content: 'y = 3 # longer\n' }]);
    const listing = await tree();
    assert.equal(listing.metadata.relaxed, false);
    assert.deepEqual(listing.files.map((f) => f.path), [
      'deep/objects/kept.py',
      'src/a.py',
      'z_last.py',
      'README.md',
      'cfg.json',
      'cmd/main.go',
      'notes.txt',
      'src/app.ts',
      'src/view.tsx',
      'web/x.js',
    ]);
    assert.equal(listing.metadata.total_files, 19);
    assert.equal(listing.metadata.matched_files, 10);
    assert.equal(listing.repository.head, second);
    const byPath = new Map(listing.files.map((f) => [f.path, f]));
    assert.equal(byPath.get('src/a.py')!.size, Buffer.byteLength('y = 3 # longer\n'));
    // modified = the time of the last commit that changed the file, as git log says.
    const timeOf = (c: string) => new Date(Number(execFileSync('git', ['-C', repoDir, 'log', '-1', '--format=%at', c], { encoding: 'utf8' })) * 1000).toISOString();
    assert.equal(byPath.get('src/a.py')!.modified, timeOf(second));
    assert.equal(byPath.get('z_last.py')!.modified, timeOf(first));
    assert.notEqual(timeOf(first), timeOf(second));
    assert.deepEqual(
      listing.tree.map((n) => [n.name, n.type]),
      [
        ['cmd', 'directory'],
        ['deep', 'directory'],
        ['src', 'directory'],
        ['web', 'directory'],
        ['README.md', 'file'],
        ['cfg.json', 'file'],
        ['notes.txt', 'file'],
        ['z_last.py', 'file'],
      ],
    );
    const src = listing.tree.find((n) => n.name === 'src')!;
    assert.deepEqual(src.children!.map((n) => n.path), ['src/a.py', 'src/app.ts', 'src/view.tsx']);
  });

  test('the file times are saved in the git folder and a new process reads them instead of walking history', async () => {
    const listing = await tree();
    const indexFile = path.join(repoDir, 'tessera', 'file-times.json');
    const saved = JSON.parse(readFileSync(indexFile, 'utf8')) as { version: number; head: string; cursor: string | null; times: [string, number][] };
    assert.equal(saved.head, listing.repository.head);
    const byPath = new Map(saved.times);
    for (const f of listing.files) assert.equal(new Date(byPath.get(f.path)! * 1000).toISOString(), f.modified);
    // Plant a marker: a fresh repository object must answer from the file, not from a new walk.
    writeFileSync(indexFile, JSON.stringify({ ...saved, times: saved.times.map(([p, t]) => [p, p === 'z_last.py' ? 42 : t]) }));
    const fresh = new GitRepository(repoDir);
    const files = await fresh.files(saved.head);
    const times = await fresh.fileTimes.at(saved.head, files.map((f) => f.path));
    assert.equal(times.get('z_last.py'), 42);
    writeFileSync(indexFile, JSON.stringify(saved));
    // git itself does not mind the extra folder.
    assert.equal(execFileSync('git', ['-C', repoDir, 'fsck', '--no-dangling'], { encoding: 'utf8' }).trim(), '');
  });

  test('the list is capped at 300', async () => {
    const many: Change[] = Array.from({ length: 320 }, (_, i) => ({ path: `bulk/f${String(i).padStart(3, '0')}.md`, action: 'upsert', content: `${i}\n` }));
    await commit(many);
    const listing = await tree();
    assert.equal(listing.files.length, 300);
    assert.equal(listing.metadata.truncated, true);
    assert.equal(listing.metadata.matched_files, 330);
    assert.deepEqual(listing.files.slice(0, 3).map((f) => f.path), ['deep/objects/kept.py', 'src/a.py', 'z_last.py']);
    assert.equal(listing.files[3].path, 'README.md');
    await commit(many.map((c) => ({ path: c.path, action: 'delete' as const })));
    assert.equal((await tree()).metadata.truncated, false);
  });

  test('diff: a unified diff that git apply accepts, per file or whole commit', async () => {
    const before = await head();
    const after = await commit([
      { path: 'src/a.py', action: 'upsert', content: 'y = 4\nz = 5\n' },
      { path: 'new.md', action: 'upsert', content: 'fresh\n' },
      { path: 'notes.txt', action: 'delete' },
    ]);
    const res = await call('GET', `/git/diff?from=${before}&to=${after}`);
    assert.equal(res.statusCode, 200, res.body);
    const diff = GitDiffResponseSchema.parse(res.json());
    assert.deepEqual(diff.files, [
      { path: 'new.md', status: 'added', additions: 1, deletions: 0 },
      { path: 'notes.txt', status: 'deleted', additions: 0, deletions: 1 },
      { path: 'src/a.py', status: 'modified', additions: 2, deletions: 1 },
    ]);
    // Default from = parent of to, default to = head.
    assert.deepEqual(GitDiffResponseSchema.parse((await call('GET', '/git/diff')).json()), diff);
    const one = GitDiffResponseSchema.parse((await call('GET', `/git/diff?to=${after}&path=src/a.py`)).json());
    assert.deepEqual(one.files.map((f) => f.path), ['src/a.py']);
    assert.match(one.diff, /^diff --git a\/src\/a.py b\/src\/a.py\n--- a\/src\/a.py\n\+\+\+ b\/src\/a.py\n@@ -1,1 \+1,2 @@\n-y = 3 # longer\n\+y = 4\n\+z = 5\n$/);

    // Check the patch against git itself: apply it to a checkout of `before`, compare with `after`.
    const work = mkdtempSync(path.join(tmpdir(), 'tessera-git-apply-'));
    try {
      execFileSync('git', ['clone', '-q', repoDir, work]);
      execFileSync('git', ['-C', work, 'checkout', '-q', before!]);
      const patchFile = `${work}.diff`;
      writeFileSync(patchFile, diff.diff);
      execFileSync('git', ['-C', work, 'apply', '--index', patchFile]);
      rmSync(patchFile);
      const changed = execFileSync('git', ['-C', work, 'diff', '--stat', after], { encoding: 'utf8' });
      assert.equal(changed.trim(), '', 'the tree after git apply equals the commit');
      assert.equal(readFileSync(path.join(work, 'src/a.py'), 'utf8'), 'y = 4\nz = 5\n');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    assert.equal((await call('GET', '/git/diff?to=abc')).statusCode, 400);
    assert.equal((await call('GET', '/git/diff?path=../x')).statusCode, 400);
  });

  test('revert: undoes a commit with a new one; 409 when its files changed again since', async () => {
    const target = await commit([
      { path: 'rev/a.py', action: 'upsert', content: 'a = 1\n' },
      { path: 'README.md', action: 'upsert', content: '# readme v2\n' },
    ], 'Touch a and readme');
    const res = await call('POST', '/git/revert-commit', { commit: target });
    assert.equal(res.statusCode, 200, res.body);
    const reverted = GitCommitResponseSchema.parse(res.json());
    assert.equal(reverted.committed, true);
    assert.deepEqual(reverted.file_results.map((r) => [r.path, r.status, r.message]), [
      ['README.md', 'applied', 'Updated'],
      ['rev/a.py', 'applied', 'Deleted'],
    ]);
    const readme = await call('GET', '/git/code-content?identifier=README.md');
    assert.equal(readme.json().content, '# readme\n');
    assert.equal((await call('GET', '/git/code-content?identifier=rev/a.py')).statusCode, 404);
    const log = execFileSync('git', ['-C', repoDir, 'log', '-1', '--format=%an%n%B'], { encoding: 'utf8' });
    assert.equal(log.trim(), `carol\nRevert "Touch a and readme"\n\nThis reverts commit ${target}.`);

    // Reverting the same commit again: README.md changed since (by the revert) → conflict.
    const again = await call('POST', '/git/revert-commit', { commit: target });
    assert.equal(again.statusCode, 409);
    const conflict = GitConflictBodySchema.parse(again.json());
    assert.deepEqual(conflict.error.details.changed_files, ['README.md', 'rev/a.py']);
    // The revert itself can be reverted: the files come back.
    const redo = await call('POST', '/git/revert-commit', { commit: reverted.commit_hash, message: 'Bring them back' });
    assert.equal(redo.statusCode, 200, redo.body);
    assert.equal((await call('GET', '/git/code-content?identifier=rev/a.py')).json().content, 'a = 1\n');
    const missing = await call('POST', '/git/revert-commit', { commit: 'f'.repeat(40) });
    assert.equal(missing.statusCode, 404);
    assert.equal(ErrorBodySchema.parse(missing.json()).error.code, 'commit_not_found');
    assert.equal((await call('POST', '/git/revert-commit', {})).statusCode, 400);
  });
});
