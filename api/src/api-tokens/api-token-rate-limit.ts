import { API_TOKEN_RATE_WINDOW_MS } from '@tessera/contracts';
import type { Redis } from 'ioredis';

/**
 * Requests per API token: at most `limit` in each API_TOKEN_RATE_WINDOW_MS window (fixed windows:
 * a script at the edge of two may make up to twice the limit in a minute, never more). Counted
 * in Redis when there is one, so every api process shares a token's count; else in this process.
 */
export interface ApiTokenRateLimit {
  /** Counts one request; when over the limit, how long until the window ends. */
  hit(tokenId: string): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }>;
}

/** Bounds the memory store: windows of tokens not seen in the current window go first. */
const MAX_KEYS = 100_000;

export class MemoryApiTokenRateLimit implements ApiTokenRateLimit {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = API_TOKEN_RATE_WINDOW_MS,
  ) {}

  async hit(tokenId: string) {
    const now = this.now();
    let w = this.#windows.get(tokenId);
    if (!w || now - w.start >= this.windowMs) {
      if (!w && this.#windows.size >= MAX_KEYS) this.#sweep(now);
      w = { start: now, count: 0 };
      this.#windows.set(tokenId, w);
    }
    w.count += 1;
    if (w.count <= this.limit) return { allowed: true } as const;
    return { allowed: false, retryAfterMs: w.start + this.windowMs - now } as const;
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now - w.start >= this.windowMs) this.#windows.delete(key);
    // All current (a flood of distinct tokens within a minute): the oldest windows go.
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MAX_KEYS * 0.9) break;
      this.#windows.delete(key);
    }
  }
}

/** KEYS: the token's counter. ARGV: window ms. Returns { count, ms left in the window }. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { n, ttl }
`;

export class RedisApiTokenRateLimit implements ApiTokenRateLimit {
  /** `redis` is the api's command connection (closed by its owner); `prefix` keeps deployments apart. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs = API_TOKEN_RATE_WINDOW_MS,
  ) {}

  async hit(tokenId: string) {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}api-token-rate:${tokenId}`, this.windowMs)) as [number, number];
    if (Number(count) <= this.limit) return { allowed: true } as const;
    return { allowed: false, retryAfterMs: Number(ttl) } as const;
  }
}
