import type { AuthUser } from '@tessera/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Installed on the root instance, so the check runs for every route, including routes
 * added later in any plugin; a route is reachable without a token only if it says
 * `config: { public: true }`. A token also has to carry its user's current token epoch: a
 * deleted user's tokens, and those issued before a password change, stop here at once.
 */
export function installAuthGuard(app: FastifyInstance, tokens: AccessTokenService, epochs: TokenEpochs): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    // Unknown routes answer 404 rather than 401, so that a wrong URL is reported as such.
    if (request.is404 || request.routeOptions.config.public === true) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw HttpError.unauthorized('Authentication required');
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
