import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM module of the root scripts
import { remotesManifest, startProcess } from '../../scripts/lib/stack.mjs';
import { startTestProvider } from '../../api/test/support/oidc-provider';
import globalTeardown from './global-teardown';
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
  // All at once: none needs another to start (each finds the others on its first request), and
  // one after another the seven starts added up to ~25 s of the run.
  const started = await Promise.allSettled(specs().map((spec) => startProcess(spec, { logDir })));
  for (const r of started) if (r.status === 'fulfilled') writePid(r.value.name, r.value.pid);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await globalTeardown();
    await provider.close();
    throw failed.reason;
  }
  return () => provider.close();
}
