import crypto from 'node:crypto';
import { type ApiTokenScope, SessionInfoSchema, type AuthUser, RoleSchema } from '@tessera/contracts';
import { RevocationCheckUnavailableError, TokenRevokedError } from './revocation-check.js';

/** How long an answer of the api about one `tsr_` token is reused: a revocation reaches this service within it. */
export const API_TOKEN_CHECK_MS = 10_000;

export interface ApiTokenCheckOptions {
  /** The api's GET /api/v1/auth/session. */
  sessionUrl: URL;
  ttlMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  maxEntries?: number;
}

export type ApiTokenUser = AuthUser & { apiTokenScope: ApiTokenScope };
export type ApiTokenCheck = (token: string) => Promise<ApiTokenUser>;

/**
 * Personal API tokens (`tsr_…`, issue 21) are opaque: only the api can judge them. This asks its
 * GET /auth/session with the token (5 s timeout), which answers the owner and the token's scope.
 * Answers are cached per token (by its SHA-256, never the token) for ttlMs, bounded to
 * maxEntries; concurrent checks of one token share a request. Each cache miss counts once
 * against the token's rate limit at the api.
 */
export function createApiTokenCheck(opts: ApiTokenCheckOptions): ApiTokenCheck {
  const ttl = opts.ttlMs ?? API_TOKEN_CHECK_MS;
  const now = opts.now ?? Date.now;
  const doFetch = opts.fetch ?? fetch;
  const maxEntries = opts.maxEntries ?? 10_000;
  const answers = new Map<string, { user: ApiTokenUser | null; until: number }>();
  const inflight = new Map<string, Promise<ApiTokenUser | null>>();

  async function ask(token: string): Promise<ApiTokenUser | null> {
    let res: Response;
    try {
      res = await doFetch(opts.sessionUrl, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) });
    } catch (err) {
      throw new RevocationCheckUnavailableError(`cannot reach the api at ${opts.sessionUrl.href}`, { cause: err });
    }
    if (res.status === 401) {
      await res.body?.cancel();
      return null;
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new RevocationCheckUnavailableError(`the api answered ${res.status} at ${opts.sessionUrl.href}`);
    }
    const info = SessionInfoSchema.safeParse(await res.json().catch(() => null));
    const role = RoleSchema.safeParse(info.success ? info.data.role : undefined);
    if (!info.success || !role.success || !info.data.api_token_scope) {
      throw new RevocationCheckUnavailableError(`the api's session answer for an API token is not understood at ${opts.sessionUrl.href}`);
    }
    return { id: info.data.id, username: info.data.username, role: role.data, apiTokenScope: info.data.api_token_scope };
  }

  return async (token) => {
    const key = crypto.createHash('sha256').update(token).digest('hex');
    const cached = answers.get(key);
    let user: ApiTokenUser | null;
    if (cached && cached.until > now()) {
      user = cached.user;
    } else {
      let pending = inflight.get(key);
      if (!pending) {
        pending = ask(token).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      user = await pending;
      answers.delete(key);
      if (answers.size >= maxEntries) {
        const oldest = answers.keys().next().value;
        if (oldest !== undefined) answers.delete(oldest);
      }
      answers.set(key, { user, until: now() + ttl });
    }
    if (!user) throw new TokenRevokedError('the api does not honour this API token');
    return user;
  };
}
