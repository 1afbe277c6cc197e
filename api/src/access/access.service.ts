import {
  ACCESS_TEXTS,
  type AccessLevel,
  type SharingRow,
  type SharingState,
  type UpdateSharingBody,
  type AccessNeed,
  type AuthUser,
  isAdminLike,
  meetsAccess,
  type WorkspaceDefaultAccess,
} from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { GROUP_NOT_FOUND, notFound, SHEET_NOT_FOUND } from '../sheets/sheets.service.js';
import { descend, type Inherited, type LevelGrants, levelOf, ROOT } from './access-level.js';

import type { ItemRef } from './creator-grant.js';

export type { ItemRef };

type Db = Kysely<Database> | Transaction<Database>;

/** Deeper than any real tree; stops a walk should a cycle ever exist. */
const MAX_DEPTH = 1000;

const notFoundText = (type: ItemRef['type']) => (type === 'sheet' ? SHEET_NOT_FOUND : GROUP_NOT_FOUND);

/** One level of an item's chain of groups, root first, with the member's and everyone's grants there. */
export interface ChainRow {
  id: string;
  name: string;
  depth: number;
  trashed: boolean;
  user_level: AccessLevel | null;
  everyone_level: AccessLevel | null;
}

/** Where a group sits, as the levels need it. */
export interface GroupPlace {
  id: string;
  parent_id: string | null;
  trashed_in: string | null;
}

/** Everyone's and one member's levels on every group and sheet, computed once for a list or the tree. */
export interface Visibility {
  /** The member's level at root level (where Add and Import put things). */
  root(): AccessLevel;
  group(id: string): AccessLevel;
  sheet(sheet: { id: string; group_id: string | null; trashed_in: string | null }): AccessLevel;
}

const grantsOf = (row: { user_level: AccessLevel | null; everyone_level: AccessLevel | null; trashed: boolean }): LevelGrants => ({
  user: row.user_level ?? undefined,
  everyone: row.everyone_level ?? undefined,
  trashed: row.trashed,
});

/**
 * Who may do what with a sheet or a group (issue 18). Every route and the live sockets ask here,
 * per item: the level comes from the grants on the item and on each group above it (see
 * access-level.ts), or the workspace default at root.
 */
export class AccessService {
  constructor(
    private readonly db: Kysely<Database>,
    readonly workspaceDefault: WorkspaceDefaultAccess,
  ) {}

  /** The item and its groups up to the root (root first), with the grants there; null when it does not exist. */
  async chain(item: ItemRef, userId: string, db: Db = this.db): Promise<ChainRow[] | null> {
    const start =
      item.type === 'sheet'
        ? sql`SELECT id, name, group_id AS parent_id, trashed_in IS NOT NULL AS trashed, 0 AS depth FROM sheets WHERE id = ${item.id}::uuid`
        : sql`SELECT id, name, parent_id, trashed_in IS NOT NULL AS trashed, 0 AS depth FROM groups WHERE id = ${item.id}::uuid`;
    const { rows } = await sql<ChainRow>`
      WITH RECURSIVE chain(id, name, parent_id, trashed, depth) AS (
        ${start}
        UNION ALL
        SELECT g.id, g.name, g.parent_id, g.trashed_in IS NOT NULL, c.depth + 1
        FROM groups g JOIN chain c ON g.id = c.parent_id
        WHERE c.depth < ${MAX_DEPTH}
      )
      SELECT c.id, c.name, c.depth, c.trashed,
        (SELECT level FROM item_grants WHERE item_id = c.id AND user_id = ${userId}::uuid) AS user_level,
        (SELECT level FROM item_grants WHERE item_id = c.id AND user_id IS NULL) AS everyone_level
      FROM chain c ORDER BY c.depth DESC`.execute(db);
    return rows.length === 0 ? null : rows;
  }

  /** The member's level on the item; 'none' when it does not exist (or is in the trash). */
  async levelOn(user: AuthUser, item: ItemRef, db: Db = this.db): Promise<AccessLevel> {
    const chain = await this.chain(item, user.id, db);
    return chain ? this.levelOfChain(user, chain) : 'none';
  }

  /** The level a chain (root first, as `chain` gives it) grants the member. */
  levelOfChain(user: Pick<AuthUser, 'role'>, chain: readonly ChainRow[]): AccessLevel {
    return levelOf(chain.map(grantsOf).reduce(descend, ROOT), user.role, this.workspaceDefault);
  }

