import { execFile } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath } from './confinement.js';

/** The maker script: the same path from src/runner (tsx) and dist/runner (built), as for child.mjs. */
const MAKER_SCRIPT = fileURLToPath(new URL('../../src/runner/snapshot-maker.mjs', import.meta.url));
/** Loading Pyodide takes a few CPU seconds; on a loaded 2-core machine much longer (FACTS: 4.5 s when 4 start). */
const MAKE_TIMEOUT_MS = 120_000;
/** The folder, under the temp folder, where snapshots are kept for every process of this user. */
export const SHARED_SNAPSHOT_FOLDER = 'tessera-pyodide-snapshots';

const making = new Map<string, Promise<string | undefined>>();
const made = new Map<string, string>();

/**
 * The file of a Pyodide memory snapshot taken right after load, for children to start from:
 * restoring it costs about a quarter of the CPU of a fresh load (1.7 s against 6 s measured on
 * this 2-core machine), and each job gets a fresh child. Kept in a folder that only this user
 * (root) can write and the children (user nobody) can read, under a name that says which Pyodide
 * it was made from: the next process of the service (a restart, another replica, the next test
 * file) starts its first child from it at once instead of making its own. Made once when absent;
 * undefined when it could not be made: children then load Pyodide fresh.
 */
export function pyodideSnapshot(pyodideDir: string): Promise<string | undefined> {
  let snapshot = making.get(pyodideDir);
  if (!snapshot) {
    const kept = keptSnapshot(pyodideDir);
    snapshot = kept ? Promise.resolve(kept) : makeSnapshot(pyodideDir);
    snapshot = snapshot.then((file) => {
      if (file) made.set(pyodideDir, file);
      return file;
    });
    if (kept) made.set(pyodideDir, kept);
    making.set(pyodideDir, snapshot);
  }
  return snapshot;
}

/** The snapshot's file once pyodideSnapshot has made or found it, else undefined (a pool spawning now does not wait for it). */
export function madePyodideSnapshot(pyodideDir: string): string | undefined {
  return made.get(pyodideDir);
}

/** Which Pyodide a snapshot belongs to: its version and the size of its wasm (a snapshot is its memory). */
function snapshotName(pyodideDir: string): string {
  const { version } = JSON.parse(readFileSync(path.join(pyodideDir, 'package.json'), 'utf8')) as { version: string };
  const wasm = statSync(path.join(pyodideDir, 'pyodide.asm.wasm')).size;
  return `pyodide-${version.replace(/[^\w.-]/g, '_')}-${wasm}.snapshot`;
}

/**
 * The shared folder, made if absent, when it is safe to keep snapshots in: a real folder (not a
 * link) owned by this user that nobody else can write. Anyone who could write it could hand every
 * child a memory of their choosing. Undefined otherwise (a private folder is used instead).
 */
function sharedFolder(): string | undefined {
  const dir = path.join(os.tmpdir(), SHARED_SNAPSHOT_FOLDER);
  try {
    mkdirSync(dir, { mode: 0o755 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) return undefined;
  return realpathSync(dir);
}

function keptSnapshot(pyodideDir: string): string | undefined {
  const dir = sharedFolder();
  if (!dir) return undefined;
  const file = path.join(dir, snapshotName(pyodideDir));
  if (!existsSync(file)) return undefined;
  const st = lstatSync(file);
  return st.isFile() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0 ? file : undefined;
}

function makeSnapshot(pyodideDir: string): Promise<string | undefined> {
  // setpriv is one of the runner's required tools: a service killed meanwhile takes the maker with it.
  const setpriv = findOnPath('setpriv', process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin');
  if (!setpriv) return Promise.resolve(undefined);
  let dir = sharedFolder();
  if (dir) {
    removeOthers(dir, snapshotName(pyodideDir));
  } else {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tessera-pyodide-snapshot-')));
    chmodSync(dir, 0o755);
    const privateDir = dir;
    process.once('exit', () => rmSync(privateDir, { recursive: true, force: true }));
  }
  const target = path.join(dir, snapshotName(pyodideDir));
  return new Promise((resolve) => {
    execFile(
      setpriv,
      ['--pdeathsig=KILL', process.execPath, '--no-warnings', MAKER_SCRIPT, pyodideDir, target],
      // Nothing of the service's environment is needed to load Pyodide.
      { env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' }, timeout: MAKE_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
      (err) => resolve(err ? undefined : target),
    );
  });
}

/** Snapshots of other Pyodide versions, and half-written files of makers killed long ago, are removed. */
function removeOthers(dir: string, keep: string): void {
  for (const name of readdirSync(dir)) {
    if (name === keep) continue;
    const file = path.join(dir, name);
    const stale = !name.endsWith('.partial') || Date.now() - lstatSync(file).mtimeMs > MAKE_TIMEOUT_MS;
    if (stale) rmSync(file, { force: true });
  }
}
