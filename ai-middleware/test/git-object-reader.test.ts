import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileTimes } from '../src/git/file-times.js';
import { GitRepository } from '../src/git/repository.service.js';
import { ObjectReader } from '../src/git/object-reader.js';
import { ObjectStore } from '../src/git/object-store.js';
import { listFiles } from '../src/git/tree-ops.js';

/**
 * The fast object reader and the lazy file times, checked against the git
 * command line on a history git itself wrote and packed (deltas included).
 */
describe('git: object reader and file times against git', () => {
  let work: string;
  let repoDir: string;
  const git = (...args: string[]) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tessera-git-reader-'));
    repoDir = path.join(work, 'repo.git');
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', repoDir]);
    // 40 files in 4 folders, then 120 commits each editing one file (some files never edited again).
    const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
    let time = 1_700_000_000;
    const header = (n: number, msg: string) =>
      `commit refs/heads/main\nmark :${n}\nauthor Ann <ann@x.test> ${time} +0100\ncommitter Ann <ann@x.test> ${time++} +0100\n${data(msg)}`;
    const name = (i: number) => `d${i % 4}/f${i}.${['py', 'ts', 'md'][i % 3]}`;
    const chunks = [header(1, 'Initial\n')];
    for (let i = 0; i < 40; i += 1) chunks.push(`M 100644 inline ${name(i)}\n${data(`line ${i}\n`.repeat(50))}`);
    for (let n = 2; n <= 120; n += 1) {
      const i = (n * 7) % 30;
      chunks.push(`${header(n, `Edit ${n}\n\nbody ${n}\n`)}from :${n - 1}\nM 100644 inline ${name(i)}\n${data(`line ${i}\n`.repeat(50) + `edit ${n}\n`)}`);
    }
    const run = spawnSync('git', ['-C', repoDir, 'fast-import', '--quiet'], { input: chunks.join('') });
    assert.equal(run.status, 0, run.stderr?.toString());
    git('gc', '-q', '--aggressive');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('every object of a packed repository reads as git cat-file gives it', () => {
    const reader = new ObjectReader(repoDir);
    const all = git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)').trim().split('\n');
    assert.ok(all.length > 300);
    const deltas = execFileSync('sh', ['-c', 'git verify-pack -v objects/pack/*.idx'], { cwd: repoDir, encoding: 'utf8' });
    assert.match(deltas, /chain length = [1-9]/, 'the pack holds deltas');
    for (const line of all) {
      const [oid, type] = line.split(' ');
      const object = reader.read(oid);
      assert.ok(object, oid);
      assert.equal(object.type, type);
      assert.ok(execFileSync('git', ['-C', repoDir, 'cat-file', type, oid]).equals(object.content), `${type} ${oid}`);
    }
    // Sizes from the headers alone (a delta's result size, not its base's), on a fresh reader: nothing read whole before.
    const sizes = new ObjectReader(repoDir);
    const expected = git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objectsize)').trim().split('\n');
    for (const line of expected) {
      const [oid, size] = line.split(' ');
      assert.equal(sizes.size(oid), Number(size), oid);
    }
  });

  test('a small cache, started over again and again, gives the same objects, and those handed out stay as they were', () => {
    // Objects are kept in shared buffers never written again: what a read returned must not change under later reads.
    const all = git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').trim().split('\n');
    const whole = new ObjectReader(repoDir);
    const small = new ObjectReader(repoDir, { cacheBytes: 16 * 1024 });
    const expected = all.map((oid) => Buffer.from(whole.read(oid)!.content));
    const handedOut = [...all, ...all.slice().reverse()].map((oid) => small.read(oid)!.content);
    handedOut.forEach((content, i) => assert.ok(content.equals(expected[i < all.length ? i : 2 * all.length - 1 - i]), all[i % all.length]));
  });

  test('commits and trees parse as git shows them', async () => {
    const store = new ObjectStore(repoDir);
    const head = git('rev-parse', 'main').trim();
    const commit = await store.commit(head);
    assert.equal(commit.tree, git('rev-parse', 'main^{tree}').trim());
    assert.deepEqual(commit.parent, [git('rev-parse', 'main~1').trim()]);
    assert.equal(commit.author.timestamp, Number(git('log', '-1', '--format=%at', head)));
    assert.equal(commit.author.timezoneOffset, -60);
    assert.equal(commit.message, git('log', '-1', '--format=%B', head).replace(/\n$/, ''));
    const files = await listFiles(store, commit.tree);
    assert.deepEqual(files.map((f) => f.path).sort(), git('ls-tree', '-r', '--name-only', head).trim().split('\n').sort());
  });

  test('file times: each file asked for gets the time git log gives, walking only as far as needed', async () => {
    const store = new ObjectStore(repoDir);
    const head = git('rev-parse', 'main').trim();
    const files = (await listFiles(store, (await store.commit(head)).tree)).map((f) => f.path);
    const gitTime = (p: string) => Number(git('log', '-1', '--format=%at', 'main', '--', p).trim());
    const indexFile = path.join(work, 'times.json');
    const times = new FileTimes(store, indexFile);
    // A recently edited file: known after a short walk.
    const recent = git('log', '-1', '--name-only', '--format=', 'main').trim();
    assert.deepEqual([...(await times.at(head, [recent]))], [[recent, gitTime(recent)]]);
    // Then every file, including those only the root commit wrote: the walk resumes.
    const all = await times.at(head, files);
    for (const p of files) assert.equal(all.get(p), gitTime(p), p);
    // A fresh instance reads the saved walk.
    const again = await new FileTimes(store, indexFile).at(head, files);
    assert.deepEqual([...again].sort(), [...all].sort());
  });

  test('warm-up at start: the listed files\' times are worked out and saved before any request', async () => {
    const indexFile = path.join(repoDir, 'tessera', 'file-times.json');
    rmSync(indexFile, { force: true });
    const repo = new GitRepository(repoDir);
    await repo.warmUp();
    assert.ok(existsSync(indexFile));
    const saved = JSON.parse(readFileSync(indexFile, 'utf8')) as { head: string; times: [string, number][] };
    assert.equal(saved.head, git('rev-parse', 'main').trim());
    // 40 files, all listed (.py, .ts, .md): every one has its time.
    assert.equal(saved.times.length, 40);
    for (const [p, t] of saved.times) assert.equal(t, Number(git('log', '-1', '--format=%at', 'main', '--', p).trim()), p);
    rmSync(path.join(repoDir, 'tessera'), { recursive: true, force: true });
  });

  test('warm-up leaves a missing repository alone (it is created on first use)', async () => {
    const missing = path.join(work, 'not-yet');
    await new GitRepository(missing).warmUp();
    assert.equal(existsSync(missing), false);
  });
});

