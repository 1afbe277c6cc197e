/** How the api issues access tokens, so that other services verify them the same way. */
export const ACCESS_TOKEN_ISSUER = 'tessera-api';
/** Ed25519 signatures; verifiers must accept this algorithm only. */
export const ACCESS_TOKEN_ALG = 'EdDSA';
/** The api's public key set (path on the api origin). */
export const JWKS_PATH = '/api/v1/auth/jwks.json';
/** The refresh cookie (REFRESH_COOKIE_NAME) is sent only to the auth routes under this path. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth';
