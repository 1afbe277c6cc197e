import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ErrorBodySchema,
  GitCommitResponseSchema,
  GitConflictBodySchema,
  GitFileContentSchema,
  GitHistoryResponseSchema,
  GitCommitGraphResponseSchema,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

interface Change {
  path: string;
  action: 'upsert' | 'delete';
  content?: string;
}

describe('git: commits, conflicts and the git command line', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: string;
  let bob: string;
  let repoDir: string;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    repoDir = path.join(t.storage.dataDir, 'repo');
    alice = await issuer.sign({ sub: 'u-1', username: 'alice', role: 'admin' });
    bob = await issuer.sign({ sub: 'u-2', username: 'bob', role: 'user' });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, token = alice) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const commit = (base: string | null, changes: Change[], extra: object = {}, token = alice) =>
    call('POST', '/git/commits', { message: 'msg', base_commit: base, changes, ...extra }, token);
  const head = async () => GitHistoryResponseSchema.parse((await call('GET', '/git/history?limit=1')).json()).history[0]?.hash ?? null;
  const cli = (...args: string[]) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8' });

  test('an empty repository: empty history and tree, and base_commit null is accepted', async () => {
    const history = GitHistoryResponseSchema.parse((await call('GET', '/git/history')).json());
    assert.deepEqual(history, { history: [], count: 0, empty_repo: true });
    const res = await commit(null, [{ path: 'main.py', action: 'upsert', content: 'print("hi")\n' }], { message: 'Create main.py' });
    assert.equal(res.statusCode, 200, res.body);
    const body = GitCommitResponseSchema.parse(res.json());
    assert.match(body.commit_hash ?? '', /^[0-9a-f]{40}$/);
    assert.equal(body.committed, true);
    assert.deepEqual(body.file_results, [{ path: 'main.py', status: 'applied', message: 'Created' }]);
    assert.equal(await head(), body.commit_hash);
  });

  test('update, unchanged, delete and a sheetVersion trailer; each result says what happened', async () => {
    const base = await head();
    const res = await commit(
      base,
      [
        { path: 'main.py', action: 'upsert', content: 'print("hi")\n' },
        { path: 'lib/util.ts', action: 'upsert', content: 'export const x = 1;\n' },
        { path: 'gone.txt', action: 'delete' },
      ],
      { message: 'Add util', sheetVersion: 7 },
    );
    assert.equal(res.statusCode, 200, res.body);
    const body = GitCommitResponseSchema.parse(res.json());
    assert.deepEqual(
      body.file_results.map((r) => [r.path, r.status]),
      [
        ['main.py', 'skipped'],
        ['lib/util.ts', 'applied'],
        ['gone.txt', 'skipped'],
      ],
    );
    const history = GitHistoryResponseSchema.parse((await call('GET', '/git/history')).json());
    assert.equal(history.count, 2);
    assert.equal(history.empty_repo, false);
    assert.deepEqual(
      history.history.map((c) => [c.message, c.sheetVersion, c.author, c.email]),
      [
        ['Add util', 7, 'alice', 'alice@tessera.local'],
        ['Create main.py', null, 'alice', 'alice@tessera.local'],
      ],
    );
    // The trailer is really in the stored message, where git's own tools read it.
    assert.equal(cli('log', '-1', '--format=%(trailers:key=Sheet-Version,valueonly)').trim(), '7');

    const del = await commit(body.commit_hash, [{ path: 'main.py', action: 'delete' }], { message: 'Remove main' }, bob);
    assert.equal(del.statusCode, 200, del.body);
    assert.deepEqual(GitCommitResponseSchema.parse(del.json()).file_results, [{ path: 'main.py', status: 'applied', message: 'Deleted' }]);
    const missing = await call('GET', '/git/code-content?identifier=main.py');
    assert.equal(missing.statusCode, 404);
    assert.equal(ErrorBodySchema.parse(missing.json()).error.code, 'file_not_found');
    // Still readable at the commit that had it.
    const old = await call('GET', `/git/code-content?identifier=main.py&commit=${body.commit_hash!.slice(0, 8)}`);
    assert.equal(old.statusCode, 200, old.body);
    assert.equal(GitFileContentSchema.parse(old.json()).content, 'print("hi")\n');
  });

  test('a commit where every change is skipped makes no commit', async () => {
    const base = await head();
    const res = await commit(base, [{ path: 'lib/util.ts', action: 'upsert', content: 'export const x = 1;\n' }]);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(GitCommitResponseSchema.parse(res.json()), {
      commit_hash: base,
      committed: false,
      file_results: [{ path: 'lib/util.ts', status: 'skipped', message: 'Unchanged' }],
    });
    assert.equal(await head(), base);
  });

  test('two writers from the same base: one commits, the other gets 409 naming the files changed since', async () => {
    const base = await head();
    const [a, b] = await Promise.all([
      commit(base, [{ path: 'shared.md', action: 'upsert', content: '# from alice\n' }], { message: 'alice edit' }, alice),
      commit(base, [{ path: 'shared.md', action: 'upsert', content: '# from bob\n' }], { message: 'bob edit' }, bob),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    assert.deepEqual(statuses, [200, 409]);
    const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
    const conflict = GitConflictBodySchema.parse(lost.json());
    assert.equal(conflict.error.code, 'conflict');
    assert.equal(conflict.error.details.base_commit, base);
    assert.equal(conflict.error.details.head_commit, GitCommitResponseSchema.parse(won.json()).commit_hash);
    assert.deepEqual(conflict.error.details.changed_files, ['shared.md']);
    // The repository holds exactly the winner's commit on top of the base.
    const history = GitHistoryResponseSchema.parse((await call('GET', '/git/history?limit=2')).json()).history;
    assert.equal(history[1].hash, base);
    assert.equal(cli('fsck', '--strict', '--no-dangling').trim(), '');
    // A stale or missing base on a non-empty repository is a conflict too.
    assert.equal((await commit(null, [{ path: 'x.txt', action: 'upsert', content: 'x' }])).statusCode, 409);
    assert.equal((await commit(base, [{ path: 'x.txt', action: 'upsert', content: 'x' }])).statusCode, 409);
  });

  test('many writers at once never corrupt the repository: each commit either lands or is refused', async () => {
    let base: string | null = await head();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => commit(base, [{ path: `w/${i}.txt`, action: 'upsert', content: `${i}\n` }], { message: `w${i}` })),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1);
    assert.equal(results.filter((r) => r.statusCode === 409).length, 7);
    // Writers that retry on the new head all land, one after the other.
    for (let i = 0; i < 4; i += 1) {
      base = await head();
      assert.equal((await commit(base, [{ path: `seq/${i}.txt`, action: 'upsert', content: `${i}` }], { message: `seq ${i}` })).statusCode, 200);
    }
    assert.equal(cli('fsck', '--strict', '--no-dangling').trim(), '');
  });

  test('path attacks and oversize files are refused with a clear 400, and nothing changes', async () => {
    const base = await head();
    const cases: [string, string][] = [
      ['../escape.py', 'invalid_path'],
      ['a/../../escape.py', 'invalid_path'],
      ['/etc/passwd', 'invalid_path'],
      ['C:/windows/x.py', 'invalid_path'],
      ['.git/config', 'invalid_path'],
      ['src/.git/hooks/pre-commit', 'invalid_path'],
      ['.GIT/HEAD', 'invalid_path'],
      ['a\0b.py', 'invalid_path'],
      ['a\\b.py', 'invalid_path'],
      ['a//b.py', 'invalid_path'],
      ['dir/', 'invalid_path'],
      ['./a.py', 'invalid_path'],
    ];
    for (const [p, code] of cases) {
      const res = await commit(base, [{ path: p, action: 'upsert', content: 'x' }]);
      assert.equal(res.statusCode, 400, `${JSON.stringify(p)}: ${res.body}`);
      const error = ErrorBodySchema.parse(res.json()).error;
      assert.equal(error.code, code);
      assert.match(error.message, /is refused: /);
    }
    const big = await commit(base, [{ path: 'big.txt', action: 'upsert', content: 'x'.repeat(1024 * 1024 + 1) }]);
    assert.equal(big.statusCode, 400);
    assert.equal(ErrorBodySchema.parse(big.json()).error.code, 'file_too_large');
    assert.match(ErrorBodySchema.parse(big.json()).error.message, /limit is 1048576 bytes \(1 MB\)/);
    const atLimit = await commit(base, [{ path: 'ok.txt', action: 'upsert', content: 'é'.repeat(512 * 1024) }], {}, alice);
    assert.equal(atLimit.statusCode, 200, 'exactly 1 MB of UTF-8 is allowed');
    const after1 = await head();

    const dup = await commit(after1, [
      { path: 'd.txt', action: 'upsert', content: '1' },
      { path: 'd.txt', action: 'delete' },
    ]);
    assert.equal(ErrorBodySchema.parse(dup.json()).error.code, 'duplicate_path');
    const underFile = await commit(after1, [{ path: 'ok.txt/inner.py', action: 'upsert', content: 'x' }]);
    assert.equal(underFile.statusCode, 400);
    assert.equal(ErrorBodySchema.parse(underFile.json()).error.code, 'path_conflict');
    const overFolder = await commit(after1, [{ path: 'lib', action: 'upsert', content: 'x' }]);
    assert.equal(ErrorBodySchema.parse(overFolder.json()).error.code, 'path_conflict');
    for (const payload of [
      { message: '', base_commit: after1, changes: [{ path: 'a.py', action: 'upsert', content: '' }] },
      { message: 'm', base_commit: after1, changes: [] },
      { message: 'm', base_commit: after1, changes: [{ path: 'a.py', action: 'rename', content: '' }] },
      { message: 'm', base_commit: after1, changes: [{ path: 'a.py', action: 'upsert' }] },
      { message: 'm', base_commit: after1, changes: [{ path: 'a.py', action: 'upsert', content: '' }], sheetVersion: -1 },
    ]) {
      const res = await call('POST', '/git/commits', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'validation_failed');
    }
    for (const q of ['identifier=../x.py', 'identifier=.git/config', 'identifier=%2Fetc%2Fpasswd']) {
      const res = await call('GET', `/git/code-content?${q}`);
      assert.equal(res.statusCode, 400, q);
      assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'invalid_path');
    }
    assert.equal(await head(), after1);
    assert.equal(cli('ls-tree', '-r', '--name-only', 'HEAD').split('\n').some((l) => l.includes('escape') || l.startsWith('.git')), false);
  });

  test('unknown and malformed commits: 404 and 400', async () => {
    const unknown = await call('GET', `/git/code-content?identifier=ok.txt&commit=${'0'.repeat(40)}`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(ErrorBodySchema.parse(unknown.json()).error.code, 'commit_not_found');
    const bad = await call('GET', '/git/code-content?identifier=ok.txt&commit=not-a-hash');
    assert.equal(bad.statusCode, 400);
    assert.equal(ErrorBodySchema.parse(bad.json()).error.code, 'invalid_commit');
    assert.equal((await call('GET', '/git/history?limit=0')).statusCode, 400);
    assert.equal((await call('GET', '/git/history?limit=abc')).statusCode, 400);
  });

  test('the git command line agrees with /git/history, /git/commit-graph and /git/code-content', async () => {
    let base: string | null = await head();
    for (let i = 1; i <= 5; i += 1) {
      const res = await commit(
        base,
        [
          { path: 'src/model.py', action: 'upsert', content: `def f():\n    return ${i}\n` },
          { path: `notes/n${i}.md`, action: 'upsert', content: `# note ${i}\nümlaut ✓\n` },
        ],
        { message: `Step ${i}\n\nBody of step ${i}.`, sheetVersion: 100 + i },
        i % 2 ? alice : bob,
      );
      assert.equal(res.statusCode, 200, res.body);
      base = GitCommitResponseSchema.parse(res.json()).commit_hash;
    }
    const api = GitHistoryResponseSchema.parse((await call('GET', '/git/history?limit=50')).json()).history;
    const log = cli('log', '--format=%H%x1f%an%x1f%ae%x1f%at%x1f%P%x1f%B%x1e', 'main')
      .split('\x1e')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => s.split('\x1f'));
    assert.equal(api.length, log.length);
    api.forEach((c, i) => {
      const [hash, an, ae, at, parents, body] = log[i];
      assert.equal(c.hash, hash);
      assert.equal(c.author, an);
      assert.equal(c.email, ae);
      assert.equal(Date.parse(c.timestamp) / 1000, Number(at));
      assert.deepEqual(c.parents, parents ? parents.split(' ') : []);
      const trailer = /\n\nSheet-Version: (\d+)$/.exec(body);
      assert.equal(c.sheetVersion, trailer ? Number(trailer[1]) : null);
      assert.equal(c.message, trailer ? body.slice(0, trailer.index) : body);
    });
    const graph = GitCommitGraphResponseSchema.parse((await call('GET', '/git/commit-graph?limit=200')).json());
    assert.deepEqual(graph.commits.map((c) => c.hash), log.map((l) => l[0]));
    assert.equal(graph.head, log[0][0]);
    // Every file at every one of the last commits reads the same through the API and `git show`.
    for (const c of api.slice(0, 4)) {
      for (const file of cli('ls-tree', '-r', '--name-only', c.hash).trim().split('\n')) {
        const res = await call('GET', `/git/code-content?identifier=${encodeURIComponent(file)}&commit=${c.hash}`);
        assert.equal(res.statusCode, 200, `${file}@${c.hash}`);
        const content = GitFileContentSchema.parse(res.json());
        assert.equal(content.content, cli('show', `${c.hash}:${file}`), `${file}@${c.hash}`);
        assert.equal(content.commit_hash, c.hash);
      }
    }
    // File history: the commits that touched src/model.py, as `git log -- path` lists them.
    const fileApi = GitHistoryResponseSchema.parse((await call('GET', '/git/history?identifier=src/model.py&limit=3')).json());
    assert.deepEqual(fileApi.history.map((c) => c.hash), cli('log', '-3', '--format=%H', '--', 'src/model.py').trim().split('\n'));
    const mainPy = GitHistoryResponseSchema.parse((await call('GET', '/git/history?identifier=main.py')).json());
    assert.deepEqual(mainPy.history.map((c) => c.hash), cli('log', '--format=%H', '--', 'main.py').trim().split('\n'));
    assert.equal(cli('fsck', '--strict', '--no-dangling').trim(), '');
    assert.equal(cli('symbolic-ref', 'HEAD').trim(), 'refs/heads/main');
  });
});
