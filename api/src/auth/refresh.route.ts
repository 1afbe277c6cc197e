import { SessionResponseSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error.js';
import type { ServicesOptions } from '../services.js';
import { toAuthUser, toPublicUser } from '../users/user.mapper.js';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.js';
import { withDoc } from '../openapi/route-doc.js';

const SESSION_ENDED = 'Session expired. Please sign in again.';

/**
 * POST /auth/refresh: exchanges the cookie's refresh token for its successor and a new
 * access token carrying the user's current role from the database.
 */
export const refreshRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const secure = services.config.cookieSecure;
  app.post('/refresh', withDoc({ summary: "A new access token for the refresh cookie (rotated)", tag: 'Auth', responses: { 200: SessionResponseSchema } }, { config: { public: true } }), async (request, reply) => {
    const token = readRefreshCookie(request);
    if (!token) throw HttpError.unauthorized(SESSION_ENDED);
    const result = await services.refreshTokens.rotate(token);
    if (!result.ok) {
      if (result.reason === 'reused') request.log.warn('refresh token reused: its family is revoked');
      clearRefreshCookie(request, reply, secure);
      throw HttpError.unauthorized(SESSION_ENDED);
    }
    const user = await services.users.findById(result.userId);
    if (!user) {
      clearRefreshCookie(request, reply, secure);
      throw HttpError.unauthorized(SESSION_ENDED);
    }
    setRefreshCookie(request, reply, result.next.token, secure);
    return { access_token: await services.accessTokens.issue(toAuthUser(user), user.token_epoch), user: toPublicUser(user) };
  });
};
