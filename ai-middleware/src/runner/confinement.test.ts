import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { confinedChildCommand, findOnPath, readableByOthers } from './confinement.js';

const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

const root = mkdtempSync(path.join(os.tmpdir(), 'tessera-confinement-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('user nobody can read a file only when every folder above it lets others through', () => {
  chmodSync(root, 0o755);
  const open = path.join(root, 'open');
  mkdirSync(open, { mode: 0o755 });
  writeFileSync(path.join(open, 'child.mjs'), '', { mode: 0o644 });
  assert.equal(readableByOthers(path.join(open, 'child.mjs')), true);
  assert.equal(readableByOthers(open), true);

  // A checkout inside a private folder (what `mktemp -d` makes): the runner must stage its files.
  const closed = path.join(root, 'closed');
  mkdirSync(path.join(closed, 'repo'), { recursive: true });
  writeFileSync(path.join(closed, 'repo', 'child.mjs'), '', { mode: 0o644 });
  chmodSync(closed, 0o700);
  assert.equal(readableByOthers(path.join(closed, 'repo', 'child.mjs')), false);

  writeFileSync(path.join(open, 'secret'), '', { mode: 0o600 });
  assert.equal(readableByOthers(path.join(open, 'secret')), false);
});

test('every tool the root script runs is checked on PATH and handed to it by the path found', () => {
  const bin = path.join(root, 'bin');
  mkdirSync(bin);
  for (const tool of ['setsid', 'unshare', 'setpriv', 'prlimit', 'sh', 'mount', 'mkdir', 'touch', 'chroot']) {
    symlinkSync(findOnPath(tool, SYSTEM_PATH)!, path.join(bin, tool));
  }
  const host = { platform: 'linux', uid: 0, path: bin };
  const refused = confinedChildCommand(1000, 1000, host);
  assert.ok('refused' in refused && refused.refused.endsWith('ln is not on PATH.'), JSON.stringify(refused));
  symlinkSync(findOnPath('ln', SYSTEM_PATH)!, path.join(bin, 'ln'));
  const command = confinedChildCommand(1000, 1000, host);
  assert.ok(!('refused' in command));
  for (const tool of ['chroot', 'mount', 'mkdir', 'touch', 'ln']) assert.ok(command.args.includes(path.join(bin, tool)), tool);
});
