// Issue 19, start-up hygiene of the gVisor engine, on the real host (root, cgroup fs, runsc): what
// a crashed earlier run left (its folder with bundles and runsc state, its sandboxes' cgroups, a
// stray sandbox process) is cleared at the next start; what a running service owns is not; and a
// closed pool leaves no sandbox, bundle or cgroup behind, even when closed while sandboxes warm.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createCodeRunner } from '../src/runner/code-runner.js';
import { gvisorHost } from '../src/runner/gvisor/gvisor-engine.js';
import { processesNaming, sweepGvisorLeftovers } from '../src/runner/gvisor/gvisor-leftovers.js';

const CGROUPS = '/sys/fs/cgroup';
/** The controllers a sandbox's cgroup is made in here (v1: one folder each; v2: none, the id is at the root). */
const controllers = ['memory', 'pids', 'cpu'].filter((c) => existsSync(path.join(CGROUPS, c, 'cgroup.procs')));
const cgroupOf = (id: string) => (controllers.length ? controllers.map((c) => path.join(CGROUPS, c, id)) : [path.join(CGROUPS, id)]);

/** A PID that no process has now: a process that ran and ended. */
const deadPid = spawnSync('true').pid;
const started: ChildProcess[] = [];
const exitOf = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
/** A process whose command line names `text`, as a sandbox's kernel names its bundle. */
function strayNaming(text: string): ChildProcess {
  // One process with no children (a shell would fork its sleep, which would outlive the kill).
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600_000)', text], { stdio: 'ignore' });
  started.push(child);
  return child;
}
const cleanupPaths: string[] = [];
after(async () => {
  for (const child of started) child.kill('SIGKILL');
  // A cgroup can be removed only once the processes in it have exited.
  await Promise.all(started.map(exitOf));
  for (const p of cleanupPaths) {
    if (p.startsWith(CGROUPS)) await removeCgroupDir(p);
    else rmSync(p, { recursive: true, force: true });
  }
});

/** A cgroup (v1) stays busy for a moment after its last process has exited: retry for up to 5 s. */
async function removeCgroupDir(dir: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      rmdirSync(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY') throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  rmdirSync(dir);
}

/** What a service with this PID leaves: its folder with a bundle, and a sandbox cgroup with a process in it. */
function leftoversOf(pid: number, hex: string): { dir: string; bundle: string; id: string; cgroups: string[]; stray: ChildProcess } {
  const dir = path.join(os.tmpdir(), `tessera-gvisor-${pid}-${hex.slice(0, 6)}`);
  const id = `tessera-${pid}-1-${hex.slice(0, 6)}`;
  const bundle = path.join(dir, 'bundles', id);
  mkdirSync(path.join(bundle, 'rootfs'), { recursive: true });
  mkdirSync(path.join(dir, 'state'));
  cleanupPaths.push(dir);
  const cgroups = cgroupOf(id);
  for (const cgroup of cgroups) {
    mkdirSync(cgroup);
    cleanupPaths.push(cgroup);
  }
  const stray = strayNaming(bundle);
  // The stray process also sits in the sandbox's cgroup, as a sandbox's processes do.
  for (const cgroup of cgroups) writeFileSync(path.join(cgroup, 'cgroup.procs'), String(stray.pid));
  return { dir, bundle, id, cgroups, stray };
}


describe('the gVisor engine at start: leftovers of crashed runs', () => {
  test('a dead service\'s folder, cgroups and stray sandbox process are cleared; a running service\'s are left alone', async () => {
    const dead = leftoversOf(deadPid, 'a1b2c3');
    const running = spawn('sleep', ['600'], { stdio: 'ignore' });
    started.push(running);
    const live = leftoversOf(running.pid!, 'd4e5f6');

    const report = await sweepGvisorLeftovers();
    await exitOf(dead.stray);

    assert.equal(existsSync(dead.dir), false, 'the dead service\'s folder is removed');
    for (const cgroup of dead.cgroups) assert.equal(existsSync(cgroup), false, `${cgroup} is removed`);
    assert.deepEqual(processesNaming(dead.bundle), [], 'no process of the dead service\'s sandbox is left');
    assert.ok(report.folders >= 1 && report.cgroups >= 1, JSON.stringify(report));

    assert.equal(existsSync(live.bundle), true, 'a running service\'s bundle is kept');
    for (const cgroup of live.cgroups) assert.equal(existsSync(cgroup), true, `${cgroup} is kept`);
    assert.deepEqual(processesNaming(live.bundle), [live.stray.pid], 'a running service\'s sandbox keeps running');
  });
});

describe('a closed pool leaves nothing behind', () => {
  /** This process's sandbox cgroups, bundles and sandbox processes. */
  function traces(): { cgroups: string[]; bundles: string[]; processes: number[] } {
    const host = gvisorHost();
    assert.ok(!('refused' in host), 'refused' in host ? host.refused : '');
    const mine = new RegExp(`^tessera-${process.pid}-\\d+-[0-9a-f]{6}$`);
    const cgroups = [CGROUPS, ...controllers.map((c) => path.join(CGROUPS, c))].flatMap((dir) => readdirSync(dir).filter((name) => mine.test(name)));
    return { cgroups, bundles: readdirSync(host.bundlesDir), processes: processesNaming(host.bundlesDir) };
  }

  test('closed after a job: close() resolves once every sandbox, bundle and cgroup is gone', async () => {
    const runner = createCodeRunner({ engine: 'gvisor', timeoutMs: 20_000, memoryMb: 512, poolSize: 2 });
    const out = await runner.run({ headers: ['a'], rows: [[1]], code: 'result = int(df["a"].sum()) + 41' });
    assert.equal(out.result, 42);
    assert.ok(traces().bundles.length > 0, 'the pool holds warm sandboxes');
    await runner.close();
    assert.deepEqual(traces(), { cgroups: [], bundles: [], processes: [] });
  });

  test('closed while its sandboxes are still starting: nothing is left either', async () => {
    const runner = createCodeRunner({ engine: 'gvisor', timeoutMs: 20_000, memoryMb: 512, poolSize: 2 });
    await runner.engine(); // the self-test is done (once per process); the pool's sandboxes start now
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(runner.status().warming > 0, 'sandboxes are warming');
    await runner.close();
    assert.deepEqual(traces(), { cgroups: [], bundles: [], processes: [] });
  });
});
