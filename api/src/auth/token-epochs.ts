import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** How long an epoch read from the database is trusted; changes made by this process apply at once. */
export const TOKEN_EPOCH_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  /** null: no such user (deleted). */
  epoch: number | null;
  expiresAt: number;
}

/**
 * Each user's token epoch, checked against the access token's on every request. Cached
 * briefly per user so a request costs no extra query most of the time; this process drops
 * the entry whenever it changes an epoch or deletes a user, so here the change is immediate,
 * and another api process sees it within TOKEN_EPOCH_CACHE_MS.
 */
export class TokenEpochs {
  readonly #cache = new Map<string, Entry>();
  readonly #listeners = new Set<(userId: string) => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's current epoch, or null when the user no longer exists. */
  async current(userId: string): Promise<number | null> {
    const hit = this.#cache.get(userId);
    if (hit && hit.expiresAt > this.now()) return hit.epoch;
    const row = await this.db.selectFrom('users').select('token_epoch').where('id', '=', userId).executeTakeFirst();
    const epoch = row ? row.token_epoch : null;
    this.#cache.delete(userId);
    if (this.#cache.size >= MAX_ENTRIES) {
      // Oldest first (Map keeps insertion order): drop one to stay bounded.
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(userId, { epoch, expiresAt: this.now() + TOKEN_EPOCH_CACHE_MS });
    return epoch;
  }

  /** Forget what is cached about a user (another api process changed it). */
  forget(userId: string): void {
    this.#cache.delete(userId);
  }

  /**
   * This process raised the user's epoch (password, role) or deleted the user: the cache entry
   * goes, and listeners are told — the live sockets of that user close in every api process
   * (live/socket-sessions.ts).
   */
  changed(userId: string): void {
    this.forget(userId);
    for (const listener of [...this.#listeners]) listener(userId);
  }

  /** Told of each `changed`; returns the unsubscribe function. */
  onChanged(listener: (userId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
