import { type AuthUser, ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { AUTH_UNAVAILABLE_CODE, sendError } from '../http/errors.js';
import { InvalidTokenError, type TokenVerifier } from './token-verifier.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opt-out of the default: a route is protected unless it says `public: true`. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Set from a verified Bearer token on every protected route. */
    user: AuthUser | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

/**
 * Default-protected: every request needs a valid Bearer token unless its route
 * is marked public. Runs at onRequest so no body is parsed for a stranger; an
 * unknown path is protected too (strangers learn nothing about routes).
 */
export function registerAuthHook(app: FastifyInstance, verify: TokenVerifier): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public === true) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) {
      return sendError(reply, 401, ERROR_CODES.unauthorized, 'Missing or malformed Bearer token');
    }
    try {
      request.user = await verify(match[1]);
    } catch (err) {
      if (err instanceof InvalidTokenError) {
        request.log.info({ reason: err.message }, 'token refused');
        return sendError(reply, 401, ERROR_CODES.unauthorized, 'Invalid or expired token');
      }
      request.log.error({ err }, 'token verification unavailable');
      return sendError(reply, 503, AUTH_UNAVAILABLE_CODE, 'Token verification is unavailable: the api cannot be reached');
    }
  });
}
