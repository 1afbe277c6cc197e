import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { readableByOthers } from './confinement.js';

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
