import { readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CGROUP_ROOT } from './gvisor-cgroup.js';

/** A service's private folder (state and bundles): its PID in the name tells whether its owner still runs. */
export const GVISOR_DIR_PREFIX = 'tessera-gvisor-';
const GVISOR_DIR = /^tessera-gvisor-(\d+)-[A-Za-z0-9]{6}$/;
/** A sandbox's id, which also names its cgroup: tessera-<service PID>-<n>-<hex> (gvisor-sandbox.ts). */
const SANDBOX_ID = /^tessera-(\d+)-\d+-[0-9a-f]{6}$/;

/** The folder a service with this PID keeps its sandboxes in, as mkdtemp's prefix. */
export const gvisorDirPrefix = (pid = process.pid): string => path.join(os.tmpdir(), `${GVISOR_DIR_PREFIX}${pid}-`);

/** Whether a process with this PID runs (ESRCH: none; EPERM: one we may not signal, still alive). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Host processes whose command line names `text` (a sandbox's kernel and gofer name its bundle). */
export function processesNaming(text: string): number[] {
  const found: number[] = [];
  for (const name of listDir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Kills every host process naming `text` and waits (up to 5 s) until none is left. */
export async function reapProcessesNaming(text: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const left = processesNaming(text);
    if (left.length === 0) return;
    killAll(left);
    await sleep(50);
  }
}

/** A sandbox's cgroup folders: one per controller (cgroup v1), or one (v2). */
export function cgroupDirsOf(id: string, root = CGROUP_ROOT): string[] {
  const dirs = [path.join(root, id), ...listDir(root).map((controller) => path.join(root, controller, id))];
  return dirs.filter((dir) => listDir(dir).length > 0);
}

/**
 * Removes a sandbox's cgroup folders once nothing runs in them (what is left in them is killed):
 * the memory one the service made (gvisor-cgroup.ts), which runsc leaves, after every sandbox; and
 * those runsc made and removes at delete, but not when its start was killed half-way (the pool
 * closed while a sandbox warmed). An empty cgroup per job would pile up.
 */
export async function removeCgroups(id: string, root = CGROUP_ROOT): Promise<number> {
  let removed = 0;
  for (const dir of cgroupDirsOf(id, root)) {
    for (let i = 0; i < 40; i++) {
      try {
        rmdirSync(dir);
        removed += 1;
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') break;
        if (code !== 'EBUSY') break;
        let procs: number[] = [];
        try {
          procs = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
        } catch {
          // gone meanwhile
        }
        killAll(procs);
        await sleep(50);
      }
    }
  }
  return removed;
}

export interface SweepReport {
  /** Private folders of services that are gone (bundles, runsc state), removed. */
  folders: number;
  /** Sandboxes' cgroups (each counted once, whatever its number of controllers), removed. */
  cgroups: number;
}

/**
 * Clears what crashed earlier runs left: the private folders and cgroups named after a service PID
 * that no longer runs, with any sandbox process still naming such a folder (a sandbox whose service
 * was SIGKILLed). What belongs to a running service, this one or another, is left alone.
 */
export async function sweepGvisorLeftovers(options: { tmpDir?: string; cgroupRoot?: string } = {}): Promise<SweepReport> {
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const cgroupRoot = options.cgroupRoot ?? CGROUP_ROOT;
  const report: SweepReport = { folders: 0, cgroups: 0 };
  for (const name of listDir(tmpDir)) {
    const owner = GVISOR_DIR.exec(name)?.[1];
    if (!owner || alive(Number(owner))) continue;
    const dir = path.join(tmpDir, name);
    await reapProcessesNaming(dir);
    rmSync(dir, { recursive: true, force: true });
    report.folders += 1;
  }
  const ids = new Set<string>();
  for (const entry of [cgroupRoot, ...listDir(cgroupRoot).map((c) => path.join(cgroupRoot, c))]) {
    for (const name of listDir(entry)) {
      const owner = SANDBOX_ID.exec(name)?.[1];
      if (owner && !alive(Number(owner))) ids.add(name);
    }
  }
  for (const id of ids) if ((await removeCgroups(id, cgroupRoot)) > 0) report.cgroups += 1;
  return report;
}
