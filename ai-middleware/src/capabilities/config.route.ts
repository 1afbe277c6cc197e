import type { FastifyInstance } from 'fastify';
import type { AiProvider } from '../config.js';
import { buildCapabilities } from './capabilities.js';

/**
 * GET /config: public, like /health. Capabilities hold no secret and clients
 * read them before deciding what to show (capability discovery, spec 02 §7).
 */
export function registerConfigRoute(app: FastifyInstance, version: string, provider: AiProvider): void {
  const capabilities = buildCapabilities(version, provider);
  app.get('/config', { config: { public: true } }, async () => capabilities);
}
