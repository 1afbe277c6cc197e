import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';

/** GET /auth/jwks.json: the public key other services verify access tokens with. */
export const jwksRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/jwks.json', { config: { public: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: [services.keys.publicJwk] };
  });
};
