import { z } from 'zod';

/**
 * What a member may do with a sheet or a group (issue 18), weakest last. Admins, hosts and
 * superadmins are owners everywhere; the creator of an item owns it.
 *  - owner: everything an editor may, and share, delete (to the trash), prune history, discard versions;
 *  - editor: edit cells and structure, import into, rename, move, accept proposals, restore versions;
 *  - viewer: open, export, history, preview versions; every write is refused;
 *  - none: the item does not exist for them (404).
 */
export const ACCESS_LEVELS = ['owner', 'editor', 'viewer', 'none'] as const;
export const AccessLevelSchema = z.enum(ACCESS_LEVELS);
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** What a request needs: 'view' is met by viewer and up, 'edit' by editor and up, 'own' by owner. */
export type AccessNeed = 'view' | 'edit' | 'own';

const RANK: Record<AccessLevel, number> = { none: 0, viewer: 1, editor: 2, owner: 3 };
const NEEDED: Record<AccessNeed, number> = { view: 1, edit: 2, own: 3 };

export function meetsAccess(level: AccessLevel, need: AccessNeed): boolean {
  return RANK[level] >= NEEDED[need];
}

/** WORKSPACE_DEFAULT_ACCESS: what members have on root items nobody shared otherwise. */
export const WORKSPACE_DEFAULT_LEVELS = ['editor', 'viewer', 'none'] as const;
export type WorkspaceDefaultAccess = (typeof WORKSPACE_DEFAULT_LEVELS)[number];
export const DEFAULT_WORKSPACE_ACCESS: WorkspaceDefaultAccess = 'editor';

/** The "Everyone in the workspace" row may not make everyone an owner. */
export const EVERYONE_LEVELS = ['editor', 'viewer', 'none'] as const;

/** Most direct grants on one item: a sharing dialog, not a mailing list. */
export const SHARING_MAX_ENTRIES = 500;

const Id = z.uuid({ error: 'Invalid id' });

/** A direct grant: to one member (`user_id`), or to everyone in the workspace (`user_id: null`). */
export const ShareEntrySchema = z.strictObject({
  user_id: Id.nullable(),
  level: AccessLevelSchema,
});
export type ShareEntry = z.infer<typeof ShareEntrySchema>;

/**
 * PUT {sheets|groups}/:id/access: the item's direct grants, whole. A member or Everyone left out
 * inherits from the parent group (or the workspace default at root).
 */
export const UpdateSharingBodySchema = z
  .strictObject({ entries: z.array(ShareEntrySchema).max(SHARING_MAX_ENTRIES) })
  .superRefine((body, ctx) => {
    const seen = new Set<string | null>();
    for (const [i, entry] of body.entries.entries()) {
      if (seen.has(entry.user_id)) {
        ctx.addIssue({ code: 'custom', path: ['entries', i, 'user_id'], message: 'Each member may appear only once' });
      }
      seen.add(entry.user_id);
      if (entry.user_id === null && !(EVERYONE_LEVELS as readonly string[]).includes(entry.level)) {
        ctx.addIssue({ code: 'custom', path: ['entries', i, 'level'], message: 'Everyone in the workspace cannot be owner' });
      }
    }
  });
export type UpdateSharingBody = z.infer<typeof UpdateSharingBodySchema>;

/** One row of the sharing dialog: a direct grant, or one inherited from a parent group. */
export const SharingRowSchema = z.object({
  user_id: z.string().nullable(),
  /** The member's username (null for Everyone). */
  username: z.string().nullable(),
  level: AccessLevelSchema,
  /** Null for a grant on the item itself; else the group it comes from. */
  inherited_from: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type SharingRow = z.infer<typeof SharingRowSchema>;

/** GET {sheets|groups}/:id/access. */
export const SharingStateSchema = z.object({
  item: z.object({ type: z.enum(['sheet', 'group']), id: z.string(), name: z.string() }),
  /** The caller's own level on the item. */
  access: AccessLevelSchema,
  /** Direct grants first, then inherited ones nearest first. */
  rows: z.array(SharingRowSchema),
  workspace_default: z.enum(WORKSPACE_DEFAULT_LEVELS),
});
export type SharingState = z.infer<typeof SharingStateSchema>;

export const ACCESS_TEXTS = {
  /** A write by a member who may only view: REST 403 and the live error frame. */
  viewOnly: 'You can only view this sheet',
  viewOnlyGroup: 'You can only view this group',
  /** Share, delete, prune history, discard versions by a non-owner. */
  ownersOnly: 'Only owners can do this',
  /** Creating or moving into a place the member may not edit. */
  cannotEditTarget: 'You cannot add items here',
  /** A sharing change that would leave its owner without ownership. */
  keepOwnOwnership: 'Keep yourself as an owner',
  /** A live socket whose member lost access to its sheet. */
  accessRemoved: 'You no longer have access to this sheet',
  /** An AI result for a sheet the member may only view: it goes to a new sheet of theirs instead. */
  resultToNewSheet: (sheet: string) => `You can only view **${sheet}**, so the result went to a new sheet.`,
  /** The same, with automatic sheet creation off: the result stays in the chat. */
  resultNotApplied: (sheet: string) => `You can only view **${sheet}**: the result was not applied.`,
} as const;
