import { API_TOKEN_TEXTS, type ApiTokenScope, type AuthUser, ERROR_CODES, isApiToken } from '@tessera/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiTokenGate, READ_METHODS } from '../api-tokens/api-token-gate.js';
import type { AccessTokenService } from '../auth/access-token.service.js';
import type { TokenEpochs } from '../auth/token-epochs.js';
import { HttpError } from './http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opts a route out of the access-token check. Everything else is protected by default. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The verified token's user (sub, username, role); null only on public routes. */
    user: AuthUser | null;
    /** Set when the caller is a personal API token (`tsr_…`) rather than a signed-in session. */
    apiToken: { id: string; scope: ApiTokenScope } | null;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Installed on the root instance, so the check runs for every route, including routes
 * added later in any plugin; a route is reachable without a token only if it says
 * `config: { public: true }`. A token also has to carry its user's current token epoch: a
 * deleted user's tokens, and those issued before a password change, stop here at once.
 * A personal API token (`tsr_…`, issue 21) acts as its owner, as the database has them now,
 * within its scope: a read-scope token gets 403 on every method that may change something.
 */
export function installAuthGuard(app: FastifyInstance, tokens: AccessTokenService, epochs: TokenEpochs, apiTokens: ApiTokenGate): void {
  app.decorateRequest('user', null);
  app.decorateRequest('apiToken', null);
  app.addHook('onRequest', async (request, reply) => {
    // Unknown routes answer 404 rather than 401, so that a wrong URL is reported as such.
    if (request.is404 || request.routeOptions.config.public === true) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw HttpError.unauthorized('Authentication required');
    if (isApiToken(match[1])) {
      const checked = await apiTokens.check(match[1]);
      if (!checked.ok) {
        if (checked.status === 401) throw HttpError.unauthorized(checked.message);
        reply.header('retry-after', String(Math.max(1, Math.ceil(checked.retryAfterMs / 1000))));
        throw new HttpError(429, ERROR_CODES.tooManyRequests, checked.message);
      }
      if (checked.token.scope === 'read' && !READ_METHODS.has(request.method)) throw HttpError.forbidden(API_TOKEN_TEXTS.readOnly);
      request.user = checked.token.user;
      request.apiToken = { id: checked.token.tokenId, scope: checked.token.scope };
      return;
    }
    const verified = await tokens.verify(match[1]);
    if (!verified) throw HttpError.unauthorized('Invalid or expired access token');
    const epoch = await epochs.current(verified.user.id);
    if (epoch === null) throw HttpError.unauthorized('Account no longer exists');
    if (epoch !== verified.epoch) throw HttpError.unauthorized('Session ended. Please sign in again.');
    request.user = verified.user;
  });
}

/** The signed-in user of a protected route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw HttpError.unauthorized('Authentication required');
  return request.user;
}