  /**
   * Refuses a request the member's level does not allow: 404 with the item's not-found text when
   * they have no access (the item does not exist for them), 403 with a clear text otherwise.
   * Returns the level.
   */
  async require(user: AuthUser, item: ItemRef, need: AccessNeed, db: Db = this.db): Promise<AccessLevel> {
    const level = await this.levelOn(user, item, db);
    if (level === 'none') throw notFound(notFoundText(item.type));
    if (!meetsAccess(level, need)) throw HttpError.forbidden(refusal(item.type, need));
    return level;
  }

  /** Creating in or moving into `groupId` (null: root) needs editing there; at root, the workspace default. */
  async requirePlace(user: AuthUser, groupId: string | null, db: Db = this.db): Promise<void> {
    if (groupId !== null) {
      const level = await this.levelOn(user, { type: 'group', id: groupId }, db);
      if (level === 'none') throw notFound(GROUP_NOT_FOUND);
      if (!meetsAccess(level, 'edit')) throw HttpError.forbidden(ACCESS_TEXTS.cannotEditTarget);
      return;
    }
    if (!meetsAccess(levelOf(ROOT, user.role, this.workspaceDefault), 'edit')) throw HttpError.forbidden(ACCESS_TEXTS.cannotEditTarget);
  }

  /** Whether the member may create in or move into the group (null: root). */
  async canAddTo(user: AuthUser, groupId: string | null, db: Db = this.db): Promise<boolean> {
    if (groupId === null) return meetsAccess(levelOf(ROOT, user.role, this.workspaceDefault), 'edit');
    return meetsAccess(await this.levelOn(user, { type: 'group', id: groupId }, db), 'edit');
  }

  /**
   * Every group's level for the member, and a way to get any sheet's, from one read of the
   * groups and of the member's and everyone's grants: lists and the tree filter with it.
   * `ignoreTrash`: the levels as if everything were in place (the trash's list).
   */
  async visibility(user: AuthUser, db: Db = this.db, opts: { ignoreTrash?: boolean } = {}): Promise<Visibility> {
    const [groups, grants] = await Promise.all([db.selectFrom('groups').select(['id', 'parent_id', 'trashed_in']).execute(), this.#grantsOf(user, db)]);
    return this.#visibility(user, groups, grants, opts);
  }

  /** The same over every group as the caller read them already (the tree keeps them between requests): reads only the grants. */
  async visibilityOver(user: AuthUser, groups: readonly GroupPlace[], db: Db = this.db): Promise<Visibility> {
    return this.#visibility(user, groups, await this.#grantsOf(user, db), {});
  }

  /**
   * The member's own grants and everyone's, as two index scans (an OR of both reads every grant).
   * Admin-like members own everything: no grant changes their level.
   */
  async #grantsOf(user: AuthUser, db: Db): Promise<{ item_id: string; user_id: string | null; level: string }[]> {
    if (isAdminLike(user.role)) return [];
    const grants = db.selectFrom('item_grants').select(['item_id', 'user_id', 'level']);
    return grants
      .where('user_id', '=', user.id)
      .unionAll(grants.where('user_id', 'is', null))
      .execute();
  }

  #visibility(
    user: AuthUser,
    groups: readonly GroupPlace[],
    grants: readonly { item_id: string; user_id: string | null; level: string }[],
    opts: { ignoreTrash?: boolean },
  ): Visibility {
    const own = new Map<string, { user?: AccessLevel; everyone?: AccessLevel }>();
    for (const g of grants) {
      const at = own.get(g.item_id) ?? {};
      if (g.user_id === null) at.everyone = g.level as AccessLevel;
      else at.user = g.level as AccessLevel;
      own.set(g.item_id, at);
    }
    const parents = new Map(groups.map((g) => [g.id, g]));
    const inherited = new Map<string, Inherited>();
    const stateOf = (id: string): Inherited => {
      const known = inherited.get(id);
      if (known) return known;
      // Walk up to the nearest known ancestor, then fold back down (no recursion: trees may be deep).
      const path: string[] = [];
      let at: string | null = id;
      let base = ROOT;
      while (at !== null && path.length <= MAX_DEPTH) {
        const cached = inherited.get(at);
        if (cached) {
          base = cached;
          break;
        }
        const group = parents.get(at);
        if (!group) break;
        path.push(at);
        at = group.parent_id;
      }
      for (let i = path.length - 1; i >= 0; i--) {
        const group = parents.get(path[i])!;
        base = descend(base, { ...own.get(group.id), trashed: !opts.ignoreTrash && group.trashed_in !== null });
        inherited.set(group.id, base);
      }
      return inherited.get(id) ?? ROOT;
    };
    const level = (state: Inherited) => levelOf(state, user.role, this.workspaceDefault);
    return {
      root: () => level(ROOT),
      group: (id) => (parents.has(id) ? level(stateOf(id)) : 'none'),
      sheet: (sheet) => {
        if (sheet.group_id !== null && !parents.has(sheet.group_id)) return 'none';
        const above = sheet.group_id === null ? ROOT : stateOf(sheet.group_id);
        return level(descend(above, { ...own.get(sheet.id), trashed: !opts.ignoreTrash && sheet.trashed_in !== null }));
      },
    };
  }

