import crypto from 'node:crypto';
import type { Role } from '@tessera/contracts';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { PasswordService } from '../auth/password.service.js';
import { isUniqueViolation } from '../users/users.repository.js';
import { type OidcProfile, usernameCandidates } from './oidc-profile.js';

/** Names tried (alice, alice-2, … alice-20) before a random suffix. */
const USERNAME_TRIES = 20;

/** Members made and found by their provider's (issuer, subject). */
export class OidcAccounts {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly passwords: PasswordService,
  ) {}

  find(issuer: string, subject: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('oidc_identities as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .selectAll('u')
      .where('i.issuer', '=', issuer)
      .where('i.subject', '=', subject)
      .executeTakeFirst();
  }

  async isLinked(userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('oidc_identities').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst());
  }

  /**
   * The member for (issuer, subject), made on the first sign-in. The member and its link are
   * written in one transaction; a taken username moves on to the next candidate, and a
   * concurrent first sign-in of the same subject finds the member the other one made.
   */
  async findOrCreate(issuer: string, subject: string, profile: OidcProfile, role: Role): Promise<{ user: UserRow; created: boolean }> {
    const existing = await this.find(issuer, subject);
    if (existing) return { user: existing, created: false };
    // Nobody knows this password: an SSO member signs in through the provider only.
    const passwordHash = await this.passwords.hash(crypto.randomBytes(32).toString('base64url'));
    const names = [...usernameCandidates(profile.username, USERNAME_TRIES), `${profile.username}-${crypto.randomBytes(3).toString('hex')}`];
    for (const username of names) {
      try {
        const user = await this.db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('users')
            .values({ id: crypto.randomUUID(), username, password_hash: passwordHash, email: profile.email, nickname: profile.nickname, role })
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx.insertInto('oidc_identities').values({ issuer, subject, user_id: row.id }).execute();
          return row;
        });
        return { user, created: true };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const raced = await this.find(issuer, subject);
        if (raced) return { user: raced, created: false };
      }
    }
    throw new Error(`no free username for ${profile.username}`);
  }
}
