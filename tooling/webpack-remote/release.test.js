import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { packageIdentity, publishRelease, releasesRoot } from './release.js';

const root = mkdtempSync(path.join(tmpdir(), 'tessera-release-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A built remote as webpack leaves it: mf-manifest.json with its build info, and chunks. */
function dist(name, tessera) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify({ id: 'mfe_chat', metaData: { name: 'mfe_chat', tessera } }));
  writeFileSync(path.join(dir, 'remoteEntry.js'), '/* entry */');
  writeFileSync(path.join(dir, '217.01c9035b94.js'), '/* chunk */');
  writeFileSync(path.join(dir, 'assets', 'font.0123456789.ttf'), 'font');
  return dir;
}

describe('release', () => {
  const releasesDir = path.join(root, 'releases');
  const info = { remote: 'mfe-chat', version: '1.1.0', contractsMajor: 1 };

  test('publishes the build to releases/<remote>/<version>/, whole', () => {
    const target = publishRelease({ distDir: dist('a', info), releasesDir, ...info });
    assert.equal(target, path.join(releasesDir, 'mfe-chat', '1.1.0'));
    assert.deepEqual(readdirSync(target).sort(), ['217.01c9035b94.js', 'assets', 'mf-manifest.json', 'remoteEntry.js']);
    assert.equal(readFileSync(path.join(target, 'assets', 'font.0123456789.ttf'), 'utf8'), 'font');
  });

  test('a released version is immutable: publishing it again is refused', () => {
    assert.throws(
      () => publishRelease({ distDir: dist('b', info), releasesDir, ...info }),
      /mfe-chat 1\.1\.0 is already released .*releases are immutable: raise the version in package\.json/,
    );
  });

  test('a build that does not declare this remote, version and contracts major is refused', () => {
    const other = { ...info, version: '1.2.0' };
    assert.throws(() => publishRelease({ distDir: dist('c', { ...other, contractsMajor: 2 }), releasesDir, ...other }), /does not declare mfe-chat 1\.2\.0 \(contracts major 1\)/);
    assert.throws(() => publishRelease({ distDir: path.join(root, 'none'), releasesDir, ...other }), /has no mf-manifest\.json/);
  });

  test('a copy that fails half-way leaves no release behind (an origin never serves half of one)', () => {
    const other = { ...info, version: '1.3.0' };
    const dir = dist('d', other);
    execFileSync('mkfifo', [path.join(dir, 'zz-pipe')]);
    assert.throws(() => publishRelease({ distDir: dir, releasesDir, ...other }));
    assert.deepEqual(readdirSync(path.join(releasesDir, 'mfe-chat')), ['1.1.0']);
  });

  test('the identity comes from package.json; the folder from TESSERA_RELEASES_DIR or the workspace root', () => {
    const pkgDir = path.join(root, 'ws', 'mfe-chat');
    mkdirSync(pkgDir, { recursive: true });
    writeFileSync(path.join(root, 'ws', 'pnpm-workspace.yaml'), 'packages: []\n');
    writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: '@tessera/mfe-chat', version: '2.0.0-rc.1' }));
    assert.deepEqual(packageIdentity(pkgDir), { remote: 'mfe-chat', version: '2.0.0-rc.1' });
    assert.equal(releasesRoot(pkgDir, {}), path.join(root, 'ws', 'releases'));
    assert.equal(releasesRoot(pkgDir, { TESSERA_RELEASES_DIR: '/srv/releases' }), '/srv/releases');
    writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: '@tessera/mfe-chat', version: '../1' }));
    assert.throws(() => packageIdentity(pkgDir), /may contain letters, digits and \. \+ - only/);
  });
});
