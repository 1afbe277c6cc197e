import { z } from 'zod';

/** What the activity log records: every destructive or access change (issue 18). */
export const ACTIVITY_KINDS = [
  'sheet_deleted',
  'group_deleted',
  'item_restored',
  'item_purged',
  'history_pruned',
  'version_discarded',
  'access_changed',
  'role_changed',
  'password_reset',
  'member_created',
  'member_deleted',
  'git_reverted',
] as const;
export const ActivityKindSchema = z.enum(ACTIVITY_KINDS);
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ActivityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who did it (id null once that member is deleted; the name stays as it was). */
  actor: z.object({ id: z.string().nullable(), username: z.string() }),
  kind: ActivityKindSchema,
  /** The sheet, group or member it was done to, with its name at the time. */
  item: z.object({ type: z.enum(['sheet', 'group', 'user']), id: z.string(), name: z.string() }).nullable(),
  /** Kind-specific facts (a share change's before and after, a pruned range, the new role...). */
  detail: z.record(z.string(), z.unknown()),
  /** The address the request came from. */
  address: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

export const ACTIVITY_PAGE_SIZE = 50;

const Id = z.uuid({ error: 'Invalid id' });

/** GET activity: newest first; `before` is the last id of the previous page. */
export const ActivityQuerySchema = z.strictObject({
  user_id: Id.optional(),
  item_id: Id.optional(),
  kind: ActivityKindSchema.optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(ACTIVITY_PAGE_SIZE),
});
export type ActivityQuery = z.infer<typeof ActivityQuerySchema>;

export const ActivityPageSchema = z.object({
  entries: z.array(ActivityEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: z.number().int().nullable(),
});
export type ActivityPage = z.infer<typeof ActivityPageSchema>;

const CommitHash = z.string().regex(/^[0-9a-f]{40}$/, { error: 'A commit is 40 lowercase hex digits' });

/**
 * POST activity/git-revert: the ai-middleware, which keeps the git repository, records a revert
 * it made, with the reverting member's own token (so the entry names them).
 */
export const GitRevertActivityBodySchema = z.strictObject({
  /** The new commit that undid `reverted`. */
  commit: CommitHash,
  reverted: CommitHash,
  /** The reverted commit's subject line. */
  subject: z.string().max(200, { error: 'subject is at most 200 characters' }),
});
export type GitRevertActivityBody = z.infer<typeof GitRevertActivityBodySchema>;
/** POST activity/git-revert's reply (201). */
export const GitRevertActivityResultSchema = z.object({ status: z.literal('recorded') });

/** What the Activity screen calls each kind (one place, so the screen and its tests agree). */
export const ACTIVITY_LABELS: Record<ActivityKind, string> = {
  sheet_deleted: 'Deleted sheet',
  group_deleted: 'Deleted group',
  item_restored: 'Restored',
  item_purged: 'Deleted forever',
  history_pruned: 'Pruned history',
  version_discarded: 'Discarded version',
  access_changed: 'Changed sharing',
  role_changed: 'Changed role',
  password_reset: 'Reset password',
  member_created: 'Created member',
  member_deleted: 'Deleted member',
  git_reverted: 'Reverted git commit',
};

/** The Activity screen's own texts. */
export const ACTIVITY_TEXTS = {
  /** Also the server's 403 for anyone else. */
  adminsOnly: 'Only admins can see the activity log',
  loadFailed: 'Could not load activity',
  empty: 'No activity yet',
  emptyFiltered: 'No activity matches these filters',
} as const;
