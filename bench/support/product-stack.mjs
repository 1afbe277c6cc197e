// The built product as a browser bench uses it: every service on `ports`, a fresh data folder, and
// a remotes manifest pointing at the remotes served on those ports. stop() ends the services and
// removes the folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { remotesManifest, startStack } from '../../scripts/lib/stack.mjs';

export async function startProductStack(ports, tempPrefix) {
  const work = mkdtempSync(path.join(os.tmpdir(), tempPrefix));
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const remotesFile = path.join(dataDir, 'remotes.json');
  writeFileSync(remotesFile, JSON.stringify(await remotesManifest(ports)));
  const stack = await startStack({ ports, dataDir, logDir: path.join(work, 'logs'), env: { REMOTES_MANIFEST: remotesFile } });
  return {
    processes: stack.processes,
    async stop() {
      await stack.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
