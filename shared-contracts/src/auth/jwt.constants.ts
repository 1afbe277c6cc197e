/** How the api issues access tokens, so that other services verify them the same way. */
export const ACCESS_TOKEN_ISSUER = 'tessera-api';
/** Ed25519 signatures; verifiers must accept this algorithm only. */
export const ACCESS_TOKEN_ALG = 'EdDSA';
/** The api's public key set (path on the api origin). */
export const JWKS_PATH = '/api/v1/auth/jwks.json';
/** The refresh cookie (REFRESH_COOKIE_NAME) is sent only to the auth routes under this path. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth';
/**
 * Access-token claim holding the user's token epoch when it was issued. The api raises a
 * user's epoch on a password change; a token of an older epoch (or of a deleted user) is refused.
 */
export const TOKEN_EPOCH_CLAIM = 'tep';
/** Protected api route that answers 200 only while the token it is called with is still honoured. */
export const AUTH_SESSION_PATH = '/api/v1/auth/session';
/** Other services (the ai-middleware) re-ask the api about a token at least this often. */
export const TOKEN_REVOCATION_CHECK_MS = 60_000;
/**
 * Sign-in throttling (api/src/auth/login-rate-limit.ts), failures counted within
 * LOGIN_FAILURE_WINDOW_MS: at this many for one (account, address) pair, that pair gets 429 with
 * Retry-After until its oldest failure leaves the window; one address gets ten times as many
 * across all accounts; from this many failures of one account (any addresses), each address that
 * failed on it waits, after its own last failure, a delay doubling with each further failure of
 * the account (1 s up to 30 s). An address that has not failed on the account is never held
 * back: no account is locked.
 */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
