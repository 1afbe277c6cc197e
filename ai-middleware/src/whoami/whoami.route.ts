import { AuthUserSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';

/** GET /whoami (protected): the verified token's user, as the middleware sees it. */
export function registerWhoamiRoute(app: FastifyInstance): void {
  app.get('/whoami', async (request) => AuthUserSchema.parse(request.user));
}
