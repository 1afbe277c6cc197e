import { LoginBodySchema, MESSAGES } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { startSession } from './session.js';

/** POST /auth/login: one answer for an unknown user and a wrong password, in text and in work done. */
export const loginRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/login', { config: { public: true } }, async (request, reply) => {
    const body = validate(LoginBodySchema, request.body);
    const user = await services.users.findByUsername(body.username);
    const ok = user
      ? await services.passwords.verify(user.password_hash, body.password)
      : await services.passwords.verifyDummy(body.password);
    if (!user || !ok) throw HttpError.unauthorized(MESSAGES.invalidCredentials);
    return startSession(services, request, reply, user);
  });
};
