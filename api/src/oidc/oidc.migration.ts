import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Single sign-on accounts (issue 21): a member made by a provider is found again by the issuer
 * and the subject it gives (never by a name or an email, which can change or be reused).
 * A deleted member's link goes with them.
 */
export const oidcMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oidc_identities')
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('oidc_identities_pkey', ['issuer', 'subject'])
      .execute();
    await db.schema.createIndex('oidc_identities_user_idx').on('oidc_identities').column('user_id').execute();
  },
};
