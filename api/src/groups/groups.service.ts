import crypto from 'node:crypto';
import {
  type CreateGroupBody,
  DEFAULT_GROUP_NAME,
  GROUP_CYCLE_MESSAGE,
  type Group,
  type GroupList,
  type GroupListQuery,
  type GroupTree,
  type GroupTreeNode,
  type SheetSummary,
  type UpdateGroupBody,
} from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { freeGroupName, lockNames } from '../sheets/sheet-names.js';
import { type SheetRow, toSheetSummary } from '../sheets/sheet.mapper.js';
import { NavigationFeed } from '../sheets/sheet-changes.js';
import { GROUP_NOT_FOUND, notFound } from '../sheets/sheets.service.js';
import { toGroup } from './group.mapper.js';
import type { Visibility } from '../access/access.service.js';
import { grantCreator } from '../access/creator-grant.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A sheets row as json_agg writes it: timestamps as text. */
type JsonSheetRow = Omit<SheetRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/**
 * Serialises group moves (a transaction-scoped advisory lock): the cycle check of a move must see
 * every move committed before it, or A-into-B and B-into-A at once both pass and take both
 * groups (and their sheets) out of the tree. Taken before any row lock, so moves wait for each
 * other without holding anything a concurrent move needs.
 */
const GROUP_MOVES_LOCK = 7_365_021_003n;

/** Groups (folders): nestable, names unique among siblings, deleted with everything inside. */
export class GroupsService {
  /** Groups created, renamed, moved or deleted, for the workspace socket (src/live). */
  readonly navigation = new NavigationFeed();

  constructor(private readonly db: Kysely<Database>) {}

  /** Tells the workspace that a group appeared or changed (import announces the group it makes). */
  announce(type: 'group_created' | 'group_updated', group: Group, userId: string): void {
    this.navigation.emit({ type, id: group.id, userId, name: group.name, parentId: group.parent_id });
  }

  async get(id: string, db: Db = this.db): Promise<Group> {
    const row = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(GROUP_NOT_FOUND);
    return toGroup(row);
  }

  /** One page of the groups the member can see (filtered before paging, as sheets are). */
  async list(query: GroupListQuery, visibility: Visibility): Promise<GroupList> {
    let base = this.db.selectFrom('groups').where('trashed_in', 'is', null);
    if (query.parent_id === 'root' || query.parent_id === '') base = base.where('parent_id', 'is', null);
    else if (query.parent_id) base = base.where('parent_id', '=', query.parent_id);
    const rows = await base.selectAll().orderBy('position').orderBy('name').execute();
    const visible = rows.filter((r) => visibility.group(r.id) !== 'none');
    const page = visible.slice(query.offset, query.offset + query.limit);
    return { groups: page.map((r) => toGroup(r, visibility.group(r.id))), count: visible.length };
  }

