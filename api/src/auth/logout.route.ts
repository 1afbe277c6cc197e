import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { clearRefreshCookie, readRefreshCookie } from './refresh-cookie.js';
import { withDoc } from '../openapi/route-doc.js';

/** POST /auth/logout: works from the cookie alone (the access token may have expired already). */
export const logoutRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/logout', withDoc({ summary: 'Sign out: the refresh cookie and its family end', tag: 'Auth', responses: { 204: { description: 'Signed out' } } }, { config: { public: true } }), async (request, reply) => {
    const token = readRefreshCookie(request);
    if (token) await services.refreshTokens.revokeFamilyOf(token);
    clearRefreshCookie(request, reply, services.config.cookieSecure);
    return reply.code(204).send();
  });
};
