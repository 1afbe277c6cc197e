import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CODE_RUN_OUTPUT_CAP_CHARS } from '@tessera/contracts';
import { type GvisorHost, GvisorSandbox } from './gvisor-sandbox.js';

/** `runsc checkpoint` of a ready sandbox took 2.6-2.9 s on the loaded 2-core machine (its Python is ~150 MB). */
const CHECKPOINT_TIMEOUT_MS = 60_000;
const IMAGE_FILE = 'checkpoint.img';

/** Per memory limit (the image holds its processes' address-space limit): the image being made, or made. */
const making = new Map<number, Promise<string | undefined>>();
const made = new Map<number, string>();
/** Memory limits whose image failed to restore once: their sandboxes start cold from then on. */
const broken = new Set<number>();

/**
 * The folder of a checkpoint of a sandbox that has imported pandas and said ready, and run no job
 * (`runsc checkpoint`), for the pool's sandboxes to be restored from (`runsc restore`): a restore
 * costs about a fifth of the CPU of a cold start (1.5-1.9 s against 8.5-10.6 s measured), and
 * each job still gets a sandbox of its own. Made once per process and memory limit, in the
 * service's private folder (removed at exit) in a folder only root can enter: the sandboxes never
 * see it. Undefined when it could not be made: sandboxes then start cold.
 */
export function gvisorImage(host: GvisorHost, memoryMb: number, readyTimeoutMs: number): Promise<string | undefined> {
  let image = making.get(memoryMb);
  if (!image) {
    image = makeImage(host, memoryMb, readyTimeoutMs).then((dir) => {
      if (dir) made.set(memoryMb, dir);
      return dir;
    });
    making.set(memoryMb, image);
  }
  return image;
}

/** The image once made and not found broken, else undefined (a pool spawning now does not wait for it). */
export function madeGvisorImage(memoryMb: number): string | undefined {
  return broken.has(memoryMb) ? undefined : made.get(memoryMb);
}

/** A restore from this memory limit's image failed: later sandboxes start cold, and it is not made again. */
export function gvisorImageFailed(memoryMb: number): void {
  broken.add(memoryMb);
}

async function makeImage(host: GvisorHost, memoryMb: number, readyTimeoutMs: number): Promise<string | undefined> {
  const dir = path.join(host.imagesDir, `${memoryMb}mb`);
  // The same options as the pool's sandboxes (gvisorSpawner): the image carries the arguments and limits.
  const maker = new GvisorSandbox(host, { memoryMb, readyTimeoutMs, outputCapChars: CODE_RUN_OUTPUT_CAP_CHARS });
  try {
    await maker.ready;
    mkdirSync(dir, { mode: 0o700 });
    // Under setpriv too: a service killed meanwhile takes the checkpoint with it. The checkpoint ends the maker.
    const ok = await new Promise<boolean>((resolve) => {
      execFile(
        host.setpriv,
        ['--pdeathsig=KILL', host.runsc, '--root', host.stateDir, 'checkpoint', '--image-path', dir, maker.id],
        { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, timeout: CHECKPOINT_TIMEOUT_MS, killSignal: 'SIGKILL' },
        (err) => resolve(!err),
      );
    });
    if (ok && existsSync(path.join(dir, IMAGE_FILE))) return dir;
  } catch {
    // the maker did not start: neither will a restore
  } finally {
    maker.kill({ kind: 'closed' });
    await maker.exited;
  }
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}
