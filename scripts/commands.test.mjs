// The root commands that the READMEs give work with npm alone: a machine that ran
// `npm start` or `npm test` need not have pnpm on its PATH (issue 16).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { repoRoot } from './lib/paths.mjs';

// A PATH of node, npm and sh only: on Debian /bin is /usr/bin, where `npm i -g pnpm` would
// put a pnpm, so the system's folders stay out.
const bin = mkdtempSync(path.join(os.tmpdir(), 'tessera-npm-only-'));
after(() => rmSync(bin, { recursive: true, force: true }));
const npmCli = realpathSync(path.join(path.dirname(process.execPath), 'npm'));
symlinkSync(process.execPath, path.join(bin, 'node'));
symlinkSync(npmCli, path.join(bin, 'npm'));
symlinkSync(realpathSync('/bin/sh'), path.join(bin, 'sh'));
const env = { ...process.env, PATH: bin };
const npm = (...args) => spawnSync(path.join(bin, 'npm'), args, { cwd: repoRoot, env, encoding: 'utf8' });

test('the PATH of these tests holds npm and no pnpm', () => {
  assert.notEqual(spawnSync(path.join(bin, 'sh'), ['-c', 'command -v pnpm'], { env }).status, 0);
  assert.equal(npm('--version').status, 0);
});

test('npm run pnpm -- <args> runs the project pinned pnpm', () => {
  const r = npm('run', '--silent', 'pnpm', '--', '--version');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.trim(), /^10\.\d+\.\d+$/);
});

test('npm run remotes -- --help prints the usage in npm terms', () => {
  const r = npm('run', '--silent', 'remotes', '--', '--help');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /usage: npm run remotes -- <command>/);
});

test('npm run release -- <remote> refuses what is not a remote, and names the remotes', () => {
  const r = npm('run', '--silent', 'release', '--', 'mfe-nothing');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /usage: npm run release -- <remote> +\(one of mfe-sheets, mfe-chat, mfe-git, mfe-members\)/);
});
