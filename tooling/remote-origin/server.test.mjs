import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildRemoteOrigin } from './remote-origin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

async function writeBuild(dir, label) {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'mf-manifest.json'), JSON.stringify({ id: label }));
  await writeFile(path.join(dir, 'remoteEntry.js'), `/* ${label} entry */`);
  await writeFile(path.join(dir, '__federation_expose_Navigator.0123abcd89.js'), `/* ${label} chunk */`);
  await writeFile(path.join(dir, 'index.html'), `<p>${label} dev page</p>`);
}

describe('remote origin', () => {
  let root;
  let app;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tessera-remote-origin-'));
    await writeBuild(path.join(root, 'dist'), 'dist-0.2.0');
    await writeBuild(path.join(root, 'releases', '0.1.0'), 'release-0.1.0');
    await writeFile(path.join(root, 'secret.txt'), 'outside');
    app = await buildRemoteOrigin({
      name: 'mfe-sheets',
      dist: path.join(root, 'dist'),
      version: '0.2.0',
      releases: path.join(root, 'releases'),
      shellOrigins: ['http://localhost:3000'],
      logLevel: 'silent',
    });
  });
  after(async () => {
    await app?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  test("serves the dist under /<version>/ with CORS for the shell's origin only", async () => {
    const res = await app.inject({ url: '/0.2.0/mf-manifest.json', headers: { origin: 'http://localhost:3000' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id: 'dist-0.2.0' });
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.match(String(res.headers.vary), /Origin/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const other = await app.inject({ url: '/0.2.0/mf-manifest.json', headers: { origin: 'http://evil.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  test('remoteEntry.js is revalidated, hashed chunks are cached for a year', async () => {
    const entry = await app.inject({ url: '/0.2.0/remoteEntry.js' });
    assert.equal(entry.statusCode, 200);
    assert.equal(entry.headers['cache-control'], 'no-cache');
    assert.match(String(entry.headers['content-type']), /javascript/);
    const chunk = await app.inject({ url: '/0.2.0/__federation_expose_Navigator.0123abcd89.js' });
    assert.equal(chunk.statusCode, 200);
    assert.equal(chunk.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  test('each folder of --releases is served under its own version, even one added after start', async () => {
    const old = await app.inject({ url: '/0.1.0/mf-manifest.json' });
    assert.deepEqual(old.json(), { id: 'release-0.1.0' });
    assert.equal((await app.inject({ url: '/0.3.0/mf-manifest.json' })).statusCode, 404);
    await writeBuild(path.join(root, 'releases', '0.3.0'), 'release-0.3.0');
    assert.deepEqual((await app.inject({ url: '/0.3.0/mf-manifest.json' })).json(), { id: 'release-0.3.0' });
    assert.deepEqual((await app.inject({ url: '/' })).json(), { name: 'mfe-sheets', versions: ['0.1.0', '0.2.0', '0.3.0'] });
  });

  test('/<version>/ serves the standalone page; unknown versions and files are 404', async () => {
    const page = await app.inject({ url: '/0.2.0/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /dist-0\.2\.0 dev page/);
    assert.equal((await app.inject({ url: '/9.9.9/remoteEntry.js' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/0.2.0/nope.js' })).statusCode, 404);
  });

  test('/<version> redirects only for a known release', async () => {
    const ok = await app.inject({ url: '/0.2.0' });
    assert.equal(ok.statusCode, 302);
    assert.equal(ok.headers.location, '/0.2.0/');
    const evil = await app.inject({ url: '/%2F%2Fevil.example' });
    assert.equal(evil.statusCode, 404);
    assert.equal(evil.headers.location, undefined);
  });

  test('no path leaves the release folders', async () => {
    for (const url of ['/0.2.0/../secret.txt', '/0.2.0/%2e%2e/secret.txt', '/..%2fsecret.txt/x', '/0.2.0/..%2f..%2fsecret.txt']) {
      const res = await app.inject({ url });
      assert.notEqual(res.statusCode, 200, url);
      assert.doesNotMatch(res.body, /outside/, url);
    }
  });

  test('a preflight from a host page is answered', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/0.2.0/mf-manifest.json',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:3000');
    const other = await app.inject({
      method: 'OPTIONS',
      url: '/0.2.0/mf-manifest.json',
      headers: { origin: 'http://localhost:4000', 'access-control-request-method': 'GET' },
    });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  test('without a shell origin any page may fetch (a bare local run)', async () => {
    const open = await buildRemoteOrigin({ name: 'm', dist: path.join(root, 'dist'), version: '0.2.0', logLevel: 'silent' });
    try {
      const res = await open.inject({ url: '/0.2.0/remoteEntry.js', headers: { origin: 'http://localhost:3300' } });
      assert.equal(res.headers['access-control-allow-origin'], '*');
    } finally {
      await open.close();
    }
  });

  test('bad options are refused with a clear message', async () => {
    await assert.rejects(buildRemoteOrigin({ dist: 'x', version: '1.0.0' }), /--name is required/);
    await assert.rejects(buildRemoteOrigin({ name: 'm' }), /--dist DIR --version V, or --releases DIR/);
    await assert.rejects(buildRemoteOrigin({ name: 'm', dist: 'x' }), /--dist needs --version/);
    await assert.rejects(buildRemoteOrigin({ name: 'm', dist: 'x', version: '../x' }), /letters, digits/);
    await assert.rejects(
      buildRemoteOrigin({ name: 'm', dist: 'x', version: '1.0.0', shellOrigins: ['http://localhost:3000/app'] }),
      /bare origin/,
    );
    await assert.rejects(buildRemoteOrigin({ name: 'm', dist: 'x', version: '1.0.0', shellOrigins: ['*'] }), /not a URL/);
  });
});

describe('remote origin CLI', () => {
  test('starts from its arguments on loopback and serves the release', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tessera-remote-origin-cli-'));
    await writeBuild(path.join(root, 'dist'), 'cli');
    const child = spawn(process.execPath, [
      path.join(here, 'server.mjs'), '--name', 'mfe-chat', '--port', '0', '--dist', path.join(root, 'dist'), '--version', '1.2.3', '--host', '127.0.0.1',
      '--shell-origin', 'http://localhost:3000,http://127.0.0.1:3000',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${base}/1.2.3/mf-manifest.json`, { headers: { origin: 'http://127.0.0.1:3000' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), 'http://127.0.0.1:3000');
      assert.deepEqual(await res.json(), { id: 'cli' });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      await rm(root, { recursive: true, force: true });
    }
  });

  test('missing arguments exit 2 with the usage', async () => {
    const child = spawn(process.execPath, [path.join(here, 'server.mjs'), '--name', 'x'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /usage: server\.mjs/);
  });
});
