import { AUTH_SESSION_PATH, type SessionInfo, SessionInfoSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

const PATH = AUTH_SESSION_PATH.slice('/api/v1/auth'.length);

/**
 * GET /auth/session: 200 while the token it is called with is honoured (the guard checked
 * signature, expiry and epoch), with the user as the database has them now. The ai-middleware
 * asks this to learn, within a minute, that a token was revoked.
 */
export const sessionRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get(PATH, withDoc({ summary: 'Who this token acts for (and an API token\'s scope)', tag: 'Auth', responses: { 200: SessionInfoSchema } }), async (request): Promise<SessionInfo> => {
    const me = currentUser(request);
    const row = await services.users.findById(me.id);
    if (!row) throw HttpError.unauthorized('Account no longer exists');
    // An API token's scope, so that other services refuse a read token's writes as the api does.
    return { id: row.id, username: row.username, role: row.role, ...(request.apiToken ? { api_token_scope: request.apiToken.scope } : {}) };
  });
};
