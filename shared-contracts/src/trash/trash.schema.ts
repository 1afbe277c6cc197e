import { z } from 'zod';
import { AccessLevelSchema } from '../access/access.schema.js';

/** TRASH_RETENTION_DAYS: how long a deleted item waits in the trash before the api purges it (Google Drive's 30). */
export const DEFAULT_TRASH_RETENTION_DAYS = 30;

/** Something deleted: a sheet, or a group with everything that was under it. */
export const TrashItemSchema = z.object({
  /** The trash entry's id (restore and delete forever take it). */
  id: z.string(),
  type: z.enum(['sheet', 'group']),
  item_id: z.string(),
  name: z.string(),
  /** The group it was in (null at root). */
  parent_id: z.string().nullable(),
  deleted_by: z.object({ id: z.string().nullable(), username: z.string().nullable() }),
  deleted_at: z.string(),
  /** When the api deletes it for good. */
  purge_at: z.string(),
  /** The caller's level on it: editors may restore, owners also delete forever. */
  access: AccessLevelSchema,
});
export type TrashItem = z.infer<typeof TrashItemSchema>;

export const TrashListSchema = z.object({ items: z.array(TrashItemSchema) });
export type TrashList = z.infer<typeof TrashListSchema>;

export const TrashIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid trash item id' }) });

/** POST trash/:id/restore: where the item is now (its group, or root when that group is gone). */
export const RestoreResultSchema = z.object({
  type: z.enum(['sheet', 'group']),
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
});
export type RestoreResult = z.infer<typeof RestoreResultSchema>;

export const TRASH_TEXTS = {
  notFound: 'Item not found in the trash',
  /** The confirmation of Delete forever. */
  deleteForeverConfirm: 'Delete forever? This cannot be undone.',
} as const;
