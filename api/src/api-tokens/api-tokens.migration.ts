import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Personal API tokens (issue 21). Only the SHA-256 of a token is kept (the token carries 32
 * random bytes, so a fast hash is enough, as for refresh tokens); `prefix` is the token's lookup
 * id, shown in the list and used to find the row. A deleted user's tokens go with them.
 */
export const apiTokensMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull().unique())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope IN ('read', 'read-write')`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_used_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
  },
};
