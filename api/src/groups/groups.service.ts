import crypto from 'node:crypto';
import {
  type AccessLevel,
  type AuthUser,
  type CreateGroupBody,
  DEFAULT_GROUP_NAME,
  GROUP_CYCLE_MESSAGE,
  type Group,
  type GroupList,
  type GroupListQuery,
  type GroupTree,
  type UpdateGroupBody,
} from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { freeGroupName, lockNames } from '../sheets/sheet-names.js';
import { NavigationFeed } from '../sheets/sheet-changes.js';
import { GROUP_NOT_FOUND, notFound } from '../sheets/sheets.service.js';
import { toGroup } from './group.mapper.js';
import type { AccessService, Visibility } from '../access/access.service.js';
import { type TreeGroup, TreeRows } from './tree-rows.js';
import { grantCreator } from '../access/creator-grant.js';

type Db = Kysely<Database> | Transaction<Database>;

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

  /** The tree's rows, kept between requests (see tree-rows.ts). */
  readonly #treeRows = new TreeRows();

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
   * `GET /groups/tree`, as the JSON text of a GroupTree: the groups and sheets the member can see,
   * as nested nodes, sheets without a group at root, and the member's level at root. Something
   * visible inside a group they cannot see is shown at root (the group's name stays hidden).
   * The rows come from this process's TreeRows (only changed rows are read again), the levels
   * from one read of the member's grants, the favourites from one small read; the text is put
   * together from each row's JSON kept with it, so 10,000 sheets are not encoded again each time.
   */
  async treeJson(user: AuthUser, access: AccessService): Promise<string> {
    const [{ groups, sheets }, favorites] = await Promise.all([
      this.#treeRows.read(this.db),
      this.db.selectFrom('sheet_favorites').select('sheet_id').where('user_id', '=', user.id).execute(),
    ]);
    const visibility = await access.visibilityOver(user, groups);
    const favorite = new Set(favorites.map((f) => f.sheet_id));
    interface Node {
      group: TreeGroup;
      access: AccessLevel;
      children: Node[];
      sheets: string[];
    }
    const nodes = new Map<string, Node>();
    for (const g of groups) {
      if (g.trashed_in !== null) continue;
      const level = visibility.group(g.id);
      if (level !== 'none') nodes.set(g.id, { group: g, access: level, children: [], sheets: [] });
    }
    const roots: Node[] = [];
    for (const node of nodes.values()) {
      const parent = node.group.parent_id ? nodes.get(node.group.parent_id) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    const rootSheets: string[] = [];
    for (const s of sheets) {
      const level = visibility.sheet({ id: s.id, group_id: s.group_id, trashed_in: null });
      if (level === 'none') continue;
      const text = `{"access":"${level}","is_favorite":${favorite.has(s.id)},${s.body}`;
      const parent = s.group_id ? nodes.get(s.group_id) : undefined;
      (parent ? parent.sheets : rootSheets).push(text);
    }
    // Iterative, children before parents: trees may be deep.
    const text = new Map<Node, string>();
    const order: Node[] = [];
    const stack = [...roots];
    while (stack.length > 0) {
      const node = stack.pop()!;
      order.push(node);
      stack.push(...node.children);
    }
    for (let i = order.length - 1; i >= 0; i--) {
      const node = order[i];
      const children = node.children.map((c) => text.get(c)).join(',');
      text.set(node, `{"group":{"access":"${node.access}",${node.group.body},"children":[${children}],"sheets":[${node.sheets.join(',')}]}`);
    }
    const rootAccess: GroupTree['root_access'] = visibility.root();
    return `{"groups":[${roots.map((r) => text.get(r)).join(',')}],"sheets":[${rootSheets.join(',')}],"root_access":"${rootAccess}"}`;
  }
}
