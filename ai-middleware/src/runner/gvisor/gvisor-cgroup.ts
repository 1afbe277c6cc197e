import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxLimits } from './gvisor-bundle.js';

/** Where the host's cgroups are mounted (v1: a folder per controller under it; v2: one hierarchy). */
export const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * The sandbox's memory cgroup, made by the service before `runsc run` at the path the bundle's
 * cgroupsPath names (gvisor-bundle.ts), limits written by the service. runsc uses a cgroup that
 * already exists as it is and removes only the ones it made itself (runsc/cgroup: Install marks
 * only what it creates as owned, Uninstall removes only those). So this one outlives the sandbox:
 * its out-of-memory count is read after the sandbox has exited, where runsc's own cgroup would be
 * gone already (an OOM kill between two looks used to be told as a plain SIGKILL). Removed with
 * the sandbox's other cgroups by removeCgroups (gvisor-leftovers.ts), also after a crash.
 *
 * cgroup v1: the memory controller's folder only (runsc still makes cpu, pids... and sets them).
 * cgroup v2: the one folder, so the service also writes the CPU limit there (runsc sets none).
 */
export interface SandboxCgroup {
  dir: string;
  /** The file whose `oom_kill N` line counts the sandbox's processes the OOM killer ended. */
  oomFile: string;
}

/**
 * Makes the sandbox `id`'s memory cgroup with its limits, or undefined when this host's layout has
 * no memory controller the service can use (runsc then makes the cgroup itself, as it did before).
 */
export function makeSandboxCgroup(id: string, limits: SandboxLimits, root = CGROUP_ROOT): SandboxCgroup | undefined {
  const v1 = path.join(root, 'memory');
  if (existsSync(path.join(v1, 'cgroup.procs'))) {
    return made(path.join(v1, id), 'memory.oom_control', { 'memory.limit_in_bytes': String(limits.memoryBytes) });
  }
  if (!readText(path.join(root, 'cgroup.controllers'))?.split(/\s+/).includes('memory')) return undefined;
  try {
    // The root's children get the memory and cpu files only once these are enabled (runsc does the same).
    writeFileSync(path.join(root, 'cgroup.subtree_control'), '+memory +cpu');
  } catch {
    // already enabled, or not allowed here: the limit write below tells
  }
  return made(path.join(root, id), 'memory.events', {
    'memory.max': String(limits.memoryBytes),
    'cpu.max': `${limits.cpuQuota} ${limits.cpuPeriod}`,
  });
}

function made(dir: string, oomFile: string, settings: Record<string, string>): SandboxCgroup | undefined {
  try {
    mkdirSync(dir);
  } catch {
    return undefined; // taken (an id is never reused) or not allowed: runsc makes its own
  }
  try {
    for (const [file, value] of Object.entries(settings)) writeFileSync(path.join(dir, file), value);
  } catch {
    // A cgroup without its limit must not hold a sandbox: runsc makes its own instead.
    try {
      rmdirSync(dir);
    } catch {
      // left to removeCgroups after the sandbox
    }
    return undefined;
  }
  return { dir, oomFile: path.join(dir, oomFile) };
}

/** Whether the OOM killer has ended a process in the cgroup whose count is in `oomFile` (v1 or v2 layout). */
export function oomKilled(oomFile: string): boolean {
  return Number(/^oom_kill (\d+)/m.exec(readText(oomFile) ?? '')?.[1] ?? 0) > 0;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
