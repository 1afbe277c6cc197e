import { type AuthStatus, AuthStatusSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

/** GET /auth/status: signup is open exactly while no account exists. */
export const statusRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/status', withDoc({ summary: 'Whether signup is open (no account yet)', tag: 'Auth', responses: { 200: AuthStatusSchema } }, { config: { public: true } }), async (): Promise<AuthStatus> => {
    return { signup_open: !(await services.users.anyExists()) };
  });
};
