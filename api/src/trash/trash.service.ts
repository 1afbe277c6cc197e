import crypto from 'node:crypto';
import { type AccessLevel, type AuthUser, meetsAccess, type RestoreResult, TRASH_TEXTS, type TrashItem } from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { AccessService } from '../access/access.service.js';
import type { Actor, ActivityLog } from '../activity/activity-log.js';
import type { Database } from '../db/schema.js';
import type { GroupsService } from '../groups/groups.service.js';
import { HttpError } from '../http/http-error.js';
import { freeGroupName, freeSheetName, lockNames } from '../sheets/sheet-names.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import { GROUP_NOT_FOUND, notFound, SHEET_NOT_FOUND } from '../sheets/sheets.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface TrashDeps {
  db: Kysely<Database>;
  access: AccessService;
  activity: ActivityLog;
  sheets: SheetsService;
  groups: GroupsService;
  retentionDays: number;
}

/** The groups of a subtree (the group itself included) that are still in place. */
const subtreeInPlace = (id: string) => sql<{ id: string }>`
  WITH RECURSIVE subtree(id) AS (
    SELECT ${id}::uuid
    UNION
    SELECT g.id FROM groups g JOIN subtree t ON g.parent_id = t.id WHERE g.trashed_in IS NULL
  )
  SELECT id FROM subtree`;

/**
 * The trash (issue 18): deleting moves a sheet, or a group with everything under it, here; it
 * comes back with its history, or is purged for good — by an owner, or by the api after
 * TRASH_RETENTION_DAYS. An item is in the trash while `trashed_in` names its entry; deleting the
 * entry (a purge) cascades to the items it holds, their cells and history.
 */
export class TrashService {
  constructor(private readonly deps: TrashDeps) {}

  get retentionMs(): number {
    return this.deps.retentionDays * DAY_MS;
  }

  async trashSheet(actor: Actor, id: string): Promise<void> {
    const { db, access, activity } = this.deps;
    await db.transaction().execute(async (trx) => {
      await access.require(actor.user, { type: 'sheet', id }, 'own', trx);
      const sheet = await trx.selectFrom('sheets').select(['id', 'name', 'group_id']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!sheet) throw notFound(SHEET_NOT_FOUND);
      const entry = await this.#entry(trx, actor, 'sheet', sheet.id, sheet.name, sheet.group_id);
      await trx.updateTable('sheets').set({ trashed_in: entry }).where('id', '=', id).execute();
      await activity.append(actor, { kind: 'sheet_deleted', item: { type: 'sheet', id, name: sheet.name } }, trx);
    });
    this.deps.sheets.changes.emit({ sheetId: id, kind: 'deleted' });
    this.deps.sheets.navigation.emit({ type: 'sheet_deleted', id, userId: actor.user.id });
  }

  /** The group and everything under it that is still in place go to the trash as one entry. */
  async trashGroup(actor: Actor, id: string): Promise<void> {
    const { db, access, activity } = this.deps;
    const sheetIds = await db.transaction().execute(async (trx) => {
      await access.require(actor.user, { type: 'group', id }, 'own', trx);
      const group = await trx.selectFrom('groups').select(['id', 'name', 'parent_id']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!group) throw notFound(GROUP_NOT_FOUND);
      const entry = await this.#entry(trx, actor, 'group', group.id, group.name, group.parent_id);
      const groups = (await subtreeInPlace(id).execute(trx)).rows.map((r) => r.id);
      await trx.updateTable('groups').set({ trashed_in: entry }).where('id', 'in', groups).execute();
      const sheets = await trx
        .updateTable('sheets')
        .set({ trashed_in: entry })
        .where('group_id', 'in', groups)
        .where('trashed_in', 'is', null)
        .returning('id')
        .execute();
      await activity.append(actor, { kind: 'group_deleted', item: { type: 'group', id, name: group.name }, detail: { sheets: sheets.length, groups: groups.length } }, trx);
      return sheets.map((s) => s.id);
    });
    // The workspace routes close the sheets' sockets on group_deleted (its sheetIds).
    this.deps.groups.navigation.emit({ type: 'group_deleted', id, userId: actor.user.id, sheetIds });
  }

