import { z } from 'zod';
import { GroupNameSchema } from './sheet-name.js';
import { SheetSummarySchema } from './sheet.schema.js';
import { AccessLevelSchema } from '../access/access.schema.js';

export const GroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  description: z.string(),
  position: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The caller's level on it (absent from servers before issue 18). */
  access: AccessLevelSchema.optional(),
});
export type Group = z.infer<typeof GroupSchema>;

const Id = z.uuid({ error: 'Invalid id' });

export const CreateGroupBodySchema = z.strictObject({
  name: GroupNameSchema.optional(),
  parent_id: Id.nullable().optional(),
  description: z.string().max(2000).optional(),
  position: z.number().int().min(0).optional(),
});
export type CreateGroupBody = z.infer<typeof CreateGroupBodySchema>;

export const UpdateGroupBodySchema = CreateGroupBodySchema;
export type UpdateGroupBody = z.infer<typeof UpdateGroupBodySchema>;

export const GroupListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  /** A group id, or 'root' (or empty) for top-level groups; absent lists all. */
  parent_id: z.union([Id, z.literal('root'), z.literal('')]).optional(),
});
export type GroupListQuery = z.infer<typeof GroupListQuerySchema>;

export const GroupListSchema = z.object({ groups: z.array(GroupSchema), count: z.number().int() });
export type GroupList = z.infer<typeof GroupListSchema>;

export interface GroupTreeNode {
  group: Group;
  children: GroupTreeNode[];
  sheets: z.infer<typeof SheetSummarySchema>[];
}
export const GroupTreeNodeSchema: z.ZodType<GroupTreeNode> = z.lazy(() =>
  z.object({ group: GroupSchema, children: z.array(GroupTreeNodeSchema), sheets: z.array(SheetSummarySchema) }),
);

/**
 * GET groups/tree: top-level groups as nodes, and the sheets without a group. `root_access`: the
 * caller's level at root level (the workspace default, or owner for admins; absent from servers
 * before issue 18) — adding there (Add, Import, a drop to root) takes editor.
 */
export const GroupTreeSchema = z.object({
  groups: z.array(GroupTreeNodeSchema),
  sheets: z.array(SheetSummarySchema),
  root_access: AccessLevelSchema.optional(),
});
export type GroupTree = z.infer<typeof GroupTreeSchema>;

export const ITEM_TYPES = ['sheet', 'group'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** POST items/move: a sheet or group into a group, or to root with `group_id: null`. */
export const MoveItemBodySchema = z.strictObject({
  item: z.strictObject({ type: z.enum(ITEM_TYPES), id: Id }),
  target: z.strictObject({ group_id: Id.nullable(), position: z.number().int().min(0).optional() }),
});
export type MoveItemBody = z.infer<typeof MoveItemBodySchema>;

export const RenameItemParamsSchema = z.object({ type: z.enum(ITEM_TYPES), id: Id });
export const RenameItemBodySchema = z.strictObject({ name: z.string() });

/** Reply of move and rename: the item as it now is. */
export const ItemResultSchema = z.object({ type: z.enum(ITEM_TYPES), id: z.string(), name: z.string(), parent_id: z.string().nullable() });
export type ItemResult = z.infer<typeof ItemResultSchema>;

export const GROUP_CYCLE_MESSAGE = 'A group cannot be moved into itself or one of its descendants';
