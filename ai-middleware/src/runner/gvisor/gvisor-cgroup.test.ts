// The two cgroup layouts on a folder shaped like each (a real cgroup v2 host is not at hand: CI
// machines may be either); the real v1 one is exercised in test/runner-engine-escapes.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { sandboxLimits } from './gvisor-bundle.js';
import { makeSandboxCgroup, oomKilled } from './gvisor-cgroup.js';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));
const fakeRoot = () => (root = mkdtempSync(path.join(os.tmpdir(), 'tessera-cgroup-test-')));
const limits = sandboxLimits(512);
const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');

test('cgroup v1: the memory controller gets the sandbox folder with its limit; the OOM count is memory.oom_control', () => {
  fakeRoot();
  mkdirSync(path.join(root, 'memory'));
  writeFileSync(path.join(root, 'memory', 'cgroup.procs'), '');
  const cgroup = makeSandboxCgroup('tessera-1-1-abcdef', limits, root);
  assert.deepEqual(cgroup, { dir: path.join(root, 'memory', 'tessera-1-1-abcdef'), oomFile: path.join(root, 'memory', 'tessera-1-1-abcdef', 'memory.oom_control') });
  assert.equal(read('memory', 'tessera-1-1-abcdef', 'memory.limit_in_bytes'), String((512 + 384) * 1024 * 1024));
});

test('cgroup v2: one folder with the memory and CPU limits (runsc sets none in a cgroup it did not make); the OOM count is memory.events', () => {
  fakeRoot();
  writeFileSync(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
  const cgroup = makeSandboxCgroup('tessera-1-2-abcdef', limits, root);
  assert.deepEqual(cgroup, { dir: path.join(root, 'tessera-1-2-abcdef'), oomFile: path.join(root, 'tessera-1-2-abcdef', 'memory.events') });
  assert.equal(read('cgroup.subtree_control'), '+memory +cpu');
  assert.equal(read('tessera-1-2-abcdef', 'memory.max'), String(limits.memoryBytes));
  assert.equal(read('tessera-1-2-abcdef', 'cpu.max'), '100000 100000');
});

test('no memory controller: none is made (runsc makes its own)', () => {
  fakeRoot();
  writeFileSync(path.join(root, 'cgroup.controllers'), 'cpu pids\n');
  assert.equal(makeSandboxCgroup('tessera-1-3-abcdef', limits, root), undefined);
});

test('oomKilled reads the oom_kill line of either file, and a missing file as none', () => {
  fakeRoot();
  writeFileSync(path.join(root, 'v1'), 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
  writeFileSync(path.join(root, 'v2'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n');
  assert.equal(oomKilled(path.join(root, 'v1')), true);
  assert.equal(oomKilled(path.join(root, 'v2')), false);
  assert.equal(oomKilled(path.join(root, 'gone')), false);
});
