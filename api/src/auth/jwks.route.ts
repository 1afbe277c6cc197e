import { JwksSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

/** GET /auth/jwks.json: the public key other services verify access tokens with. */
export const jwksRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/jwks.json', withDoc({ summary: 'The public key access tokens are verified with', tag: 'Auth', responses: { 200: JwksSchema } }, { config: { public: true } }), async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: [services.keys.publicJwk] };
  });
};
