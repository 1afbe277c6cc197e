import { API_TOKEN_TEXTS, type AuthUser, ERROR_CODES } from '@tessera/contracts';
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

// A JWT, or a personal API token (tsr_<12 hex>_<43 base64url>, issue 21).
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*|tsr_[0-9a-f]{12}_[A-Za-z0-9_-]{43})$/;
/** Methods a read-scope API token may use, as on the api. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
      const { apiTokenScope, ...user } = await verify(match[1]);
      if (apiTokenScope === 'read' && !READ_METHODS.has(request.method)) {
        return sendError(reply, 403, ERROR_CODES.forbidden, API_TOKEN_TEXTS.readOnly);
      }
      request.user = user;
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
