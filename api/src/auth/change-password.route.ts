import { ChangePasswordBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { readRefreshCookie } from './refresh-cookie.js';
import { withDoc } from '../openapi/route-doc.js';

/**
 * POST /auth/change-password for one's own account: the current password is required
 * (spec 01 §6). A wrong one is a 400, not a 401: the client treats 401 as an ended session.
 * Other sessions of the user end; the one making the change stays signed in (its refresh
 * cookie is kept), while every access token of the old password stops working.
 */
export const changePasswordRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/change-password', withDoc({ summary: 'Change one\'s own password (other sessions end)', tag: 'Auth', body: ChangePasswordBodySchema, responses: { 204: { description: 'Changed' } } }), async (request, reply) => {
    const me = currentUser(request);
    const body = validate(ChangePasswordBodySchema, request.body);
    if (!body.old_password) throw HttpError.badRequest('Current password is required');
    const user = await services.users.findById(me.id);
    if (!user) throw HttpError.unauthorized('Account no longer exists');
    if (!(await services.passwords.verify(user.password_hash, body.old_password))) {
      throw HttpError.badRequest('Current password is incorrect');
    }
    await services.users.setPasswordHash(user.id, await services.passwords.hash(body.new_password));
    // The access tokens of the old password stop at once (this one too: the client refreshes
    // through its kept cookie); every other session ends.
    services.tokenEpochs.changed(user.id);
    await services.refreshTokens.revokeAllForUser(user.id, readRefreshCookie(request));
    return reply.code(204).send();
  });
};
