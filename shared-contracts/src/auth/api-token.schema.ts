import { z } from 'zod';

/**
 * Personal API tokens (issue 21): `Authorization: Bearer tsr_…` on any /api/v1 route and on the
 * live sockets, acting with the owner's access and the token's scope. The token is shown once;
 * the api keeps only its SHA-256 and its lookup id.
 */

/** Every API token starts with this, so that it is told apart from a JWT (and found by secret scanners). */
export const API_TOKEN_PREFIX = 'tsr_';
/** A token: prefix, 12 hex of lookup id, '_', 43 base64url characters of secret (32 random bytes). */
export const API_TOKEN_PATTERN = /^tsr_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/** An expiry is required and at most a year away: a forgotten token does not work forever. */
export const API_TOKEN_MAX_DAYS = 365;
/** Tokens one member may hold at once (not revoked, not expired): enough for every script, bounded storage. */
export const API_TOKEN_MAX_PER_USER = 20;
export const API_TOKEN_NAME_MAX_LENGTH = 64;
/** Requests one token may make per minute when API_TOKEN_RATE_LIMIT is unset (per api process, or shared through Redis). */
export const API_TOKEN_RATE_LIMIT_DEFAULT = 600;
export const API_TOKEN_RATE_WINDOW_MS = 60_000;
/** The account routes that create, list and revoke a member's tokens. */
export const API_TOKENS_PATH = '/api/v1/auth/api-tokens';

export const API_TOKEN_SCOPES = ['read', 'read-write'] as const;
export const ApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES, { message: "Scope must be 'read' or 'read-write'" });
export type ApiTokenScope = z.infer<typeof ApiTokenScopeSchema>;

export const API_TOKEN_TEXTS = {
  /** A read-scope token on any non-GET route, or a live operation. */
  readOnly: 'This API token is read-only: it cannot make changes',
  /** Tokens are managed from a signed-in session, never by another token. */
  noTokenManagement: 'API tokens cannot create or revoke API tokens: sign in to Tessera to manage them',
  invalid: 'Invalid, expired or revoked API token',
  tooMany: `You already have ${API_TOKEN_MAX_PER_USER} API tokens: revoke one first`,
  rateLimited: 'Too many requests with this API token: slow down',
  notFound: 'API token not found',
  expiryRange: `Expiry must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}`,
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`,
} as const;

export const CreateApiTokenBodySchema = z.strictObject({
  name: z
    .string({ message: API_TOKEN_TEXTS.nameRequired })
    .trim()
    .min(1, API_TOKEN_TEXTS.nameRequired)
    .max(API_TOKEN_NAME_MAX_LENGTH, API_TOKEN_TEXTS.nameTooLong)
    // Control characters would garble the list and logs.
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Name must not contain control characters'),
  scope: ApiTokenScopeSchema,
  expires_in_days: z
    .number({ message: API_TOKEN_TEXTS.expiryRange })
    .int(API_TOKEN_TEXTS.expiryRange)
    .min(1, API_TOKEN_TEXTS.expiryRange)
    .max(API_TOKEN_MAX_DAYS, API_TOKEN_TEXTS.expiryRange),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBodySchema>;

/** A token as listed: never its secret. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The visible start of the token (`tsr_<lookup id>`), so its owner knows which one it is. */
  prefix: z.string(),
  scope: ApiTokenScopeSchema,
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** The reply to a create: the token itself, this once. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string().regex(API_TOKEN_PATTERN) });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

export const ApiTokenIdParamsSchema = z.object({ id: z.uuid({ message: API_TOKEN_TEXTS.notFound }) });

/** Whether a bearer credential is an API token (rather than a session's JWT). */
export const isApiToken = (token: string): boolean => token.startsWith(API_TOKEN_PREFIX);
