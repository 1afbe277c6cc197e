import crypto from 'node:crypto';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@tessera/contracts';
import type { Redis } from 'ioredis';

/**
 * Sign-in throttling that slows guessing without letting anyone lock an account (issue 17 §5).
 * Failures are counted in a sliding window (LOGIN_FAILURE_WINDOW_MS) under three keys:
 * - the pair (account, address): at LOGIN_MAX_FAILURES that pair waits until its oldest failure
 *   leaves the window. Only the guesser waits: the owner at another address is not affected.
 * - the address, across accounts, with a larger budget: one address spraying a password over
 *   many accounts stops at `addressMax`.
 * - the account, across addresses: from `accountFree` failures on, every address that has itself
 *   failed on this account waits a delay after its own last failure, doubling with each further
 *   failure of the account, capped at `delayCapMs`. An address that has not failed on the account
 *   is not delayed, so a correct password from a clean address always passes, and a user who
 *   mistyped waits at most the cap: no lock, only growing delays for the attackers.
 * Every attempt that is let through is recorded as a failure before its password is checked (and
 * withdrawn if it succeeds), in one step with the decision: parallel guesses cannot all pass the
 * check before the first one counts.
 */
export interface ThrottlePolicy {
  windowMs: number;
  pairMax: number;
  addressMax: number;
  accountFree: number;
  delayBaseMs: number;
  delayCapMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  windowMs: LOGIN_FAILURE_WINDOW_MS,
  pairMax: LOGIN_MAX_FAILURES,
  // Ten times a person's budget: an office behind one NAT address mistyping all morning stays
  // under it; an address trying one password over a hundred accounts in 15 minutes does not.
  addressMax: 10 * LOGIN_MAX_FAILURES,
  accountFree: LOGIN_MAX_FAILURES,
  delayBaseMs: 1_000,
  // A user who mistyped while their account is attacked waits half a minute at most.
  delayCapMs: 30_000,
};

/** Whose failures an attempt counts against. */
export interface AttemptKeys {
  account: string;
  address: string;
}

export type AttemptDecision = { allowed: false; waitMs: number } | { allowed: true; attemptId: string };

export interface LoginRateLimit {
  /** Decides, and when allowed records this attempt as a failure (withdrawn by succeeded()). */
  begin(keys: AttemptKeys): Promise<AttemptDecision>;
  /**
   * The attempt's password was right: it was no failure, and neither were this pair's earlier
   * ones (typos of the owner): they leave the address's and the account's counts too.
   */
  succeeded(keys: AttemptKeys, attemptId: string): Promise<void>;
  close(): Promise<void>;
}

export const accountOf = (username: string) => username.trim().toLowerCase();

/**
 * Bounds the memory store (about 100 bytes a key): past this many keys the expired ones go, then
 * the least recently failed down to 90 %, so that a flood of distinct keys sweeps once in a while,
 * not at every attempt.
 */
const MAX_KEYS = 100_000;
/** An account's delay stops growing after log2(cap / base) failures: older ones need not be kept. */
const accountKeep = (p: ThrottlePolicy) => p.accountFree + Math.ceil(Math.log2(Math.max(2, p.delayCapMs / p.delayBaseMs))) + 1;

interface Failure {
  t: number;
  id: string;
}

/** How long an attempt waits, from the failures (oldest first) still in the window of each key. */
export function waitFor(p: ThrottlePolicy, now: number, pair: number[], address: number[], account: number): number {
  let wait = 0;
  if (pair.length >= p.pairMax) wait = Math.max(wait, pair[pair.length - p.pairMax] + p.windowMs - now);
  if (address.length >= p.addressMax) wait = Math.max(wait, address[address.length - p.addressMax] + p.windowMs - now);
  if (account >= p.accountFree && pair.length > 0) {
    const delay = Math.min(p.delayBaseMs * 2 ** (account - p.accountFree), p.delayCapMs);
    wait = Math.max(wait, pair[pair.length - 1] + delay - now);
  }
  return Math.max(0, wait);
}

/** In this process's memory: one api process without Redis. */
export class MemoryLoginRateLimit implements LoginRateLimit {
  readonly #failures = new Map<string, Failure[]>();
  readonly #policy: ThrottlePolicy;
  readonly #now: () => number;
  readonly #maxKeys: number;