  /** The sharing dialog: the item's direct grants, then those of each group above it, nearest first. */
  async sharing(user: AuthUser, item: ItemRef): Promise<SharingState> {
    const chain = await this.chain(item, user.id);
    const level = chain ? this.levelOfChain(user, chain) : 'none';
    if (!chain || level === 'none') throw notFound(notFoundText(item.type));
    const ids = chain.map((c) => c.id);
    const grants = await this.db
      .selectFrom('item_grants')
      .leftJoin('users', 'users.id', 'item_grants.user_id')
      .select(['item_grants.item_id', 'item_grants.user_id', 'item_grants.level', 'users.username'])
      .where('item_grants.item_id', 'in', ids)
      .orderBy('users.username')
      .execute();
    const rows: SharingRow[] = [];
    // Nearest first: the item itself, then its group, up to the root.
    for (const level of [...chain].reverse()) {
      const from = level.id === item.id ? null : { id: level.id, name: level.name };
      const here = grants.filter((g) => g.item_id === level.id);
      // Everyone first on each level, then members by name.
      here.sort((a, b) => (a.user_id === null ? -1 : b.user_id === null ? 1 : 0));
      for (const g of here) rows.push({ user_id: g.user_id, username: g.username ?? null, level: g.level as AccessLevel, inherited_from: from });
    }
    const self = chain[chain.length - 1];
    return { item: { type: item.type, id: item.id, name: self.name }, access: level, rows, workspace_default: this.workspaceDefault };
  }

  /**
   * Replaces the item's direct grants (owners only); every member named must exist. Returns the
   * grants before and after, for the activity log.
   */
  async setSharing(
    user: AuthUser,
    item: ItemRef,
    body: UpdateSharingBody,
    trx: Transaction<Database>,
  ): Promise<{ name: string; parentId: string | null; before: UpdateSharingBody['entries']; after: UpdateSharingBody['entries'] }> {
    await this.require(user, item, 'own', trx);
    const named = body.entries.flatMap((e) => (e.user_id === null ? [] : [e.user_id]));
    if (named.length > 0) {
      const found = await trx.selectFrom('users').select('id').where('id', 'in', named).execute();
      if (found.length !== new Set(named).size) throw HttpError.badRequest('Unknown member in entries');
    }
    const { name, parentId } =
      item.type === 'sheet'
        ? await trx.selectFrom('sheets').select(['name', 'group_id as parentId']).where('id', '=', item.id).executeTakeFirstOrThrow()
        : await trx.selectFrom('groups').select(['name', 'parent_id as parentId']).where('id', '=', item.id).executeTakeFirstOrThrow();
    const before = await trx.selectFrom('item_grants').select(['user_id', 'level']).where('item_id', '=', item.id).execute();
    await trx.deleteFrom('item_grants').where('item_id', '=', item.id).execute();
    if (body.entries.length > 0) {
      await trx
        .insertInto('item_grants')
        .values(body.entries.map((e) => ({ item_id: item.id, item_type: item.type, user_id: e.user_id, level: e.level })))
        .execute();
    }
    // Whole replacement must not lock the owner out of what they are sharing.
    if ((await this.levelOn(user, item, trx)) !== 'owner') throw HttpError.badRequest(ACCESS_TEXTS.keepOwnOwnership);
    return { name, parentId, before: before.map((b) => ({ user_id: b.user_id, level: b.level as AccessLevel })), after: body.entries };
  }
}

function refusal(type: ItemRef['type'], need: AccessNeed): string {
  if (need === 'own') return ACCESS_TEXTS.ownersOnly;
  return type === 'sheet' ? ACCESS_TEXTS.viewOnly : ACCESS_TEXTS.viewOnlyGroup;
}
