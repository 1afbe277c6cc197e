import { z } from 'zod';
import type { PresenceEvent, PresenceMember, PresenceRenewal, PresenceStore } from './presence-store.js';
import type { RedisConnections } from './redis-connection.js';
import { ENTER, EXIT, LIST, RENEW, SET_DATA } from './redis-presence-scripts.js';

/** What the scripts store per user (Redis is outside this process: read back through a schema). */
const InfoSchema = z.object({ displayName: z.string(), joinedAt: z.number() });
const FlatSchema = z.array(z.string());
const RenewSchema = z.tuple([FlatSchema, FlatSchema]);

interface LocalEntry {
  sockets: number;
  displayName: string;
}

/**
 * Presence in Redis (REDIS_URL), shared by every api process on the same database. Each process
 * holds one entry per (scope, user) however many of the user's sockets it serves, with an
 * expiry of `ttlMs` that `renew` extends; see redis-presence-scripts.ts for the layout.
 */
export class RedisPresenceStore implements PresenceStore {
  /** scope → userId → this process's sockets. */
  readonly #local = new Map<string, Map<string, LocalEntry>>();

  constructor(
    private readonly redis: RedisConnections,
    private readonly namespace: string,
    /** Unique per process start: entries of a dead process are told apart from a live one's. */
    private readonly processId: string,
    private readonly ttlMs: number,
  ) {}

  async enter(scope: string, userId: string, displayName: string): Promise<{ first: boolean }> {
    let users = this.#local.get(scope);
    if (!users) {
      users = new Map();
      this.#local.set(scope, users);
    }
    const entry = users.get(userId);
    if (entry) {
      entry.sockets += 1;
      return { first: false };
    }
    users.set(userId, { sockets: 1, displayName });
    const first = await this.#eval(ENTER, scope, [this.#member(userId), userId, String(this.ttlMs), displayName]);
    return { first: first === 1 };
  }

  async exit(scope: string, userId: string): Promise<{ last: boolean }> {
    const users = this.#local.get(scope);
    const entry = users?.get(userId);
    if (!users || !entry) return { last: false };
    entry.sockets -= 1;
    if (entry.sockets > 0) return { last: false };
    users.delete(userId);
    if (users.size === 0) this.#local.delete(scope);
    const last = await this.#eval(EXIT, scope, [this.#member(userId), userId]);
    return { last: last === 1 };
  }

  async list(scope: string): Promise<PresenceMember[]> {
    const flat = FlatSchema.parse(await this.#eval(LIST, scope, []));
    const members: PresenceMember[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const info = parseInfo(flat[i + 1]);
      if (!info) continue;
      const member: PresenceMember = { userId: flat[i], displayName: info.displayName, joinedAt: new Date(info.joinedAt).toISOString() };
      if (flat[i + 2] !== '') member.data = JSON.parse(flat[i + 2]);
      members.push(member);
    }
    return members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  }

  async setData(scope: string, userId: string, data: unknown): Promise<void> {
    await this.#eval(SET_DATA, scope, [userId, JSON.stringify(data ?? null)]);
  }

  async renew(scopePrefix: string): Promise<PresenceRenewal> {
    const result: PresenceRenewal = { left: [], rejoined: [] };
    for (const [scope, users] of this.#local) {
      if (!scope.startsWith(scopePrefix)) continue;
      const args = [String(this.ttlMs)];
      for (const [userId, entry] of users) args.push(this.#member(userId), entry.displayName);
      const [left, rejoined] = RenewSchema.parse(await this.#eval(RENEW, scope, args));
      result.left.push(...events(scope, left));
      result.rejoined.push(...events(scope, rejoined));
    }
    return result;
  }

  localScopes(): string[] {
    return [...this.#local.keys()];
  }

  async close(): Promise<void> {
    // Entries left in Redis expire; the other processes announce those users' departure.
    this.#local.clear();
  }

  #member(userId: string): string {
    return `${userId}|${this.processId}`;
  }

  #eval(script: string, scope: string, args: string[]): Promise<unknown> {
    const key = `${this.namespace}presence:${scope}`;
    return this.redis.commands.eval(script, 2, key, `${key}:info`, ...args);
  }
}

function parseInfo(text: string | undefined): z.infer<typeof InfoSchema> | undefined {
  if (!text) return undefined;
  const parsed = InfoSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

function events(scope: string, flat: string[]): PresenceEvent[] {
  const out: PresenceEvent[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    out.push({ scope, userId: flat[i], displayName: parseInfo(flat[i + 1])?.displayName ?? '' });
  }
  return out;
}