  constructor(policy: Partial<ThrottlePolicy> = {}, now: () => number = Date.now, maxKeys = MAX_KEYS) {
    this.#policy = { ...DEFAULT_THROTTLE_POLICY, ...policy };
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** Keys held now (at most maxKeys). */
  get size(): number {
    return this.#failures.size;
  }

  async begin(keys: AttemptKeys): Promise<AttemptDecision> {
    const p = this.#policy;
    const now = this.#now();
    const [pairKey, addressKey, accountKey] = storeKeys(keys);
    const times = (key: string) => this.#recent(key, now).map((f) => f.t);
    const waitMs = waitFor(p, now, times(pairKey), times(addressKey), this.#recent(accountKey, now).length);
    if (waitMs > 0) return { allowed: false, waitMs };
    const attemptId = crypto.randomUUID();
    this.#add(pairKey, { t: now, id: attemptId }, p.pairMax, now);
    this.#add(addressKey, { t: now, id: attemptId }, p.addressMax, now);
    this.#add(accountKey, { t: now, id: attemptId }, accountKeep(p), now);
    if (this.#failures.size > this.#maxKeys) this.#sweep(now);
    return { allowed: true, attemptId };
  }

  async succeeded(keys: AttemptKeys, attemptId: string): Promise<void> {
    const [pairKey, addressKey, accountKey] = storeKeys(keys);
    const ids = new Set([attemptId, ...(this.#failures.get(pairKey) ?? []).map((f) => f.id)]);
    this.#failures.delete(pairKey);
    for (const key of [addressKey, accountKey]) {
      const left = (this.#failures.get(key) ?? []).filter((f) => !ids.has(f.id));
      if (left.length > 0) this.#failures.set(key, left);
      else this.#failures.delete(key);
    }
  }

  async close(): Promise<void> {
    this.#failures.clear();
  }

  #recent(key: string, now: number): Failure[] {
    return (this.#failures.get(key) ?? []).filter((f) => f.t > now - this.#policy.windowMs);
  }

  #add(key: string, failure: Failure, keep: number, now: number): void {
    const list = this.#recent(key, now);
    list.push(failure);
    if (list.length > keep) list.splice(0, list.length - keep);
    // Re-inserted: the Map's order is then least recently failed first (see #sweep).
    this.#failures.delete(key);
    this.#failures.set(key, list);
  }

  #sweep(now: number): void {
    for (const [key, list] of this.#failures) {
      if (!list.some((f) => f.t > now - this.#policy.windowMs)) this.#failures.delete(key);
    }
    const target = Math.floor(this.#maxKeys * 0.9);
    for (const key of this.#failures.keys()) {
      if (this.#failures.size <= target) break;
      this.#failures.delete(key);
    }
  }
}

/** An address holds no space; the account follows it, so the pair's key is unambiguous. */
function storeKeys({ account, address }: AttemptKeys): [pair: string, address: string, account: string] {
  return [`p:${address} ${account}`, `a:${address}`, `u:${account}`];
}

/**
 * The decision and the record in one Lua script, so that every api process on the Redis sees one
 * count (the same rules as waitFor; login-rate-limit.test.ts runs the same cases on both stores).
 * KEYS: pair, address, account. ARGV: now, window, pairMax, addressMax, accountFree, delayBase,
 * delayCap, accountKeep, attemptId. Returns the wait in ms, 0 when the attempt was recorded.
 */
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local pairMax = tonumber(ARGV[3])
local addressMax = tonumber(ARGV[4])
local accountFree = tonumber(ARGV[5])
local delayBase = tonumber(ARGV[6])
local delayCap = tonumber(ARGV[7])
local accountKeep = tonumber(ARGV[8])
for i = 1, 3 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window) end
local wait = 0
local pairN = redis.call('ZCARD', KEYS[1])
if pairN >= pairMax then
  local oldest = redis.call('ZRANGE', KEYS[1], -pairMax, -pairMax, 'WITHSCORES')
  wait = math.max(wait, tonumber(oldest[2]) + window - now)
end
local addressN = redis.call('ZCARD', KEYS[2])
if addressN >= addressMax then
  local oldest = redis.call('ZRANGE', KEYS[2], -addressMax, -addressMax, 'WITHSCORES')
  wait = math.max(wait, tonumber(oldest[2]) + window - now)
end
local accountN = redis.call('ZCARD', KEYS[3])
if accountN >= accountFree and pairN > 0 then
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  local delay = math.min(delayBase * 2 ^ (accountN - accountFree), delayCap)
  wait = math.max(wait, tonumber(last[2]) + delay - now)
end
if wait > 0 then return math.ceil(wait) end
local keep = { pairMax, addressMax, accountKeep }
for i = 1, 3 do
  redis.call('ZADD', KEYS[i], now, ARGV[9])
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -(keep[i] + 1))
  redis.call('PEXPIRE', KEYS[i], window)
end
return 0
`;

/** KEYS: pair, address, account. ARGV: the succeeded attempt's id. */
const SUCCEEDED_SCRIPT = `
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
table.insert(ids, ARGV[1])
for i = 2, 3 do redis.call('ZREM', KEYS[i], unpack(ids)) end
redis.call('DEL', KEYS[1])
return 0
`;

/** In Redis: every api process on it shares the counts. Keys expire with the window. */
export class RedisLoginRateLimit implements LoginRateLimit {
  readonly #policy: ThrottlePolicy;

  /**
   * `redis` is a command connection (redis-connection.ts's openRedis); `prefix` keeps one
   * deployment's counts apart from another's on the same Redis; `release` closes what the
   * caller opened for it.
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    policy: Partial<ThrottlePolicy> = {},
    private readonly release: () => Promise<void> = async () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.#policy = { ...DEFAULT_THROTTLE_POLICY, ...policy };
  }

  async begin(keys: AttemptKeys): Promise<AttemptDecision> {
    const p = this.#policy;
    const attemptId = crypto.randomUUID();
    const wait = await this.redis.eval(
      BEGIN_SCRIPT,
      3,
      ...this.#keys(keys),
      this.now(),
      p.windowMs,
      p.pairMax,
      p.addressMax,
      p.accountFree,
      p.delayBaseMs,
      p.delayCapMs,
      accountKeep(p),
      attemptId,
    );
    const waitMs = Number(wait);
    return waitMs > 0 ? { allowed: false, waitMs } : { allowed: true, attemptId };
  }

  async succeeded(keys: AttemptKeys, attemptId: string): Promise<void> {
    await this.redis.eval(SUCCEEDED_SCRIPT, 3, ...this.#keys(keys), attemptId);
  }

  close(): Promise<void> {
    return this.release();
  }

  #keys(keys: AttemptKeys): string[] {
    return storeKeys(keys).map((k) => `${this.prefix}login:${k}`);
  }
}
