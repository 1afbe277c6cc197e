import type { FastifyInstance } from 'fastify';
import type { FeatureFlags } from '@tessera/contracts';
import type { AiProviderName } from '../config.js';
import { codeRunnerInfo } from '../health/health.route.js';
import type { CodeRunnerStatus } from '../runner/code-runner.js';
import { buildCapabilities } from './capabilities.js';

/**
 * GET /config: public, like /health. Capabilities hold no secret (the model's name, never its
 * key) and clients read them before deciding what to show (capability discovery, spec 02 §7).
 */
export function registerConfigRoute(
  app: FastifyInstance,
  version: string,
  provider: AiProviderName,
  model: string | null = null,
  flags?: FeatureFlags,
  /** The code runner's state, once it exists: /config names its live engine and packages. */
  runnerStatus: () => CodeRunnerStatus | undefined = () => undefined,
): void {
  const capabilities = buildCapabilities(version, provider, model, flags);
  app.get('/config', { config: { public: true } }, async () => {
    const info = codeRunnerInfo(runnerStatus()).code_runner;
    return info ? { ...capabilities, codeRunner: info } : capabilities;
  });
}
