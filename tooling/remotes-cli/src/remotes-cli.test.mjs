import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CONTRACTS_MAJOR } from '@tessera/contracts';
import { buildRemoteOrigin } from '../../remote-origin/remote-origin.mjs';
import { clearCanary, rollback, setCanary, setLive } from './commands.mjs';
import { readManifest, writeManifestAtomic } from './manifest-file.mjs';
import { checkRelease } from './release-check.mjs';

const bin = fileURLToPath(new URL('../bin/remotes.mjs', import.meta.url));
const run = promisify(execFile);

/** A release folder as the release command writes it (only what the checks read). */
async function writeRelease(releases, version, { contractsMajor = CONTRACTS_MAJOR, remote = 'mfe-chat' } = {}) {
  const dir = path.join(releases, version);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({ id: 'mfe_chat', metaData: { name: 'mfe_chat', tessera: { remote, version, contractsMajor } } }),
  );
  await writeFile(path.join(dir, 'remoteEntry.js'), '/* entry */');
}

let root;
let origin;
let base;
let file;
const check = (release) => checkRelease(release);

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tessera-remotes-cli-'));
  const releases = path.join(root, 'releases', 'mfe-chat');
  await writeRelease(releases, '1.0.0');
  await writeRelease(releases, '1.1.0');
  await writeRelease(releases, '1.2.0');
  await writeRelease(releases, '2.0.0', { contractsMajor: CONTRACTS_MAJOR + 1 });
  await writeRelease(releases, '3.0.0', { remote: 'mfe-git' });
  origin = await buildRemoteOrigin({ name: 'mfe-chat', releases, logLevel: 'silent' });
  base = await origin.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await origin?.close();
  await rm(root, { recursive: true, force: true });
});

const url = (v) => `${base}/${v}/mf-manifest.json`;
const initial = () => ({
  remotes: {
    'mfe-chat': { live: { version: '1.0.0', manifest: url('1.0.0') } },
    'mfe-git': { live: { version: '0.1.0', manifest: 'http://localhost:3003/0.1.0/mf-manifest.json' } },
  },
});

beforeEach(async () => {
  file = path.join(root, 'remotes.json');
  await writeFile(file, JSON.stringify(initial(), null, 2));
});

describe('remotes set / rollback', () => {
  test('set makes the version live from the same origin and keeps the old one as previous', async () => {
    const { manifest } = await setLive(initial(), 'mfe-chat', '1.1.0', { check });
    assert.deepEqual(manifest.remotes['mfe-chat'], {
      live: { version: '1.1.0', manifest: url('1.1.0') },
      previous: { version: '1.0.0', manifest: url('1.0.0') },
    });
    assert.deepEqual(manifest.remotes['mfe-git'], initial().remotes['mfe-git']);
  });

  test('an unknown version is refused', async () => {
    await assert.rejects(setLive(initial(), 'mfe-chat', '9.9.9', { check }), /mfe-chat has no release 9\.9\.9 at .*\(404\)/);
  });

  test('a release built against another contracts major is refused', async () => {
    await assert.rejects(
      setLive(initial(), 'mfe-chat', '2.0.0', { check }),
      new RegExp(`built against contracts major ${CONTRACTS_MAJOR + 1}; the shell runs major ${CONTRACTS_MAJOR}: refused`),
    );
  });

  test("another remote's build, an unknown remote and an origin that is down are refused", async () => {
    await assert.rejects(setLive(initial(), 'mfe-chat', '3.0.0', { check }), /is a release of mfe-git, not mfe-chat/);
    await assert.rejects(setLive(initial(), 'mfe-nope', '1.0.0', { check }), /unknown remote "mfe-nope"/);
    await assert.rejects(
      setLive(initial(), 'mfe-chat', '1.1.0', { origin: 'http://127.0.0.1:9', check }),
      /cannot load http:\/\/127\.0\.0\.1:9\/1\.1\.0\/mf-manifest\.json/,
    );
  });

  test('rollback makes the previous release live again; without one it is refused', async () => {
    const { manifest: set } = await setLive(initial(), 'mfe-chat', '1.1.0', { check });
    const { manifest } = await rollback(set, 'mfe-chat', { check });
    assert.deepEqual(manifest.remotes['mfe-chat'], { live: { version: '1.0.0', manifest: url('1.0.0') } });
    await assert.rejects(rollback(manifest, 'mfe-chat', { check }), /no previous release to roll back to \(live: 1\.0\.0\)/);
  });
});

describe('remotes canary', () => {
  test('a canary for a percentage of listed users; set of that version promotes it', async () => {
    const { manifest } = await setCanary(initial(), 'mfe-chat', '1.1.0', '100', { users: 'u1, u2,u1', check });
    assert.deepEqual(manifest.remotes['mfe-chat']?.canary, { version: '1.1.0', manifest: url('1.1.0'), percent: 100, userIds: ['u1', 'u2'] });
    const promoted = await setLive(manifest, 'mfe-chat', '1.1.0', { check });
    assert.equal(promoted.manifest.remotes['mfe-chat']?.canary, undefined);
    assert.equal(promoted.manifest.remotes['mfe-chat']?.live.version, '1.1.0');
    assert.equal(clearCanary(manifest, 'mfe-chat').manifest.remotes['mfe-chat']?.canary, undefined);
  });

  test('bad percentages, the live version, an empty user list and an incompatible release are refused', async () => {
    for (const p of ['101', '-1', '12.5', 'ten', '']) {
      await assert.rejects(setCanary(initial(), 'mfe-chat', '1.1.0', p, { check }), /percent must be a whole number from 0 to 100/);
    }
    await assert.rejects(setCanary(initial(), 'mfe-chat', '1.0.0', '10', { check }), /already live; a canary must be another version/);
    await assert.rejects(setCanary(initial(), 'mfe-chat', '1.1.0', '10', { users: ' , ', check }), /--users needs at least one user id/);
    await assert.rejects(setCanary(initial(), 'mfe-chat', '2.0.0', '10', { check }), /refused/);
  });
});

