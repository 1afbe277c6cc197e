import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The unprivileged user inside the sandbox (and, with runsc as root, the sandbox's host user). */
const NOBODY = 65534;
/** Processes (threads count) one job may have inside: a fork bomb stops here (verified: EAGAIN). */
export const SANDBOX_MAX_PROCESSES = 32;
/** The job's writable scratch space, /tmp, a tmpfs of this size (verified: ENOSPC past it). */
export const SANDBOX_TMP_MB = 64;
/**
 * Room over the job's address-space limit that the host cgroup allows the whole sandbox (gVisor's
 * own kernel, and the job's other processes): several processes each under RLIMIT_AS still stop there.
 */
const CGROUP_HEADROOM_MB = 384;
const MB = 1024 * 1024;
const CPU_PERIOD_US = 100_000;

/** What the host cgroup allows one sandbox: memory for all its processes, and one CPU. */
export interface SandboxLimits {
  memoryBytes: number;
  cpuQuota: number;
  cpuPeriod: number;
}

export function sandboxLimits(memoryMb: number): SandboxLimits {
  return { memoryBytes: (memoryMb + CGROUP_HEADROOM_MB) * MB, cpuQuota: CPU_PERIOD_US, cpuPeriod: CPU_PERIOD_US };
}

export interface BundleOptions {
  /** The sandbox's id: also names its cgroup. */
  id: string;
  /** The program and its arguments, inside the sandbox. */
  args: string[];
  /** RLIMIT_AS of each process inside: a clean MemoryError past it. */
  memoryMb: number;
}

/**
 * Writes an OCI bundle (FACTS.md § Python with pandas): an empty read-only root with lib, lib64,
 * bin and sbin pointing into usr; read-only binds of /usr, /etc/alternatives and /etc/ld.so.cache
 * (numpy reaches libblas through the alternatives), and nothing else of the host — not DATA_DIR,
 * not /etc/passwd, no socket; a size-limited tmpfs /tmp; user nobody with no capabilities; its own
 * network namespace (runsc --network=none), and limits on memory, processes and CPU.
 */
export function writeBundle(dir: string, options: BundleOptions): void {
  const rootfs = path.join(dir, 'rootfs');
  for (const sub of ['usr', 'etc/alternatives', 'tmp', 'proc', 'dev', 'sys']) mkdirSync(path.join(rootfs, sub), { recursive: true });
  writeFileSync(path.join(rootfs, 'etc/ld.so.cache'), '');
  for (const link of ['lib', 'lib64', 'bin', 'sbin']) symlinkSync(`usr/${link}`, path.join(rootfs, link));
  const addressSpace = options.memoryMb * MB;
  const limits = sandboxLimits(options.memoryMb);
  const config = {
    ociVersion: '1.0.0',
    process: {
      terminal: false,
      user: { uid: NOBODY, gid: NOBODY },
      args: options.args,
      // Nothing of the service's environment (keys, database URLs) reaches user code.
      env: ['PATH=/usr/bin:/bin', 'LANG=C.UTF-8', 'HOME=/tmp', 'MPLBACKEND=Agg', 'MPLCONFIGDIR=/tmp',
        // Debian's matplotlibrc is in /etc, which the sandbox does not see; the same file is in /usr.
        'MATPLOTLIBRC=/usr/share/matplotlib/mpl-data/matplotlibrc', 'OPENBLAS_NUM_THREADS=1', 'OMP_NUM_THREADS=1'],
      cwd: '/tmp',
      capabilities: { bounding: [], effective: [], inheritable: [], permitted: [], ambient: [] },
      noNewPrivileges: true,
      rlimits: [
        { type: 'RLIMIT_AS', hard: addressSpace, soft: addressSpace },
        { type: 'RLIMIT_NPROC', hard: SANDBOX_MAX_PROCESSES, soft: SANDBOX_MAX_PROCESSES },
        { type: 'RLIMIT_NOFILE', hard: 256, soft: 256 },
        { type: 'RLIMIT_CORE', hard: 0, soft: 0 },
      ],
    },
    root: { path: 'rootfs', readonly: true },
    hostname: 'sandbox',
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc' },
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs' },
      { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
      { destination: '/usr', type: 'bind', source: '/usr', options: ['rbind', 'ro', 'nosuid', 'nodev'] },
      { destination: '/etc/alternatives', type: 'bind', source: '/etc/alternatives', options: ['rbind', 'ro', 'nosuid', 'nodev'] },
      { destination: '/etc/ld.so.cache', type: 'bind', source: '/etc/ld.so.cache', options: ['bind', 'ro', 'nosuid', 'nodev'] },
      { destination: '/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', `size=${SANDBOX_TMP_MB}m`, 'mode=1777'] },
    ],
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'network' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }],
      // The whole sandbox is OOM-killed past the memory limit, and gets at most one CPU. runsc
      // applies these to the cgroups it makes (and removes at delete); the memory cgroup the
      // service made first (gvisor-cgroup.ts) has them written by the service, and is kept.
      cgroupsPath: `/${options.id}`,
      resources: {
        memory: { limit: limits.memoryBytes },
        cpu: { quota: limits.cpuQuota, period: limits.cpuPeriod },
      },
    },
  };
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
}
