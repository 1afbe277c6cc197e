import type { PresenceMember, PresenceRenewal, PresenceStore } from './presence-store.js';

interface Entry {
  displayName: string;
  joinedAt: string;
  sockets: number;
  data?: unknown;
}

/** Presence of a single api process (no REDIS_URL): nothing expires but sockets, which the heartbeat drops. */
export class MemoryPresenceStore implements PresenceStore {
  readonly #scopes = new Map<string, Map<string, Entry>>();

  async enter(scope: string, userId: string, displayName: string): Promise<{ first: boolean }> {
    let users = this.#scopes.get(scope);
    if (!users) {
      users = new Map();
      this.#scopes.set(scope, users);
    }
    const entry = users.get(userId);
    if (entry) {
      entry.sockets += 1;
      return { first: false };
    }
    users.set(userId, { displayName, joinedAt: new Date().toISOString(), sockets: 1 });
    return { first: true };
  }

  async exit(scope: string, userId: string): Promise<{ last: boolean }> {
    const users = this.#scopes.get(scope);
    const entry = users?.get(userId);
    if (!users || !entry) return { last: false };
    entry.sockets -= 1;
    if (entry.sockets > 0) return { last: false };
    users.delete(userId);
    if (users.size === 0) this.#scopes.delete(scope);
    return { last: true };
  }

  async list(scope: string): Promise<PresenceMember[]> {
    return [...(this.#scopes.get(scope) ?? [])].map(([userId, e]) => ({
      userId,
      displayName: e.displayName,
      joinedAt: e.joinedAt,
      ...(e.data !== undefined ? { data: e.data } : {}),
    }));
  }

  async setData(scope: string, userId: string, data: unknown): Promise<void> {
    const entry = this.#scopes.get(scope)?.get(userId);
    if (entry) entry.data = data;
  }

  async renew(_scopePrefix: string): Promise<PresenceRenewal> {
    return { left: [], rejoined: [] };
  }

  localScopes(): string[] {
    return [...this.#scopes.keys()];
  }

  async close(): Promise<void> {
    this.#scopes.clear();
  }
}
