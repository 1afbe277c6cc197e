import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { clearRefreshCookie, readRefreshCookie } from './refresh-cookie.js';

/** POST /auth/logout: works from the cookie alone (the access token may have expired already). */
export const logoutRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/logout', { config: { public: true } }, async (request, reply) => {
    const token = readRefreshCookie(request);
    if (token) await services.refreshTokens.revokeFamilyOf(token);
    clearRefreshCookie(request, reply, services.config.cookieSecure);
    return reply.code(204).send();
  });
};