  private async nextPosition(trx: Transaction<Database>, parentId: string | null): Promise<number> {
    const { p } = await trx
      .selectFrom('groups')
      .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('p'))
      .where(sql<boolean>`parent_id IS NOT DISTINCT FROM ${parentId}::uuid`)
      .executeTakeFirstOrThrow();
    return p;
  }

  /** Inserts inside the caller's transaction (import uses it for a workbook's group). */
  async insert(trx: Transaction<Database>, body: CreateGroupBody, userId: string | null): Promise<Group> {
    await lockNames(trx);
    const parentId = body.parent_id ?? null;
    if (parentId) await this.get(parentId, trx);
    const row = await trx
      .insertInto('groups')
      .values({
        id: crypto.randomUUID(),
        name: await freeGroupName(trx, body.name ?? DEFAULT_GROUP_NAME, parentId),
        parent_id: parentId,
        description: body.description ?? '',
        position: body.position ?? (await this.nextPosition(trx, parentId)),
        created_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await grantCreator(trx, { type: 'group', id: row.id }, userId);
    return toGroup(row, userId === null ? undefined : 'owner');
  }

  async create(body: CreateGroupBody, userId: string): Promise<Group> {
    const group = await this.db.transaction().execute((trx) => this.insert(trx, body, userId));
    this.announce('group_created', group, userId);
    return group;
  }

  /** Refuses a parent that is the group itself or one of its descendants. */
  private async assertNotIntoItself(trx: Transaction<Database>, id: string, parentId: string): Promise<void> {
    const { rows } = await sql<{ id: string }>`
      WITH RECURSIVE descendants(id) AS (
        SELECT ${id}::uuid
        UNION
        SELECT g.id FROM groups g JOIN descendants d ON g.parent_id = d.id
      )
      SELECT id FROM descendants WHERE id = ${parentId}::uuid`.execute(trx);
    if (rows.length > 0) throw HttpError.badRequest(GROUP_CYCLE_MESSAGE);
  }

  async update(id: string, body: UpdateGroupBody, userId: string): Promise<Group> {
    const group = await this.db.transaction().execute(async (trx) => {
      if (body.parent_id !== undefined) await sql`SELECT pg_advisory_xact_lock(${GROUP_MOVES_LOCK}::bigint)`.execute(trx);
      // NO KEY UPDATE: the id stays, so moves of sheets and groups into this one (their foreign
      // keys' KEY SHARE locks) need not wait for it.
      const row = await trx.selectFrom('groups').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
      if (!row) throw notFound(GROUP_NOT_FOUND);
      const set: Record<string, unknown> = { updated_at: sql`now()` };
      let parentId = row.parent_id;
      if (body.parent_id !== undefined && body.parent_id !== row.parent_id) {
        parentId = body.parent_id;
        if (parentId) {
          await this.get(parentId, trx);
          await this.assertNotIntoItself(trx, id, parentId);
        }
        set.parent_id = parentId;
        set.position = body.position ?? (await this.nextPosition(trx, parentId));
      } else if (body.position !== undefined) set.position = body.position;
      if ((body.name !== undefined && body.name !== row.name) || parentId !== row.parent_id) {
        await lockNames(trx);
        set.name = await freeGroupName(trx, body.name ?? row.name, parentId, id);
      }
      if (body.description !== undefined) set.description = body.description;
      const updated = await trx.updateTable('groups').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return toGroup(updated);
    });
    this.announce('group_updated', group, userId);
    return group;
  }

  /**
   * The groups and sheets the member can see, as nested nodes; sheets without a group at root.
   * Something visible inside a group they cannot see is shown at root (the group's name stays hidden).
   */
  async tree(userId: string, visibility: Visibility): Promise<GroupTree> {
    return this.db.transaction().execute(async (trx) => {
      const groups = await trx.selectFrom('groups').selectAll().where('trashed_in', 'is', null).orderBy('position').orderBy('name').execute();
      // Every sheet as ONE json text built by the database: decoding 10,000 rows of 14 columns
      // (jsonb, timestamps) one by one was most of the tree's time; one string and JSON.parse is
      // a few times cheaper. The user's favourites come in the same statement.
      const { rows } = await sql<{ sheets: string }>`
        SELECT coalesce(json_agg(s ORDER BY s.position, s.name), '[]')::text AS sheets FROM (
          SELECT sh.id, sh.name, sh.group_id, sh.position, sh.version, sh.row_count, sh.col_count, sh.headers,
            sh.description, sh.tags, sh.extra, sh.created_by, sh.created_at, sh.updated_at, sh.trashed_in, f.sheet_id IS NOT NULL AS fav
          FROM sheets sh LEFT JOIN sheet_favorites f ON f.sheet_id = sh.id AND f.user_id = ${userId}::uuid
          WHERE sh.trashed_in IS NULL
        ) s`.execute(trx);
      const sheets = (JSON.parse(rows[0].sheets) as (JsonSheetRow & { fav: boolean })[]).map((s) => ({
        ...s,
        created_at: new Date(s.created_at),
        updated_at: new Date(s.updated_at),
      }));
      const nodes = new Map<string, GroupTreeNode>();
      for (const g of groups) {
        const access = visibility.group(g.id);
        if (access !== 'none') nodes.set(g.id, { group: toGroup(g, access), children: [], sheets: [] });
      }
      const roots: GroupTreeNode[] = [];
      for (const g of groups) {
        const node = nodes.get(g.id);
        if (!node) continue;
        const parent = g.parent_id ? nodes.get(g.parent_id) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      const rootSheets: SheetSummary[] = [];
      for (const s of sheets) {
        const access = visibility.sheet(s);
        if (access === 'none') continue;
        const parent = s.group_id ? nodes.get(s.group_id) : undefined;
        (parent ? parent.sheets : rootSheets).push(toSheetSummary(s, s.fav, access));
      }
      return { groups: roots, sheets: rootSheets, root_access: visibility.root() };
    });
  }
}
