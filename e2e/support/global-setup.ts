import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM module of the root scripts
import { remotesManifest, startProcess } from '../../scripts/lib/stack.mjs';
import { E2E_PORTS, dataDir, logDir, specs, workDir, writePid } from './stack';

export default async function globalSetup() {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'remotes.json'), JSON.stringify(await remotesManifest(E2E_PORTS), null, 2));
  writeFileSync(path.join(workDir, 'pids.json'), '{}');
  for (const spec of specs()) {
    const proc = await startProcess(spec, { logDir });
    writePid(spec.name, proc.pid);
  }
}
