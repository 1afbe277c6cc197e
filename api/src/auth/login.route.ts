import { ERROR_CODES, LoginBodySchema, MESSAGES, SSO_TEXTS, SessionResponseSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { accountOf, type AttemptKeys } from './login-rate-limit.js';
import { startSession } from './session.js';
import { withDoc } from '../openapi/route-doc.js';

/** 'Try again in 12 seconds.' under a minute, else in whole minutes (rounded up). */
export function retryText(waitMs: number): string {
  const seconds = Math.ceil(waitMs / 1000);
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * POST /auth/login: one answer for an unknown user and a wrong password, in text and in work done.
 * Throttled per (account, address), per address and per account (see login-rate-limit.ts): a
 * throttled attempt gets 429 with Retry-After before any password is checked. The address is
 * request.ip: the peer, or the client a trusted proxy names in X-Forwarded-For (TRUST_PROXY).
 */
export const loginRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const limit = services.loginRateLimit;
  app.post('/login', withDoc({ summary: 'Sign in: an access token, and the refresh cookie', tag: 'Auth', body: LoginBodySchema, responses: { 200: SessionResponseSchema } }, { config: { public: true } }), async (request, reply) => {
    // PASSWORD_LOGIN=false (config.ts makes sure single sign-on is on then); signup of the first admin stays.
    if (services.config.passwordLogin === false) throw HttpError.forbidden(SSO_TEXTS.passwordLoginOff(services.config.oidc?.name ?? 'SSO'));
    const body = validate(LoginBodySchema, request.body);
    const keys: AttemptKeys = { account: accountOf(body.username), address: request.ip };
    const decision = await limit.begin(keys);
    if (!decision.allowed) {
      reply.header('retry-after', String(Math.ceil(decision.waitMs / 1000)));
      throw new HttpError(429, ERROR_CODES.tooManyRequests, `${MESSAGES.tooManyLoginAttempts} ${retryText(decision.waitMs)}`);
    }
    const user = await services.users.findByUsername(body.username);
    const ok = user
      ? await services.passwords.verify(user.password_hash, body.password)
      : await services.passwords.verifyDummy(body.password);
    if (!user || !ok) throw HttpError.unauthorized(MESSAGES.invalidCredentials);
    await limit.succeeded(keys, decision.attemptId);
    return startSession(services, request, reply, user);
  });
};
