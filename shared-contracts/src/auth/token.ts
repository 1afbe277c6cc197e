import { type AuthUser, TokenClaimsSchema, type TokenClaims } from './auth.schema.js';

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads (does not verify) a JWT's claims on the client. A token that does not
 * decode, or whose claims lack sub, username or role, yields null (spec 01 §3).
 */
export function decodeTokenClaims(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const parsed = TokenClaimsSchema.safeParse(JSON.parse(base64UrlDecode(parts[1])));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function userFromToken(token: string | null | undefined): AuthUser | null {
  const claims = decodeTokenClaims(token);
  return claims ? { id: claims.sub, username: claims.username, role: claims.role } : null;
}

/** True when the token decodes and its exp is still ahead of `nowMs`. */
export function isTokenLive(token: string | null | undefined, nowMs = Date.now()): boolean {
  const claims = decodeTokenClaims(token);
  return !!claims && claims.exp * 1000 > nowMs;
}
