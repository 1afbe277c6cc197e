import type { ActivityEntry, ActivityKind, ActivityPage, ActivityQuery, AuthUser } from '@tessera/contracts';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ActivityTable } from '../access/access.tables.js';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** What one entry records (the actor and the address come from the request). */
export interface ActivityRecord {
  kind: ActivityKind;
  item: { type: 'sheet' | 'group' | 'user'; id: string; name: string } | null;
  detail?: Record<string, unknown>;
}

/** Who did it and from where: taken from the request. */
export interface ActivityActor {
  /** id null: the api itself (the trash's retention purge). */
  user: { id: string | null; username: string };
  address: string | null;
}

/** A member acting through a request: their rights decide, the log names them. */
export type Actor = ActivityActor & { user: AuthUser };

const toEntry = (row: Selectable<ActivityTable>): ActivityEntry => ({
  id: String(row.id),
  at: row.at.toISOString(),
  actor: { id: row.actor_id, username: row.actor_name },
  kind: row.kind as ActivityKind,
  item: row.item_type && row.item_id ? { type: row.item_type as 'sheet' | 'group' | 'user', id: row.item_id, name: row.item_name ?? '' } : null,
  detail: row.detail ?? {},
  address: row.address,
});

/**
 * The activity log (issue 18): every destructive or access change, appended in the same
 * transaction as the change where there is one, so a change is never without its entry.
 */
export class ActivityLog {
  constructor(private readonly db: Kysely<Database>) {}

  async append(actor: ActivityActor, record: ActivityRecord, db: Db = this.db): Promise<void> {
    await db
      .insertInto('activity')
      .values({
        actor_id: actor.user.id,
        actor_name: actor.user.username,
        kind: record.kind,
        item_type: record.item?.type ?? null,
        item_id: record.item?.id ?? null,
        item_name: record.item?.name ?? null,
        detail: JSON.stringify(record.detail ?? {}),
        address: actor.address,
      })
      .execute();
  }

  /** Newest first, filtered by member, item and kind; `before` pages back by id. */
  async page(query: ActivityQuery): Promise<ActivityPage> {
    let q = this.db.selectFrom('activity').selectAll();
    if (query.user_id) q = q.where('actor_id', '=', query.user_id);
    if (query.item_id) q = q.where('item_id', '=', query.item_id);
    if (query.kind) q = q.where('kind', '=', query.kind);
    if (query.before !== undefined) q = q.where('id', '<', String(query.before));
    const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
    const more = rows.length > query.limit;
    const entries = rows.slice(0, query.limit).map(toEntry);
    return { entries, next_before: more ? Number(entries[entries.length - 1].id) : null };
  }
}
