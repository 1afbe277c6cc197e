import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM module of the root scripts
import { remotesManifest, startProcess } from '../../scripts/lib/stack.mjs';
import { startTestProvider } from '../../api/test/support/oidc-provider';
import { E2E_PORTS, OIDC_ADMIN_LOGIN_PREFIX, OIDC_PROVIDER_PORT, SHELL_LOGIN_URL, dataDir, logDir, specs, workDir, writePid } from './stack';

export default async function globalSetup() {
  // The OpenID provider the api's OIDC_* point at (stack.ts), in this process for the whole run:
  // the returned function stops it after the run.
  const provider = await startTestProvider({
    port: OIDC_PROVIDER_PORT,
    redirectUris: [SHELL_LOGIN_URL],
    claimsFor: (sub) => (sub.startsWith(OIDC_ADMIN_LOGIN_PREFIX) ? { groups: ['tessera-admins'] } : {}),
  });
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'remotes.json'), JSON.stringify(await remotesManifest(E2E_PORTS), null, 2));
  writeFileSync(path.join(workDir, 'pids.json'), '{}');
  for (const spec of specs()) {
    const proc = await startProcess(spec, { logDir });
    writePid(spec.name, proc.pid);
  }
  return () => provider.close();
}
