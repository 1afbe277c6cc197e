import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables and columns migration 0007 adds (kept here so the feature stays in its folder). */
export interface ItemGrantsTable {
  item_id: string;
  item_type: 'sheet' | 'group';
  /** Null: everyone in the workspace. */
  user_id: string | null;
  level: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface TrashEntriesTable {
  id: string;
  item_type: 'sheet' | 'group';
  item_id: string;
  name: string;
  parent_id: string | null;
  deleted_by: string | null;
  deleted_by_name: string | null;
  deleted_at: ColumnType<Date, Date | undefined, never>;
}

export interface ActivityTable {
  id: Generated<string>;
  at: ColumnType<Date, Date | undefined, never>;
  actor_id: string | null;
  actor_name: string;
  kind: string;
  item_type: string | null;
  item_id: string | null;
  item_name: string | null;
  detail: ColumnType<Record<string, unknown>, string, never>;
  address: string | null;
}
