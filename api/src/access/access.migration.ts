import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Sharing, trash and the activity log (issue 18):
 *  - item_grants: direct grants on a sheet or a group, to a member (user_id) or to everyone (null);
 *  - groups.created_by, and the creators of existing sheets and groups made their owners;
 *  - trashed_in on sheets and groups: the trash entry that took them (null while in place);
 *  - trash_entries: what was deleted, where it was, by whom and when;
 *  - activity: every destructive or access change.
 */
export const accessMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('item_grants')
      .addColumn('item_id', 'uuid', (c) => c.notNull())
      .addColumn('item_type', 'text', (c) => c.notNull())
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // One grant per member (and one for everyone) per item.
    await sql`CREATE UNIQUE INDEX item_grants_key ON item_grants (item_id, coalesce(user_id::text, '*'))`.execute(db);
    await db.schema.createIndex('item_grants_user_idx').on('item_grants').column('user_id').execute();

    await db.schema
      .alterTable('groups')
      .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema
      .createTable('trash_entries')
      .addColumn('id', 'uuid', (c) => c.primaryKey())
      .addColumn('item_type', 'text', (c) => c.notNull())
      .addColumn('item_id', 'uuid', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'uuid')
      .addColumn('deleted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('deleted_by_name', 'text')
      .addColumn('deleted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('trash_entries_deleted_idx').on('trash_entries').column('deleted_at').execute();
    for (const table of ['sheets', 'groups']) {
      await db.schema
        .alterTable(table)
        .addColumn('trashed_in', 'uuid', (c) => c.references('trash_entries.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex(`${table}_trashed_idx`).on(table).column('trashed_in').execute();
    }

    await db.schema
      .createTable('activity')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('item_type', 'text')
      .addColumn('item_id', 'text')
      .addColumn('item_name', 'text')
      .addColumn('detail', 'json', (c) => c.notNull())
      .addColumn('address', 'text')
      .execute();
    await db.schema.createIndex('activity_actor_idx').on('activity').columns(['actor_id', 'id']).execute();
    await db.schema.createIndex('activity_item_idx').on('activity').columns(['item_id', 'id']).execute();
    await db.schema.createIndex('activity_kind_idx').on('activity').columns(['kind', 'id']).execute();

    await sql`INSERT INTO item_grants (item_id, item_type, user_id, level)
              SELECT id, 'sheet', created_by, 'owner' FROM sheets WHERE created_by IS NOT NULL`.execute(db);
  },
};
