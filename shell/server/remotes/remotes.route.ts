import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import type { RemotesStore } from './remotes-store.js';

/** GET /remotes.json: read at every page load, never cached (FACTS.md: MF cache traps). */
export function registerRemotesRoute(app: FastifyInstance, store: RemotesStore): void {
  app.get('/remotes.json', async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    const result = await store.read();
    if (!result.ok) {
      request.log.error({ details: result.details }, result.message);
      return reply.code(500).send({
        error: { code: ERROR_CODES.internal, message: `Invalid remotes manifest: ${result.message}`, details: result.details },
      });
    }
    return result.manifest;
  });
}
