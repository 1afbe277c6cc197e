import type { AccessLevel, Group } from '@tessera/contracts';
import type { Selectable } from 'kysely';
import type { GroupsTable } from '../db/schema.js';

export type GroupRow = Selectable<GroupsTable>;

export const toGroup = (row: GroupRow, access?: AccessLevel): Group => ({
  ...(access ? { access } : {}),
  id: row.id,
  name: row.name,
  parent_id: row.parent_id,
  description: row.description,
  position: row.position,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
