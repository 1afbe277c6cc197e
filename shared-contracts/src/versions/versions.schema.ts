import { z } from 'zod';
import { ChartDefinitionSchema } from '../charts/chart.schema.js';
import { HISTORY_PAGE_SIZE, SNAPSHOT_LIST_LIMIT } from '../constants.js';
import { CellChangeSchema, CellValueSchema, GridDataSchema } from '../sheets/sheet.schema.js';

/** Timeline entries: a run of edits by one user without a pause this long is one snapshot. */
export const SNAPSHOT_RUN_GAP_MS = 30_000;
export const VERSION_LABEL_MAX_LENGTH = 100;

export const VERSION_STATUSES = ['proposed', 'live', 'archived'] as const;
export const VersionStatusSchema = z.enum(VERSION_STATUSES);
export type VersionStatus = z.infer<typeof VersionStatusSchema>;

/** A committed version is its number ("12"); a proposal, which has no number until accepted, is a uuid. */
export const VersionIdSchema = z.union([z.string().regex(/^[1-9][0-9]{0,9}$/), z.uuid()], { error: 'Invalid version id' });

/** One changed cell with its value before and after. */
export const CellDeltaSchema = z.object({ row: z.number().int(), col: z.number().int(), old: CellValueSchema, new: CellValueSchema });
export type CellDelta = z.infer<typeof CellDeltaSchema>;

/** Sheet version entry (spec 02 §3) as the history lists it. */
export const SheetVersionEntrySchema = z.object({
  version_id: z.string(),
  /** The sheet version number; null for a proposal. */
  version: z.number().int().nullable(),
  status: VersionStatusSchema,
  author: z.string().nullable(),
  author_id: z.string().nullable(),
  created_at: z.string(),
  /** Count of changed cells; null when the version replaced the whole grid (a create, an import). */
  delta_cells: z.number().int().nullable(),
  kind: z.string(),
  label: z.string().nullable(),
  /** For a proposal: the version it was based on. */
  base_version: z.number().int().nullable(),
});
export type SheetVersionEntry = z.infer<typeof SheetVersionEntrySchema>;

export const SheetHistorySchema = z.object({ versions: z.array(SheetVersionEntrySchema), count: z.number().int(), live_version: z.number().int() });
export type SheetHistory = z.infer<typeof SheetHistorySchema>;