describe('remotes.json writes', () => {
  test('a crash mid-write leaves the old file intact and no temp file behind', async () => {
    const before = await readFile(file, 'utf8');
    const { manifest } = await setLive(initial(), 'mfe-chat', '1.1.0', { check });
    const crash = async (handle, text) => {
      await handle.writeFile(text.slice(0, 40));
      throw new Error('disk full');
    };
    await assert.rejects(writeManifestAtomic(file, manifest, { writeContent: crash }), /disk full/);
    assert.equal(await readFile(file, 'utf8'), before);
    assert.deepEqual((await readdir(root)).filter((f) => f.includes('remotes.json')), ['remotes.json']);
    await writeManifestAtomic(file, manifest);
    assert.equal((await readManifest(file)).remotes['mfe-chat']?.live.version, '1.1.0');
  });

  test('an invalid manifest is never written', async () => {
    const bad = { remotes: { 'mfe-chat': { live: { version: '1.0.0', manifest: 'ftp://x/mf-manifest.json' } } } };
    await assert.rejects(writeManifestAtomic(file, bad));
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), initial());
  });
});

describe('npm run remotes (the command)', () => {
  const remotes = (...args) => run(process.execPath, [bin, ...args, '--file', file]);

  test('set, list, rollback and canary edit the file; refusals exit 1 and leave it alone', async () => {
    assert.match((await remotes('set', 'mfe-chat', '1.1.0')).stdout, /mfe-chat: live 1\.1\.0, previous 1\.0\.0/);
    const list = (await remotes('list')).stdout;
    assert.match(list, /live {6}1\.1\.0/);
    assert.match(list, /previous {2}1\.0\.0/);
    assert.match(list, /released {2}1\.0\.0, 1\.1\.0, 1\.2\.0, 2\.0\.0, 3\.0\.0/);

    const refused = await remotes('set', 'mfe-chat', '2.0.0').catch((e) => e);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused/);
    assert.equal((await readManifest(file)).remotes['mfe-chat']?.live.version, '1.1.0');

    await remotes('canary', 'mfe-chat', '1.2.0', '100', '--users', 'u1');
    assert.equal((await readManifest(file)).remotes['mfe-chat']?.canary?.percent, 100);
    await remotes('canary', 'mfe-chat', 'off');
    assert.equal((await readManifest(file)).remotes['mfe-chat']?.canary, undefined);

    assert.match((await remotes('rollback', 'mfe-chat')).stdout, /rolled back from 1\.1\.0 to 1\.0\.0/);
    assert.equal((await readManifest(file)).remotes['mfe-chat']?.live.version, '1.0.0');
  });

  test('for a shell served over https (--shell-origin or SHELL_ORIGIN) a release over http is refused, exit 1, file untouched', async () => {
    const before = await readFile(file, 'utf8');
    for (const args of [
      ['set', 'mfe-chat', '1.1.0', '--shell-origin', 'https://tessera.example'],
      ['canary', 'mfe-chat', '1.2.0', '10', '--shell-origin', 'https://tessera.example'],
    ]) {
      const refused = await remotes(...args).catch((e) => e);
      assert.equal(refused.code, 1, args.join(' '));
      assert.equal(
        refused.stderr.trim(),
        `remotes: refused: ${base}/${args[2]}/mf-manifest.json is served over http://, but the shell is served over https://: a remote's scripts must be served over https too (the shell: https://tessera.example); pass --origin https://…`,
      );
    }
    const env = await run(process.execPath, [bin, 'set', 'mfe-chat', '1.1.0', '--file', file], { env: { ...process.env, SHELL_ORIGIN: 'https://tessera.example' } }).catch((e) => e);
    assert.equal(env.code, 1);
    assert.match(env.stderr, /is served over http:\/\/, but the shell is served over https:\/\//);
    assert.equal(await readFile(file, 'utf8'), before);
    // A shell over http takes it.
    assert.match((await remotes('set', 'mfe-chat', '1.1.0', '--shell-origin', 'http://localhost:3000')).stdout, /live 1\.1\.0/);
    const bad = await remotes('set', 'mfe-chat', '1.2.0', '--shell-origin', 'ftp://x').catch((e) => e);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /the shell origin must be an http:\/\/ or https:\/\/ URL, not "ftp:\/\/x"/);
  });

  test('usage errors exit 2', async () => {
    const e = await remotes('set', 'mfe-chat').catch((x) => x);
    assert.equal(e.code, 2);
    assert.match(e.stderr, /usage: npm run remotes -- /);
  });
});
