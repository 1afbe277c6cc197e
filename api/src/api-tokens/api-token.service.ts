import crypto from 'node:crypto';
import {
  API_TOKEN_MAX_PER_USER,
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  API_TOKEN_TEXTS,
  type ApiToken,
  type ApiTokenScope,
  ApiTokenScopeSchema,
  type AuthUser,
  type CreateApiTokenBody,
  type CreatedApiToken,
  ERROR_CODES,
  RoleSchema,
} from '@tessera/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import type { ApiTokenRow } from './api-tokens.tables.js';

const DAY_MS = 86_400_000;
/** last_used_at is written at most once a minute per token: the list shows minutes, not every request. */
export const LAST_USED_PRECISION_MS = 60_000;
const MAX_LAST_USED_ENTRIES = 10_000;

/** A token that passed every check: its owner as the database has them now, and its scope. */
export interface VerifiedApiToken {
  user: AuthUser;
  tokenId: string;
  scope: ApiTokenScope;
  /** ms since the epoch: a live socket opened with it closes then. */
  expiresAt: number;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: `${API_TOKEN_PREFIX}${row.prefix}`,
    scope: ApiTokenScopeSchema.parse(row.scope),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/**
 * Personal API tokens: made, listed and revoked by their owner; checked on every request that
 * carries one. Nothing is cached between requests: a revocation (or the owner's deletion, which
 * deletes the rows) holds at the next request in every api process.
 */
export class ApiTokenService {
  readonly #lastWritten = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(userId: string, body: CreateApiTokenBody): Promise<CreatedApiToken> {
    const lookup = crypto.randomBytes(6).toString('hex');
    const token = `${API_TOKEN_PREFIX}${lookup}_${crypto.randomBytes(32).toString('base64url')}`;
    const now = this.now();
    const row = await this.db.transaction().execute(async (trx) => {
      // The owner's row is locked so that parallel creates count one after another.
      const owner = await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!owner) throw HttpError.unauthorized('Account no longer exists');
      const { n } = await trx
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date(now))
        .executeTakeFirstOrThrow();
      if (Number(n) >= API_TOKEN_MAX_PER_USER) throw HttpError.conflict(API_TOKEN_TEXTS.tooMany);
      return trx
        .insertInto('api_tokens')
        .values({
          id: crypto.randomUUID(),
          user_id: userId,
          name: body.name,
          prefix: lookup,
          token_hash: sha256(token),
          scope: body.scope,
          created_at: new Date(now),
          expires_at: new Date(now + body.expires_in_days * DAY_MS),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return { ...toApiToken(row), token };
  }

  /** The user's tokens, newest first, revoked and expired ones included (their history). */
  async list(userId: string): Promise<ApiToken[]> {
    const rows = await this.db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toApiToken);
  }

  /** Revokes one of the user's tokens at once; another member's token is "not found". */
  async revoke(userId: string, id: string): Promise<ApiToken> {
    const row = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: new Date(this.now()) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row) return toApiToken(row);
    // Revoking twice answers the same: it stays revoked.
    const existing = await this.db.selectFrom('api_tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!existing) throw new HttpError(404, ERROR_CODES.notFound, API_TOKEN_TEXTS.notFound);
    return toApiToken(existing);
  }

  /** Whether the token still works (not revoked, not expired, owner still there): open sockets ask. */
  async isLive(tokenId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select('id')
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.now()))
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The token's owner and scope, or null for a token that is garbled, unknown, of a wrong secret,
   * revoked or expired, or whose owner is gone. Marks it used (at most once a minute).
   */
  async verify(token: string): Promise<VerifiedApiToken | null> {
    const match = API_TOKEN_PATTERN.exec(token);
    if (!match) return null;
    const row = await this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id as id',
        'api_tokens.token_hash as token_hash',
        'api_tokens.scope as scope',
        'api_tokens.expires_at as expires_at',
        'api_tokens.revoked_at as revoked_at',
        'users.id as user_id',
        'users.username as username',
        'users.role as role',
      ])
      .where('api_tokens.prefix', '=', match[1])
      .executeTakeFirst();
    if (!row) return null;
    const given = Buffer.from(sha256(token), 'hex');
    const stored = Buffer.from(row.token_hash, 'hex');
    if (given.length !== stored.length || !crypto.timingSafeEqual(given, stored)) return null;
    const now = this.now();
    if (row.revoked_at !== null || row.expires_at.getTime() <= now) return null;
    const role = RoleSchema.safeParse(row.role);
    const scope = ApiTokenScopeSchema.safeParse(row.scope);
    if (!role.success || !scope.success) return null;
    await this.#markUsed(row.id, now);
    return {
      user: { id: row.user_id, username: row.username, role: role.data },
      tokenId: row.id,
      scope: scope.data,
      expiresAt: row.expires_at.getTime(),
    };
  }

  async #markUsed(tokenId: string, now: number): Promise<void> {
    const last = this.#lastWritten.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_PRECISION_MS) return;
    this.#lastWritten.delete(tokenId);
    if (this.#lastWritten.size >= MAX_LAST_USED_ENTRIES) {
      const oldest = this.#lastWritten.keys().next().value;
      if (oldest !== undefined) this.#lastWritten.delete(oldest);
    }
    this.#lastWritten.set(tokenId, now);
    await this.db.updateTable('api_tokens').set({ last_used_at: new Date(now) }).where('id', '=', tokenId).execute();
  }
}
