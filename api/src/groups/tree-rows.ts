import type { SheetSummary } from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { type SheetRow, toSheetSummary } from '../sheets/sheet.mapper.js';
import { type GroupRow, toGroup } from './group.mapper.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A group of the tree: where it sits (for the levels) and its wire JSON without the caller's level. */
export interface TreeGroup {
  id: string;
  parent_id: string | null;
  trashed_in: string | null;
  /** `JSON.stringify(toGroup(row))` without its opening brace: the caller's level goes in front. */
  body: string;
}

/** A sheet of the tree (not in the trash): its group, and its wire JSON without the caller's level and favourite. */
export interface TreeSheet {
  id: string;
  group_id: string | null;
  /** The summary's JSON without `access`, `is_favorite` and its opening brace. */
  body: string;
}

interface Cached<T> {
  xmin: string;
  item: T;
}

/** A row version's id: Postgres' `xmin`, the transaction that wrote it; any change of the row changes it. */
const UUID_LENGTH = 36;

/**
 * The rows `GET /groups/tree` shows, kept in this process between requests. Every request reads
 * only each row's id and `xmin` (one text, in tree order) and fetches again just the rows whose
 * version changed or that are new: decoding 10,000 sheet rows and writing their JSON again on
 * every request was most of the tree's time. A row version never changes in place, so a cached
 * entry is right while its `xmin` is the same, in every api process; entries of rows that are
 * gone are dropped at each read, so the cache holds at most one entry per row.
 */
export class TreeRows {
  #groups = new Map<string, Cached<TreeGroup>>();
  #sheets = new Map<string, Cached<TreeSheet>>();

  /** Every group (the trashed ones too: their subtrees are hidden by the levels) and the sheets not in the trash, each in tree order. */
  async read(db: Db): Promise<{ groups: TreeGroup[]; sheets: TreeSheet[] }> {
    const { rows } = await sql<{ groups: string | null; sheets: string | null }>`
      SELECT
        (SELECT string_agg(g.id::text || g.xmin::text, ',' ORDER BY g.position, g.name) FROM groups g) AS groups,
        (SELECT string_agg(s.id::text || s.xmin::text, ',' ORDER BY s.position, s.name) FROM sheets s WHERE s.trashed_in IS NULL) AS sheets`.execute(db);
    const groupVersions = versionsOf(rows[0]?.groups ?? null);
    const sheetVersions = versionsOf(rows[0]?.sheets ?? null);
    const [groups, sheets] = await Promise.all([
      this.#refresh(this.#groups, groupVersions, (ids) => this.#fetchGroups(db, ids)),
      this.#refresh(this.#sheets, sheetVersions, (ids) => this.#fetchSheets(db, ids)),
    ]);
    return { groups, sheets };
  }

  /** The cached items in the order of `versions`, after fetching those missing or of another version; the rest are dropped. */
  async #refresh<T>(cache: Map<string, Cached<T>>, versions: [string, string][], fetch: (ids: string[] | null) => Promise<Map<string, Cached<T>>>): Promise<T[]> {
    const stale = versions.filter(([id, xmin]) => cache.get(id)?.xmin !== xmin).map(([id]) => id);
    // Nothing changed (the usual case): the cached items in order, the cache as it is.
    if (stale.length === 0 && cache.size === versions.length) return versions.map(([id]) => cache.get(id)!.item);
    // Most of them (the first request): one read of the whole table is cheaper than a long id list.
    const fetched = stale.length === 0 ? new Map<string, Cached<T>>() : await fetch(stale.length > versions.length / 2 ? null : stale);
    const next = new Map<string, Cached<T>>();
    const out: T[] = [];
    for (const [id] of versions) {
      const entry = fetched.get(id) ?? cache.get(id);
      // Deleted between the two reads: left out, as it is gone now.
      if (!entry) continue;
      next.set(id, entry);
      out.push(entry.item);
    }
    // Swapped whole: rows that are gone leave the cache.
    cache.clear();
    for (const [id, entry] of next) cache.set(id, entry);
    return out;
  }

  async #fetchGroups(db: Db, ids: string[] | null): Promise<Map<string, Cached<TreeGroup>>> {
    const { rows } = await sql<{ rows: string }>`
      SELECT coalesce(json_agg(g), '[]')::text AS rows FROM (
        SELECT id, name, parent_id, description, position, created_at, updated_at, created_by, trashed_in, xmin::text AS xmin FROM groups
        WHERE ${ids === null ? sql`true` : sql`id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(ids)}::json))`}
      ) g`.execute(db);
    const out = new Map<string, Cached<TreeGroup>>();
    for (const g of JSON.parse(rows[0].rows) as (JsonRow<GroupRow> & { xmin: string })[]) {
      const row: GroupRow = { ...g, created_at: new Date(g.created_at), updated_at: new Date(g.updated_at) };
      out.set(g.id, { xmin: g.xmin, item: { id: g.id, parent_id: g.parent_id, trashed_in: g.trashed_in, body: JSON.stringify(toGroup(row)).slice(1) } });
    }
    return out;
  }

  async #fetchSheets(db: Db, ids: string[] | null): Promise<Map<string, Cached<TreeSheet>>> {
    const { rows } = await sql<{ rows: string }>`
      SELECT coalesce(json_agg(s), '[]')::text AS rows FROM (
        SELECT id, name, group_id, position, version, row_count, col_count, headers, description, tags, extra, byte_size, created_by,
          created_at, updated_at, trashed_in, xmin::text AS xmin
        FROM sheets
        WHERE trashed_in IS NULL
          AND ${ids === null ? sql`true` : sql`id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(ids)}::json))`}
      ) s`.execute(db);
    const out = new Map<string, Cached<TreeSheet>>();
    for (const s of JSON.parse(rows[0].rows) as (JsonRow<SheetRow> & { xmin: string })[]) {
      const row: SheetRow = { ...s, created_at: new Date(s.created_at), updated_at: new Date(s.updated_at) };
      const { access: _access, is_favorite: _favorite, ...rest }: SheetSummary = toSheetSummary(row, false);
      out.set(s.id, { xmin: s.xmin, item: { id: s.id, group_id: s.group_id, body: JSON.stringify(rest).slice(1) } });
    }
    return out;
  }
}

/** A row as json_agg writes it: timestamps as text. */
type JsonRow<R extends { created_at: Date; updated_at: Date }> = Omit<R, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/** `id||xmin,id||xmin,...` (a uuid's text is 36 characters) as [id, xmin] pairs. */
function versionsOf(text: string | null): [string, string][] {
  if (!text) return [];
  return text.split(',').map((part) => [part.slice(0, UUID_LENGTH), part.slice(UUID_LENGTH)]);
}
