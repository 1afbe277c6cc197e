import { type LogoutResponse, LogoutResponseSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { clearRefreshCookie, readRefreshCookie } from './refresh-cookie.js';
import { withDoc } from '../openapi/route-doc.js';

/**
 * POST /auth/logout: works from the cookie alone (the access token may have expired already).
 * 204, or 200 with the provider's end_session_url when the session is a single sign-on
 * member's and the provider offers RP-initiated logout: the page then goes there.
 */
export const logoutRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/logout', withDoc({ summary: 'Sign out: the refresh cookie and its family end', tag: 'Auth', responses: { 200: LogoutResponseSchema, 204: { description: 'Signed out' } } }, { config: { public: true } }), async (request, reply) => {
    const token = readRefreshCookie(request);
    const ended = token ? await services.refreshTokens.revokeFamilyOf(token) : undefined;
    clearRefreshCookie(request, reply, services.config.cookieSecure);
    const endSessionUrl = ended && services.oidc ? await services.oidc.endSessionUrl(ended.userId, request) : undefined;
    if (endSessionUrl) return reply.code(200).send({ end_session_url: endSessionUrl } satisfies LogoutResponse);
    return reply.code(204).send();
  });
};