  async #entry(trx: Transaction<Database>, actor: Actor, type: 'sheet' | 'group', itemId: string, name: string, parentId: string | null): Promise<string> {
    const id = crypto.randomUUID();
    await trx
      .insertInto('trash_entries')
      .values({ id, item_type: type, item_id: itemId, name, parent_id: parentId, deleted_by: actor.user.id, deleted_by_name: actor.user.username })
      .execute();
    return id;
  }

  /**
   * What the member may restore (editor and up on the item as it was), newest first. An item's
   * level is read as if it were in place: its own grants and those of the groups above it.
   */
  async list(user: AuthUser): Promise<TrashItem[]> {
    // A constant number of queries whatever the trash holds: the entries (with a sheet's group
    // now), and the groups and grants read once, as for the tree (#levelInTrash's rule).
    const [entries, visibility] = await Promise.all([
      this.deps.db
        .selectFrom('trash_entries')
        .leftJoin('sheets', (join) => join.onRef('sheets.id', '=', 'trash_entries.item_id').on('trash_entries.item_type', '=', 'sheet'))
        .selectAll('trash_entries')
        .select('sheets.group_id as sheet_group_id')
        .orderBy('trash_entries.deleted_at', 'desc')
        .execute(),
      this.deps.access.visibility(user, this.deps.db, { ignoreTrash: true }),
    ]);
    const items: TrashItem[] = [];
    for (const e of entries) {
      const level =
        e.item_type === 'group' ? visibility.group(e.item_id) : visibility.sheet({ id: e.item_id, group_id: e.sheet_group_id ?? null, trashed_in: null });
      if (!meetsAccess(level, 'edit')) continue;
      items.push({
        id: e.id,
        type: e.item_type,
        item_id: e.item_id,
        name: e.name,
        parent_id: e.parent_id,
        deleted_by: { id: e.deleted_by, username: e.deleted_by_name },
        deleted_at: e.deleted_at.toISOString(),
        purge_at: new Date(e.deleted_at.getTime() + this.retentionMs).toISOString(),
        access: level,
      });
    }
    return items;
  }

  /**
   * The level the member would have on the item if it and the groups above it were back in
   * place: the grants decide, the trash marks do not.
   *
   * Nested entries (a sheet or group deleted on its own, then a group above it deleted too): both
   * are listed and each can be restored on its own. The group comes back without the item deleted
   * before it (that one stays in the trash, and comes back into the group later); the item restored
   * while its group is still in the trash goes to the root, as when its group is gone. Purging the
   * group keeps the item (see #purgeEntry).
   */
  async #levelInTrash(user: AuthUser, type: 'sheet' | 'group', itemId: string, db: Kysely<Database> | Transaction<Database> = this.deps.db): Promise<AccessLevel> {
    const chain = await this.deps.access.chain({ type, id: itemId }, user.id, db);
    if (!chain) return 'none';
    return this.deps.access.levelOfChain(user, chain.map((row) => ({ ...row, trashed: false })));
  }

  async #take(trx: Transaction<Database>, user: AuthUser, id: string, need: 'edit' | 'own') {
    const entry = await trx.selectFrom('trash_entries').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!entry) throw notFound(TRASH_TEXTS.notFound);
    const level = await this.#levelInTrash(user, entry.item_type, entry.item_id, trx);
    if (level === 'none' || !meetsAccess(level, 'edit')) throw notFound(TRASH_TEXTS.notFound);
    if (!meetsAccess(level, need)) throw HttpError.forbidden('Only owners can delete forever');
    return entry;
  }

  /** Back to its group with its history, or to root when that group is gone (purged or in the trash). */
  async restore(actor: Actor, id: string): Promise<RestoreResult> {
    const { db, activity } = this.deps;
    const result = await db.transaction().execute(async (trx) => {
      const entry = await this.#take(trx, actor.user, id, 'edit');
      await lockNames(trx);
      const parent = entry.parent_id
        ? await trx.selectFrom('groups').select('id').where('id', '=', entry.parent_id).where('trashed_in', 'is', null).executeTakeFirst()
        : undefined;
      const parentId = parent?.id ?? null;
      let name: string;
      if (entry.item_type === 'sheet') {
        name = await freeSheetName(trx, entry.name, entry.item_id);
        await trx.updateTable('sheets').set({ trashed_in: null, group_id: parentId, name }).where('id', '=', entry.item_id).execute();
      } else {
        name = await freeGroupName(trx, entry.name, parentId, entry.item_id);
        await trx.updateTable('groups').set({ parent_id: parentId, name }).where('id', '=', entry.item_id).execute();
        await trx.updateTable('groups').set({ trashed_in: null }).where('trashed_in', '=', id).execute();
        await trx.updateTable('sheets').set({ trashed_in: null }).where('trashed_in', '=', id).execute();
      }
      // The entry goes last: its foreign keys would otherwise take the items with it.
      await trx.deleteFrom('trash_entries').where('id', '=', id).execute();
      await activity.append(actor, { kind: 'item_restored', item: { type: entry.item_type, id: entry.item_id, name } }, trx);
      return { type: entry.item_type, id: entry.item_id, name, parent_id: parentId };
    });
    if (result.type === 'sheet') this.deps.sheets.announce('sheet_created', { id: result.id, name: result.name, group_id: result.parent_id }, actor.user.id);
    else this.deps.groups.navigation.emit({ type: 'group_created', id: result.id, userId: actor.user.id, name: result.name, parentId: result.parent_id });
    return result;
  }

  /** Delete forever (owners): the entry goes, and with it what it holds. */
  async purge(actor: Actor, id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const entry = await this.#take(trx, actor.user, id, 'own');
      await this.#purgeEntry(trx, id);
      await this.deps.activity.append(actor, { kind: 'item_purged', item: { type: entry.item_type, id: entry.item_id, name: entry.name } }, trx);
    });
  }

  /**
   * Removes an entry and what it holds. Items inside that were deleted on their own earlier
   * (their own entries) are moved to root first, so that they stay restorable.
   */
  async #purgeEntry(trx: Transaction<Database>, id: string): Promise<void> {
    const held = await trx.selectFrom('groups').select('id').where('trashed_in', '=', id).execute();
    const groupIds = held.map((g) => g.id);
    if (groupIds.length > 0) {
      const elsewhere = sql<boolean>`trashed_in IS DISTINCT FROM ${id}::uuid`;
      await trx.updateTable('sheets').set({ group_id: null }).where('group_id', 'in', groupIds).where(elsewhere).execute();
      await trx.updateTable('groups').set({ parent_id: null }).where('parent_id', 'in', groupIds).where(elsewhere).execute();
    }
    const sheetIds = (await trx.selectFrom('sheets').select('id').where('trashed_in', '=', id).execute()).map((s) => s.id);
    const itemIds = [...groupIds, ...sheetIds];
    if (itemIds.length > 0) await trx.deleteFrom('item_grants').where('item_id', 'in', itemIds).execute();
    await trx.deleteFrom('trash_entries').where('id', '=', id).execute();
  }

  /** Purges what has waited longer than TRASH_RETENTION_DAYS; returns how many entries went. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const cutoff = new Date(now - this.retentionMs);
    const expired = await this.deps.db.selectFrom('trash_entries').select(['id', 'item_type', 'item_id', 'name']).where('deleted_at', '<', cutoff).execute();
    for (const e of expired) {
      await this.deps.db.transaction().execute(async (trx) => {
        const still = await trx.selectFrom('trash_entries').select('id').where('id', '=', e.id).forUpdate().executeTakeFirst();
        if (!still) return;
        await this.#purgeEntry(trx, e.id);
        await this.deps.activity.append(
          { user: { id: null, username: 'Tessera' }, address: null },
          { kind: 'item_purged', item: { type: e.item_type, id: e.item_id, name: e.name }, detail: { reason: 'retention' } },
          trx,
        );
      });
    }
    return expired.length;
  }
}
