import crypto from 'node:crypto';
import type { Role } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';

export interface NewUser {
  username: string;
  passwordHash: string;
  email?: string;
  nickname?: string;
}

const PUBLIC_COLUMNS = ['id', 'username', 'role', 'email', 'nickname', 'created_at'] as const;

/** Any fixed number works; it names the lock that serialises first-account creation. */
const FIRST_ACCOUNT_LOCK = 7_246_153_901;

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async anyExists(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    return !!row;
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    return row.n;
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list() {
    return this.db.selectFrom('users').select(PUBLIC_COLUMNS).orderBy('created_at').orderBy('username').execute();
  }

  /**
   * Creates the first account as admin, or returns null when any account exists.
   * The check and the insert run under a transaction-scoped advisory lock, so of many
   * concurrent first signups exactly one inserts; the rest see its row once it commits.
   */
  async createFirstAdmin(user: NewUser): Promise<UserRow | null> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK}::bigint)`.execute(trx);
      const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
      if (existing) return null;
      return trx
        .insertInto('users')
        .values({
          id: crypto.randomUUID(),
          username: user.username,
          password_hash: user.passwordHash,
          email: user.email ?? null,
          nickname: user.nickname ?? null,
          role: 'admin' satisfies Role,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /**
   * Sets a new password and raises the token epoch in one statement, so every access token
   * issued before the change stops working.
   */
  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, token_epoch: sql<number>`token_epoch + 1` })
      .where('id', '=', id)
      .execute();
  }

  /** A member created by an admin-like user. Undefined when the username is taken (any case). */
  async create(user: NewMember): Promise<UserRow | undefined> {
    try {
      return await this.db
        .insertInto('users')
        .values({
          id: crypto.randomUUID(),
          username: user.username,
          password_hash: user.passwordHash,
          email: user.email ?? null,
          nickname: user.nickname ?? null,
          role: user.role,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /**
   * Changes only the given columns, in one statement; a new password hash or another role also
   * raises the token epoch (access tokens carry the role: those of the old one must stop).
   * Undefined when there is no such user.
   */
  async update(id: string, patch: MemberPatch): Promise<UserRow | undefined> {
    const set: Record<string, unknown> = {};
    if (patch.nickname !== undefined) set.nickname = patch.nickname;
    if (patch.email !== undefined) set.email = patch.email;
    if (patch.role !== undefined) set.role = patch.role;
    if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
    if (Object.keys(set).length === 0) return this.findById(id);
    // The role's epoch rise only when it really changes (an edit that repeats the role ends no session).
    const roleChanges = patch.role !== undefined ? sql<boolean>`role <> ${patch.role}` : sql<boolean>`false`;
    const raise = patch.passwordHash !== undefined ? sql<number>`token_epoch + 1` : sql<number>`token_epoch + (case when ${roleChanges} then 1 else 0 end)`;
    return this.db.updateTable('users').set({ ...set, token_epoch: raise }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** True when a row was deleted (its refresh sessions go with it, by cascade). */
  async delete(id: string): Promise<boolean> {
    const row = await this.db.deleteFrom('users').where('id', '=', id).returning('id').executeTakeFirst();
    return !!row;
  }
}

export interface NewMember extends NewUser {
  role: Role;
}

/** null clears a field; undefined leaves it as it is. */
export interface MemberPatch {
  nickname?: string | null;
  email?: string | null;
  role?: Role;
  passwordHash?: string;
}

/** PostgreSQL's unique_violation (also what PGlite reports). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
