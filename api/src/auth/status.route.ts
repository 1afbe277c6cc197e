import type { AuthStatus } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';

/** GET /auth/status: signup is open exactly while no account exists. */
export const statusRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/status', { config: { public: true } }, async (): Promise<AuthStatus> => {
    return { signup_open: !(await services.users.anyExists()) };
  });
};
