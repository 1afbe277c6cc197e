import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath } from './confinement.js';

/** The maker script: the same path from src/runner (tsx) and dist/runner (built), as for child.mjs. */
const MAKER_SCRIPT = fileURLToPath(new URL('../../src/runner/snapshot-maker.mjs', import.meta.url));
/** Loading Pyodide takes a few CPU seconds; on a loaded 2-core machine much longer (FACTS: 4.5 s when 4 start). */
const MAKE_TIMEOUT_MS = 120_000;

const making = new Map<string, Promise<string | undefined>>();
const made = new Map<string, string>();

/**
 * The file of a Pyodide memory snapshot taken right after load, for children to start from:
 * restoring it costs about a quarter of the CPU of a fresh load (1.7 s against 6 s measured on
 * this 2-core machine), and each job gets a fresh child. Made once per process and Pyodide
 * folder, in a folder of its own that only root can write and the children (user nobody) can
 * read; removed at exit. Undefined when it could not be made: children then load Pyodide fresh.
 */
export function pyodideSnapshot(pyodideDir: string): Promise<string | undefined> {
  let snapshot = making.get(pyodideDir);
  if (!snapshot) {
    snapshot = makeSnapshot(pyodideDir).then((file) => {
      if (file) made.set(pyodideDir, file);
      return file;
    });
    making.set(pyodideDir, snapshot);
  }
  return snapshot;
}

/** The snapshot's file once pyodideSnapshot has made it, else undefined (a pool spawning now does not wait for it). */
export function madePyodideSnapshot(pyodideDir: string): string | undefined {
  return made.get(pyodideDir);
}

function makeSnapshot(pyodideDir: string): Promise<string | undefined> {
  // setpriv is one of the runner's required tools: a service killed meanwhile takes the maker with it.
  const setpriv = findOnPath('setpriv', process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin');
  if (!setpriv) return Promise.resolve(undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-pyodide-snapshot-'));
  chmodSync(dir, 0o755);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const target = path.join(realpathSync(dir), 'pyodide.snapshot');
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
