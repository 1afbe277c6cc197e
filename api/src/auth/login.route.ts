import { ERROR_CODES, LoginBodySchema, MESSAGES } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { addressKey, usernameKey } from './login-rate-limit.js';
import { startSession } from './session.js';

/**
 * POST /auth/login: one answer for an unknown user and a wrong password, in text and in work done.
 * Rate-limited per username and per address (see LoginRateLimit): when either has too many
 * recent failures the answer is 429 with Retry-After, before any password is checked.
 */
export const loginRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const limit = services.loginRateLimit;
  app.post('/login', { config: { public: true } }, async (request, reply) => {
    const body = validate(LoginBodySchema, request.body);
    const keys = [usernameKey(body.username), addressKey(request.ip)];
    const waitMs = limit.blockedFor(keys);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      const minutes = Math.ceil(seconds / 60);
      reply.header('retry-after', String(seconds));
      throw new HttpError(
        429,
        ERROR_CODES.tooManyRequests,
        `${MESSAGES.tooManyLoginAttempts} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const user = await services.users.findByUsername(body.username);
    const ok = user
      ? await services.passwords.verify(user.password_hash, body.password)
      : await services.passwords.verifyDummy(body.password);
    if (!user || !ok) {
      limit.recordFailure(keys);
      throw HttpError.unauthorized(MESSAGES.invalidCredentials);
    }
    limit.clear(keys[0]);
    return startSession(services, request, reply, user);
  });
};