export const HistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(HISTORY_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

/** A version's content: the entry with headers and rows, and (detail view) its changed cells. */
export const SheetVersionSchema = SheetVersionEntrySchema.extend({
  headers: z.array(z.string()),
  rows: GridDataSchema,
  /** The cells this version changed; null when it replaced the whole grid. */
  changes: z.array(CellDeltaSchema).nullable(),
  /** The sheet's charts at this version (a proposal: those of its base); absent from servers before issue 20. */
  charts: z.array(ChartDefinitionSchema).optional(),
});
export type SheetVersion = z.infer<typeof SheetVersionSchema>;

/** Snapshot (spec 02 §3): a Timeline entry, a run of versions. */
export const SnapshotSchema = z.object({
  sheet_id: z.string(),
  /** The last version of the run: restoring the snapshot restores this version. */
  version: z.number().int(),
  first_version: z.number().int(),
  created_at: z.string(),
  author: z.string().nullable(),
  /** Count of cells the run changed (net); null when it replaced the whole grid. */
  delta_cells: z.number().int().nullable(),
  label: z.string().nullable(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** A Timeline entry in detail: the cells the run changed, each with its value before the run and after it. */
export const SnapshotDetailSchema = SnapshotSchema.extend({ cells: z.array(CellDeltaSchema).nullable() });
export type SnapshotDetail = z.infer<typeof SnapshotDetailSchema>;

export const SnapshotListSchema = z.object({ snapshots: z.array(SnapshotSchema) });
export type SnapshotList = z.infer<typeof SnapshotListSchema>;

export const SnapshotListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(SNAPSHOT_LIST_LIMIT),
});

/** POST /sheets/{id}/versions: a proposal, as a full grid or as cell changes on a base version. */
export const CreateProposalBodySchema = z
  .strictObject({
    base_version: z.number().int().min(1).optional(),
    data: GridDataSchema.optional(),
    changes: z.array(CellChangeSchema).min(1).max(10_000).optional(),
    headers: z.array(z.string().max(200)).max(1000).optional(),
  })
  .refine((b) => (b.data === undefined) !== (b.changes === undefined), { error: 'Give either data or changes' });
export type CreateProposalBody = z.infer<typeof CreateProposalBodySchema>;

/** The result of accept, checkout and restore: the new live version. */
export const VersionTransitionResultSchema = z.object({
  sheet_id: z.string(),
  version: z.number().int(),
  from_version_id: z.string(),
});
export type VersionTransitionResult = z.infer<typeof VersionTransitionResultSchema>;

/** POST …/versions/:versionId/discard's reply. */
export const DiscardResultSchema = z.object({ status: z.literal('discarded'), version_id: z.string() });
export type DiscardResult = z.infer<typeof DiscardResultSchema>;

export const VersionLabelBodySchema = z.strictObject({
  label: z.string().trim().min(1, { error: 'Label is required' }).max(VERSION_LABEL_MAX_LENGTH, { error: 'Label is too long' }),
});

/** One change of one cell (grist-core#2372). */
export const CellHistoryEntrySchema = z.object({
  version: z.number().int(),
  author: z.string().nullable(),
  created_at: z.string(),
  kind: z.string(),
  old: CellValueSchema,
  new: CellValueSchema,
});
export const CellHistorySchema = z.object({ row: z.number().int(), col: z.number().int(), changes: z.array(CellHistoryEntrySchema) });
export type CellHistory = z.infer<typeof CellHistorySchema>;

/**
 * Retention (like Grist's snapshot pruning): keep the newest `recent` versions, and the newest
 * version of each of the last `hourly` hours, `daily` days, `weekly` weeks and `monthly` months.
 * Named versions, the live one, whole-grid versions and proposals' bases are always kept.
 */
export const RetentionPolicySchema = z.strictObject({
  recent: z.number().int().min(1).max(100_000),
  hourly: z.number().int().min(0).max(100_000).default(0),
  daily: z.number().int().min(0).max(100_000).default(0),
  weekly: z.number().int().min(0).max(100_000).default(0),
  monthly: z.number().int().min(0).max(100_000).default(0),
});
export type RetentionPolicy = z.infer<typeof RetentionPolicySchema>;
/** What a client sends (the counts left out are 0). */
export type RetentionPolicyInput = z.input<typeof RetentionPolicySchema>;

export const PruneResultSchema = z.object({ sheet_id: z.string(), pruned: z.number().int(), kept: z.number().int() });
export type PruneResult = z.infer<typeof PruneResultSchema>;

/** The prune dialog (owners only): its texts, defined once. */
export const PRUNE_TEXTS = {
  open: 'Prune history…',
  title: 'Prune history',
  recent: 'Keep the newest versions',
  daily: 'Keep one version a day for the last days',
  /** The dialog says it before anything is pruned (issue 18). */
  warning: 'Pruned versions are gone for good: a pruned range cannot be undone. Named versions, the live one and the last 10 minutes are always kept.',
  confirm: 'Prune',
  cancel: 'Cancel',
  done: (r: PruneResult) => `Pruned ${r.pruned} version${r.pruned === 1 ? '' : 's'}; ${r.kept} kept.`,
  failed: (reason: string) => `Could not prune the history: ${reason}`,
} as const;
export const PRUNE_DEFAULTS = { recent: 50, daily: 30 } as const;

export * from './version-preview.js';

/**
 * GET /sheets/{id}/versions/{versionId}/rows (issue 23): rows [start, start + count) of a version,
 * for the preview of a sheet shown a window at a time (the query is SheetRowsQuerySchema's:
 * start, count up to SHEET_ROWS_WINDOW_MAX, summary=1, col_start and col_count). A version never changes: its rows are
 * the same at every read.
 */
export const VersionRowsSchema = z.object({
  version_id: z.string(),
  row_count: z.number().int(),
  column_count: z.number().int(),
  start: z.number().int(),
  data: GridDataSchema,
  /** With col_start and col_count: the first column of each row of `data`. */
  col_start: z.number().int().optional(),
  /** With `summary=1`: the version without its rows (entry, headers, changed cells, charts). */
  version: SheetVersionSchema.omit({ rows: true }).optional(),
});
export type VersionRows = z.infer<typeof VersionRowsSchema>;
