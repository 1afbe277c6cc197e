import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ShellServerConfig } from './config.js';
import { echoRequestId, genReqId, loggerOptions } from '@tessera/server-kit';
import { refuseMetrics } from './proxy/metrics-guard.js';
import { registerProxies } from './proxy/proxies.js';
import { refuseStrayUpgrades, upgradeConstraint } from './proxy/upgrade-constraint.js';
import { RemotesStore } from './remotes/remotes-store.js';
import { registerRemotesRoute } from './remotes/remotes.route.js';
import { helmetOptions, registerRemoteOriginsHook } from './security/csp.js';
import { registerShellStatic } from './spa/static.js';

/** Builds the shell server (not listening): static shell, remotes.json, proxies, security headers. */
export async function buildServer(config: ShellServerConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    // The id goes on to the api and the ai-middleware (proxies.ts): one id per request in every log.
    genReqId,
    routerOptions: { constraints: { upgrade: upgradeConstraint } },
    // A proxy in front (SHELL_TRUST_PROXY, default none) vouches for the client's address and scheme.
    trustProxy: config.trustProxy ?? [],
  });
  const store = new RemotesStore(config.remotesFile, config.repoRoot, app.log);

  echoRequestId(app);
  refuseMetrics(app);
  refuseStrayUpgrades(app);
  // Before helmet: its CSP directive functions read what this hook stores.
  registerRemoteOriginsHook(app, store);
  await app.register(helmet, helmetOptions);

  registerRemotesRoute(app, store);
  app.get('/shell-health', async () => ({ service: 'shell', status: 'healthy' }));
  await registerProxies(app, { apiUrl: config.apiUrl, aiUrl: config.aiUrl });
  await registerShellStatic(app, config.distDir);
  return app;
}
