import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@tessera/contracts';

const MAX_KEYS = 50_000;

export interface RateLimitOptions {
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * Failed sign-ins counted per key ("user:<lower-case name>" and "ip:<address>") in a sliding
 * window, in this process's memory: the api runs as one process, and a restart forgetting
 * the counts costs an attacker no more than a window. A key with maxFailures failures in
 * the window is blocked until its oldest failure leaves the window.
 */
export class LoginRateLimit {
  readonly #failures = new Map<string, number[]>();
  readonly #max: number;
  readonly #window: number;
  readonly #now: () => number;

  constructor(opts: RateLimitOptions = {}) {
    this.#max = opts.maxFailures ?? LOGIN_MAX_FAILURES;
    this.#window = opts.windowMs ?? LOGIN_FAILURE_WINDOW_MS;
    this.#now = opts.now ?? Date.now;
  }

  /** Milliseconds until the first blocked key frees up, or 0 when none is blocked. */
  blockedFor(keys: string[]): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.#recent(key);
      if (recent.length >= this.#max) {
        wait = Math.max(wait, recent[recent.length - this.#max] + this.#window - this.#now());
      }
    }
    return wait;
  }

  recordFailure(keys: string[]): void {
    const now = this.#now();
    for (const key of keys) {
      const recent = this.#recent(key);
      recent.push(now);
      // Only the last maxFailures matter for the decision.
      if (recent.length > this.#max) recent.splice(0, recent.length - this.#max);
      this.#failures.delete(key);
      this.#failures.set(key, recent);
    }
    if (this.#failures.size > MAX_KEYS) this.#sweep();
  }

  /** A successful sign-in clears its username's count (not the address's: one good account must not reset it). */
  clear(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string): number[] {
    const since = this.#now() - this.#window;
    return (this.#failures.get(key) ?? []).filter((t) => t > since);
  }

  #sweep(): void {
    const since = this.#now() - this.#window;
    for (const [key, times] of this.#failures) {
      if (!times.some((t) => t > since)) this.#failures.delete(key);
    }
    // Still too many (a flood of distinct keys): drop the least recently failed.
    for (const key of this.#failures.keys()) {
      if (this.#failures.size <= MAX_KEYS) break;
      this.#failures.delete(key);
    }
  }
}

export const usernameKey = (username: string) => `user:${username.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;
