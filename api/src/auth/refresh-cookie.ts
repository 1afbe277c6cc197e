import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TOKEN_TTL_S } from './refresh-token.service.js';

/** `secureOverride` is COOKIE_SECURE; unset means Secure exactly when the request came over https. */
function cookieOptions(request: FastifyRequest, secureOverride: boolean | undefined) {
  return {
    path: REFRESH_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: secureOverride ?? request.protocol === 'https',
  };
}

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE_NAME];
  return value ? value : undefined;
}

export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, secure: boolean | undefined): void {
  reply.setCookie(REFRESH_COOKIE_NAME, token, { ...cookieOptions(request, secure), maxAge: REFRESH_TOKEN_TTL_S });
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply, secure: boolean | undefined): void {
  reply.clearCookie(REFRESH_COOKIE_NAME, cookieOptions(request, secure));
}
