import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

/** Migrations in code, in order; never edit one that has shipped, add a new one. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_ai_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ai_sessions')
        .addColumn('session_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('session_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_active', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('context_summary', 'text')
        .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .execute();
      // The session list is per user, most recently active first.
      await db.schema
        .createIndex('ai_sessions_user_last_active')
        .on('ai_sessions')
        .columns(['user_id', 'last_active desc'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ai_sessions').execute();
    },
  },
  '0002_ai_messages': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ai_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // A session's messages go with it.
        .addColumn('session_id', 'text', (c) => c.notNull().references('ai_sessions.session_id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'assistant', 'system')`))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
        // Orders the messages of one session written within the same millisecond.
        .addColumn('seq', 'bigserial', (c) => c.notNull())
        .execute();
      // The last N messages of a session, newest first.
      await db.schema.createIndex('ai_messages_session_seq').on('ai_messages').columns(['session_id', 'seq desc']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ai_messages').execute();
    },
  },
  '0003_ai_git_usage': {
    async up(db: Kysely<unknown>) {
      // The file content each user committed each UTC day (GIT_DAILY_MAX_MB).
      await db.schema
        .createTable('ai_git_usage')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_git_usage_pk', ['user_id', 'day'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ai_git_usage').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    // Own names, so AI_DATABASE_URL may point at the api's database without clashing.
    migrationTableName: 'ai_migration',
    migrationLockTableName: 'ai_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
