import {
  API_TOKEN_PATTERN,
  ACCESS_TOKEN_ALG,
  ACCESS_TOKEN_ISSUER,
  AUTH_SESSION_PATH,
  type AuthUser,
  JWKS_PATH,
  TOKEN_EPOCH_CLAIM,
  TokenClaimsSchema,
  type ApiTokenScope,
} from '@tessera/contracts';
import { type ApiTokenCheck, createApiTokenCheck } from './api-token-check.js';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import {
  createRevocationCheck,
  RevocationCheckUnavailableError,
  type RevocationCheck,
  TokenRevokedError,
} from './revocation-check.js';

/** The api signs access tokens with this issuer and algorithm; nothing else is accepted. */
export const TOKEN_ISSUER = ACCESS_TOKEN_ISSUER;
export const TOKEN_ALGORITHMS = [ACCESS_TOKEN_ALG];

/** The token itself is bad: expired, tampered, wrong key, wrong alg, or missing claims. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** The key set could not be fetched, so the token could not be judged either way. */
export class VerifierUnavailableError extends Error {
  override name = 'VerifierUnavailableError';
}

// jose errors that mean "this token is not valid" rather than "the JWKS is unreachable".
const INVALID_TOKEN_CODES = new Set([
  errors.JWTExpired.code,
  errors.JWTClaimValidationFailed.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
]);

/** The token's user; `apiTokenScope` when it was a personal API token (the auth hook enforces it). */
export type TokenVerifier = (token: string) => Promise<AuthUser & { apiTokenScope?: ApiTokenScope }>;

/** The api's session route, on the same origin (and under the same prefix) as its JWKS. */
export function sessionUrlFor(jwksUrl: URL): URL {
  const base = jwksUrl.href.endsWith(JWKS_PATH) ? jwksUrl.href.slice(0, -JWKS_PATH.length) : jwksUrl.origin;
  return new URL(`${base}${AUTH_SESSION_PATH}`);
}

/**
 * Verifies access tokens against the api's public keys only: the middleware has
 * no private key, so it can check tokens but never mint them. A token carrying the
 * api's token epoch (every token the api issues) is also checked with the api, cached
 * for up to a minute, so a deleted user's or a changed password's tokens stop here too.
 * A personal API token (`tsr_…`) is asked of the api (API_TOKEN_CHECK_MS cache).
 */
export function createTokenVerifier(
  jwksUrl: URL,
  revocation: RevocationCheck = createRevocationCheck({ sessionUrl: sessionUrlFor(jwksUrl) }),
  apiTokens: ApiTokenCheck = createApiTokenCheck({ sessionUrl: sessionUrlFor(jwksUrl) }),
): TokenVerifier {
  const jwks = createRemoteJWKSet(jwksUrl, { timeoutDuration: 5000 });
  return async (token) => {
    // A personal API token (issue 21) is opaque: the api judges it (cached briefly, api-token-check.ts).
    if (API_TOKEN_PATTERN.test(token)) {
      try {
        return await apiTokens(token);
      } catch (err) {
        if (err instanceof TokenRevokedError) throw new InvalidTokenError(err.message, { cause: err });
        if (err instanceof RevocationCheckUnavailableError) throw new VerifierUnavailableError(err.message, { cause: err });
        throw err;
      }
    }
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        algorithms: TOKEN_ALGORITHMS,
        issuer: TOKEN_ISSUER,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      if (err instanceof errors.JOSEError && INVALID_TOKEN_CODES.has(err.code)) {
        throw new InvalidTokenError(err.message, { cause: err });
      }
      throw new VerifierUnavailableError(`cannot fetch the api's key set at ${jwksUrl.href}`, { cause: err });
    }
    // A token lacking sub, username or role yields no user (spec 01 §3).
    const claims = TokenClaimsSchema.safeParse(payload);
    if (!claims.success) throw new InvalidTokenError('token claims lack sub, username or role');
    const epoch = (payload as Record<string, unknown>)[TOKEN_EPOCH_CLAIM];
    if (epoch !== undefined) {
      try {
        await revocation(token, `${claims.data.sub}:${String(epoch)}`);
      } catch (err) {
        if (err instanceof TokenRevokedError) throw new InvalidTokenError(err.message, { cause: err });
        if (err instanceof RevocationCheckUnavailableError) throw new VerifierUnavailableError(err.message, { cause: err });
        throw err;
      }
    }
    return { id: claims.data.sub, username: claims.data.username, role: claims.data.role };
  };
}
