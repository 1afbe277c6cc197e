import { MESSAGES, SessionResponseSchema, SignupBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { startSession } from './session.js';
import { withDoc } from '../openapi/route-doc.js';

/** POST /auth/signup: only the first account, which becomes admin; then signup is closed. */
export const signupRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/signup', withDoc({ summary: 'Create the first account (an admin); closed afterwards', tag: 'Auth', body: SignupBodySchema, responses: { 201: SessionResponseSchema } }, { config: { public: true } }), async (request, reply) => {
    // Closed is the answer to any signup once an account exists, whatever the body says.
    if (await services.users.anyExists()) throw HttpError.forbidden(MESSAGES.signupClosed);
    const body = validate(SignupBodySchema, request.body);
    const passwordHash = await services.passwords.hash(body.password);
    const user = await services.users.createFirstAdmin({
      username: body.username,
      passwordHash,
      email: body.email,
      nickname: body.nickname,
    });
    // Lost the race to a concurrent first signup.
    if (!user) throw HttpError.forbidden(MESSAGES.signupClosed);
    request.log.info({ userId: user.id }, 'first account created (admin); signup closed');
    return reply.code(201).send(await startSession(services, request, reply, user));
  });
};
