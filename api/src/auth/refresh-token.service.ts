import crypto from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** A refresh session lasts this long past its last use (the cookie's max-age too). */
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  expiresAt: Date;
}

export type RotationResult =
  | { ok: true; userId: string; next: IssuedRefreshToken }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Refresh tokens in families: sign-in starts a family, each refresh replaces the token by
 * its successor in the same family. Presenting a token that was already replaced means a
 * copy is in someone else's hands, so the whole family is revoked (RFC 6819 §5.2.2.3).
 * Only a SHA-256 of each token is stored.
 */
export class RefreshTokenService {
  constructor(private readonly db: Kysely<Database>) {}

  async startFamily(userId: string): Promise<IssuedRefreshToken> {
    const familyId = crypto.randomUUID();
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('refresh_families').values({ id: familyId, user_id: userId }).execute();
      return this.#insertToken(trx, familyId);
    });
  }

  async rotate(token: string): Promise<RotationResult> {
    const tokenHash = hashToken(token);
    return this.db.transaction().execute(async (trx): Promise<RotationResult> => {
      const row = await trx
        .selectFrom('refresh_tokens as t')
        .innerJoin('refresh_families as f', 'f.id', 't.family_id')
        .select(['t.id', 't.family_id', 't.expires_at', 't.rotated_at', 'f.user_id', 'f.revoked_at'])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked_at) return { ok: false, reason: 'revoked' };
      if (row.rotated_at) {
        await this.#revokeFamily(trx, row.family_id);
        return { ok: false, reason: 'reused' };
      }
      if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
      // Conditional claim: of two requests racing with the same token only one sees a row here;
      // the other is treated as reuse, as it would be had it come a moment later.
      const claimed = await trx
        .updateTable('refresh_tokens')
        .set({ rotated_at: sql<Date>`now()` })
        .where('id', '=', row.id)
        .where('rotated_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) {
        await this.#revokeFamily(trx, row.family_id);
        return { ok: false, reason: 'reused' };
      }
      return { ok: true, userId: row.user_id, next: await this.#insertToken(trx, row.family_id) };
    });
  }

  /** Revokes the family the token belongs to (logout) and says whose it was; unknown tokens are ignored. */
  async revokeFamilyOf(token: string): Promise<{ userId: string } | undefined> {
    const row = await this.db
      .selectFrom('refresh_tokens as t')
      .innerJoin('refresh_families as f', 'f.id', 't.family_id')
      .select(['t.family_id', 'f.user_id', 'f.revoked_at'])
      .where('t.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) return undefined;
    await this.#revokeFamily(this.db, row.family_id);
    // An already ended session names nobody: its cookie is no proof of a live sign-in.
    return row.revoked_at ? undefined : { userId: row.user_id };
  }

  /** Ends every session of a user except the one holding `keepToken` (after a password change). */
  async revokeAllForUser(userId: string, keepToken?: string): Promise<void> {
    const keep = keepToken
      ? await this.db
          .selectFrom('refresh_tokens as t')
          .innerJoin('refresh_families as f', 'f.id', 't.family_id')
          .select('t.family_id')
          .where('t.token_hash', '=', hashToken(keepToken))
          .where('f.user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    let q = this.db
      .updateTable('refresh_families')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keep) q = q.where('id', '<>', keep.family_id);
    await q.execute();
  }

  async #insertToken(db: Kysely<Database>, familyId: string): Promise<IssuedRefreshToken> {
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000);
    await db.insertInto('refresh_tokens').values({ family_id: familyId, token_hash: hashToken(token), expires_at: expiresAt }).execute();
    return { token, familyId, expiresAt };
  }

  async #revokeFamily(db: Kysely<Database>, familyId: string): Promise<void> {
    await db
      .updateTable('refresh_families')
      .set({ revoked_at: sql<Date>`now()` })
      .where('id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
