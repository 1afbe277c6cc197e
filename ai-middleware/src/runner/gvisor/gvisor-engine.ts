import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CODE_RUN_OUTPUT_CAP_CHARS } from '@tessera/contracts';
import { findOnPath } from '../confinement.js';
import type { RunnerWorker } from '../runner-worker.js';
import { gvisorImage, gvisorImageFailed, madeGvisorImage } from './gvisor-image.js';
import { type SweepReport, gvisorDirPrefix, sweepGvisorLeftovers } from './gvisor-leftovers.js';
import { type GvisorHost, GvisorSandbox } from './gvisor-sandbox.js';

/** The Python packages the gVisor engine offers (Debian's python3-*), by their distribution names. */
export const GVISOR_PACKAGES = ['pandas', 'numpy', 'scipy', 'matplotlib', 'openpyxl', 'statsmodels', 'seaborn', 'scikit-learn'] as const;

export const GVISOR_REQUIREMENTS =
  "The gVisor engine needs Linux, root (runsc creates the sandbox's namespaces and cgroup), runsc and setpriv on PATH, " +
  'and Debian\'s /usr/bin/python3 with python3-pandas (apt-get install runsc python3-pandas ...; see the README).';

let host: GvisorHost | undefined;

/**
 * This machine's runsc, setpriv, and this process's private state and bundle folders (removed at
 * exit), or why gVisor cannot run here.
 */
export function gvisorHost(
  who: { platform: string; uid: number | undefined; path: string | undefined } = {
    platform: process.platform,
    uid: process.getuid?.(),
    path: process.env.PATH,
  },
): GvisorHost | { refused: string } {
  if (who.platform !== 'linux') return { refused: `${GVISOR_REQUIREMENTS} This is ${who.platform}.` };
  if (who.uid !== 0) return { refused: `${GVISOR_REQUIREMENTS} This process runs as uid ${who.uid}.` };
  const searchPath = who.path ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  const runsc = findOnPath('runsc', searchPath);
  if (!runsc) return { refused: `${GVISOR_REQUIREMENTS} runsc is not on PATH.` };
  const setpriv = findOnPath('setpriv', searchPath);
  if (!setpriv) return { refused: `${GVISOR_REQUIREMENTS} setpriv is not on PATH.` };
  try {
    accessSync('/usr/bin/python3', constants.X_OK);
  } catch {
    return { refused: `${GVISOR_REQUIREMENTS} /usr/bin/python3 is missing.` };
  }
  if (!host) {
    // Named after this process: a later start clears it if this one dies without its exit handler.
    const dir = mkdtempSync(gvisorDirPrefix());
    // The sandbox (host user nobody) opens its bundle's root.
    chmodSync(dir, 0o755);
    const stateDir = path.join(dir, 'state');
    const bundlesDir = path.join(dir, 'bundles');
    const imagesDir = path.join(dir, 'images');
    host = { runsc, setpriv, stateDir, bundlesDir, imagesDir };
    mkdirSync(stateDir, { mode: 0o700 });
    mkdirSync(bundlesDir, { mode: 0o755 });
    // runsc (root) reads the images; the sandboxes (host user nobody) never do.
    mkdirSync(imagesDir, { mode: 0o700 });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return host;
}

/**
 * A factory of sandboxes for the pool: restored from this process's image (gvisor-image.ts) once it
 * is made, started cold until then, and from the first failed restore on.
 */
export function gvisorSpawner(gvHost: GvisorHost, memoryMb: number, readyTimeoutMs: number): () => RunnerWorker {
  void gvisorImage(gvHost, memoryMb, readyTimeoutMs);
  return () => restoredOrCold(gvHost, memoryMb, readyTimeoutMs);
}

function restoredOrCold(gvHost: GvisorHost, memoryMb: number, readyTimeoutMs: number): GvisorSandbox {
  const image = madeGvisorImage(memoryMb);
  return new GvisorSandbox(gvHost, {
    memoryMb,
    readyTimeoutMs,
    outputCapChars: CODE_RUN_OUTPUT_CAP_CHARS,
    ...(image ? { image, onRestoreFailed: () => gvisorImageFailed(memoryMb) } : {}),
  });
}

export type SelfTest = { ok: true; packages: Record<string, string> } | { ok: false; reason: string };

const SELF_TEST_CODE = [
  'import importlib.metadata as m, pandas',
  `result = {p: m.version(p) for p in ${JSON.stringify(GVISOR_PACKAGES)}}`,
  "result['python'] = __import__('platform').python_version()",
].join('\n');

let selfTestResult: Promise<SelfTest> | undefined;
let swept: Promise<SweepReport> | undefined;

/**
 * Once per process, before its first sandbox: what crashed earlier runs left (their folders, cgroups
 * and stray sandbox processes) is cleared.
 */
export function sweepOnce(): Promise<SweepReport> {
  swept ??= sweepGvisorLeftovers().catch(() => ({ folders: 0, cgroups: 0 }));
  return swept;
}

/**
 * Whether a sandbox starts here and imports pandas, and which package versions it has. Run once
 * per process (the answer depends on the host only). It makes the image the pool's sandboxes are
 * restored from first, and runs in a sandbox restored from it: a restore that fails here leaves
 * the pool starting sandboxes cold, and the self-test runs in a cold one.
 */
export function gvisorSelfTest(memoryMb: number, readyTimeoutMs = 60_000): Promise<SelfTest> {
  selfTestResult ??= (async (): Promise<SelfTest> => {
    const gvHost = gvisorHost();
    if ('refused' in gvHost) return { ok: false, reason: gvHost.refused };
    await sweepOnce();
    await gvisorImage(gvHost, memoryMb, readyTimeoutMs);
    let sandbox = restoredOrCold(gvHost, memoryMb, readyTimeoutMs);
    try {
      try {
        await sandbox.ready;
      } catch {
        // A failed restore marked the image broken: the retry starts cold, as the pool's sandboxes will.
        if (sandbox.boot === 'snapshot') {
          await sandbox.exited;
          sandbox = restoredOrCold(gvHost, memoryMb, readyTimeoutMs);
        }
      }
      try {
        await sandbox.ready;
      } catch (err) {
        return { ok: false, reason: `A gVisor sandbox did not start (${(err as Error).message})` };
      }
      const outcome = await sandbox.run({ code: SELF_TEST_CODE, headers: [], rows: [] }, readyTimeoutMs);
      if (outcome.kind !== 'done' || outcome.message.error || typeof outcome.message.result !== 'object' || outcome.message.result === null) {
        return { ok: false, reason: `The gVisor self-test job failed (${JSON.stringify(outcome).slice(0, 500)})` };
      }
      return { ok: true, packages: outcome.message.result as Record<string, string> };
    } finally {
      sandbox.kill();
      await sandbox.exited;
    }
  })();
  return selfTestResult;
}
