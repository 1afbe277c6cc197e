import { SSO_PENDING_TTL_S } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PendingSignIn } from './oidc-client.js';

const COOKIE_NAME = 'tessera_sso';
/** Sent only to the callback (and start, which replaces it). */
const COOKIE_PATH = '/api/v1/auth/oidc';

const PendingSchema = z.strictObject({
  state: z.string().min(1).max(128),
  nonce: z.string().min(1).max(128),
  codeVerifier: z.string().min(43).max(128),
  redirectUri: z.url().max(2048),
});

/**
 * Lax, not Strict like the refresh cookie: the browser comes back from the provider's site, and
 * the page it lands on must still own the pending sign-in. httpOnly: scripts never see the
 * verifier. A new start replaces it; the callback clears it whatever the outcome (one use).
 */
function options(request: FastifyRequest, secure: boolean | undefined) {
  return { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: secure ?? request.protocol === 'https' };
}

export function setPendingCookie(request: FastifyRequest, reply: FastifyReply, pending: PendingSignIn, secure: boolean | undefined): void {
  const value = Buffer.from(JSON.stringify(pending)).toString('base64url');
  reply.setCookie(COOKIE_NAME, value, { ...options(request, secure), maxAge: SSO_PENDING_TTL_S });
}

/** The pending sign-in, or undefined when there is none (expired, never started, or mangled). */
export function readPendingCookie(request: FastifyRequest): PendingSignIn | undefined {
  const raw = request.cookies[COOKIE_NAME];
  if (!raw || raw.length > 4096) return undefined;
  try {
    const parsed = PendingSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function clearPendingCookie(request: FastifyRequest, reply: FastifyReply, secure: boolean | undefined): void {
  reply.clearCookie(COOKIE_NAME, options(request, secure));
}
