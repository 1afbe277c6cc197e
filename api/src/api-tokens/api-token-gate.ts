import { API_TOKEN_TEXTS } from '@tessera/contracts';
import type { ApiTokenRateLimit } from './api-token-rate-limit.js';
import type { ApiTokenService, VerifiedApiToken } from './api-token.service.js';

export type ApiTokenCheck =
  | { ok: true; token: VerifiedApiToken }
  | { ok: false; status: 401; message: string }
  | { ok: false; status: 429; message: string; retryAfterMs: number };

/** Methods a read-scope token may use: they change nothing. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one check of a `tsr_` credential, for HTTP routes and live sockets alike: a token that works
 * (api-token.service.ts's verify), then its rate limit. Scope is judged by the caller (a route's
 * method, a live operation).
 */
export class ApiTokenGate {
  constructor(
    readonly tokens: ApiTokenService,
    private readonly rateLimit: ApiTokenRateLimit,
  ) {}

  async check(token: string): Promise<ApiTokenCheck> {
    const verified = await this.tokens.verify(token);
    if (!verified) return { ok: false, status: 401, message: API_TOKEN_TEXTS.invalid };
    const rate = await this.rateLimit.hit(verified.tokenId);
    if (!rate.allowed) return { ok: false, status: 429, message: API_TOKEN_TEXTS.rateLimited, retryAfterMs: rate.retryAfterMs };
    return { ok: true, token: verified };
  }
}
