import type { ServiceHealth } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { ServicesOptions } from '../services.js';

const DB_CHECK_TIMEOUT_MS = 2000;

/** GET /health: unauthenticated; 503 when the database does not answer. */
export const healthRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/health', { config: { public: true } }, async (request, reply) => {
    let database: 'ok' | 'failing' = 'ok';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sql`SELECT 1`.execute(services.db),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database check timed out')), DB_CHECK_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      request.log.warn({ err }, 'health: database check failed');
      database = 'failing';
    } finally {
      clearTimeout(timer);
    }
    const body: ServiceHealth = {
      service: 'api',
      status: database === 'ok' ? 'healthy' : 'unhealthy',
      version: services.version,
      uptime_s: Math.floor((Date.now() - services.startedAt) / 1000),
      checks: { database },
    };
    return reply.code(database === 'ok' ? 200 : 503).send(body);
  });
};
