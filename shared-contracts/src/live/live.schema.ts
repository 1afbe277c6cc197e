import { z } from 'zod';
import { AccessLevelSchema } from '../access/access.schema.js';
import { ChartDefinitionSchema } from '../charts/chart.schema.js';
import { ImportProgressSchema } from '../sheets/import-export.schema.js';
import {
  CELL_PATCH_MAX_CHANGES,
  CellChangeSchema,
  CellValueSchema,
  GridDataSchema,
  SHEET_MAX_COLUMNS,
  SHEET_MAX_ROWS,
  SheetMetadataSchema,
} from '../sheets/sheet.schema.js';
import { SORT_DIRECTIONS, SORT_ORDER_SENT_MAX_ROWS } from './rows-sort.js';

/**
 * The live sheet socket `/sheets/{sheetId}` (spec 01 §3 "Live messages", §4 "Live connection",
 * spec 02 §7). Client frames are `{type, ...}`; server frames are `{type, data}`. A server
 * message is one frame, or, when the server produced several for the socket in the same tick (a
 * group commit delivers many versions at once), a JSON array of frames to handle in order:
 * `[{type, data}, {type, data}, ...]`. A lone frame is never wrapped in an array.
 */

/** Offered as the first Sec-WebSocket-Protocol next to the token (`['tessera.bearer', token]`); the server selects it. */
export const LIVE_TOKEN_PROTOCOL = 'tessera.bearer';

/** The token of a `Sec-WebSocket-Protocol: tessera.bearer, <token>` header (the api and the shell's proxy read it). */
export function liveTokenFromProtocols(header: string | undefined): string | undefined {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const marker = offered.indexOf(LIVE_TOKEN_PROTOCOL);
  return marker >= 0 ? offered.find((_, i) => i !== marker) : undefined;
}
/**
 * Largest frame the server reads; a bigger one closes the socket with 1009 (LIVE_CLOSE.messageTooBig).
 * A full cells_update of CELL_PATCH_MAX_CHANGES typical cells is about 0.4 MiB, and the grid cuts a
 * paste of long texts into operations under 90% of this (mfe-sheets live-ops.ts); parsing one frame
 * costs the api a few times its size, so 1 MiB keeps that small per socket.
 */
export const LIVE_MAX_FRAME_BYTES = 1024 * 1024;
/**
 * What a socket may send before its token check and join are done (a selection, an edit typed in
 * that instant: the client replays its queued operations only once the server has spoken, see
 * live-client.ts). Past either bound the socket is closed with 1008.
 */
export const LIVE_PREJOIN_MAX_FRAMES = 64;
export const LIVE_PREJOIN_MAX_BYTES = 1024 * 1024;
/**
 * Outbound backpressure: a socket whose unsent data (what the api wrote and the client has not
 * read yet) passes this is too far behind to catch up frame by frame; it is closed with
 * LIVE_CLOSE.tooFarBehind and resyncs on reconnect (`?since=`). The api's default; LIVE_OUTBOUND_MAX_BYTES overrides it.
 */
export const LIVE_OUTBOUND_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Operations waiting for their sheet's group commit, per sheet (count and frame bytes). Past
 * either, an operation is refused with LIVE_TEXTS.sheetBusy and nothing is applied.
 */
export const LIVE_SHEET_QUEUE_MAX_OPS = 10_000;
export const LIVE_SHEET_QUEUE_MAX_BYTES = 32 * 1024 * 1024;
/** A client further behind than this many versions gets a `sync` instead of a replay of the ops. */
export const LIVE_REPLAY_MAX_VERSIONS = 1_000;
/** Ping interval; a socket that has not answered the previous ping by the next one is dropped. */
export const LIVE_HEARTBEAT_MS = 30_000;
/**
 * A reload_request sends everyone on the sheet the whole sheet: one socket gets that done at most
 * once per this interval. Requests within it are coalesced into one sync at its end (the last
 * request is still served), so a loop of tiny frames cannot make the api send sheets without end.
 */
export const LIVE_RELOAD_MIN_INTERVAL_MS = 1_000;

/**
 * Close codes of both sockets and what the client does after each (live-client.ts):
 * - policyViolation 1008: refused at connect (no or bad token, bad parameters) or too many frames
 *   before the join: the client refreshes its token and retries with backoff.
 * - messageTooBig 1009: a frame over LIVE_MAX_FRAME_BYTES (sent by the WebSocket library).
 * - sessionEnded 4401: the user's password changed, the user was deleted or their role changed
 *   (their token epoch moved): the client tries one token refresh; with a fresh token it
 *   reconnects at once, otherwise it signs out and shows LIVE_TEXTS.sessionEnded.
 * - tokenExpired 4440: the socket's access token reached its exp: same as sessionEnded (a
 *   session that is still valid refreshes and reconnects).
 * - tooFarBehind 4408: outbound backpressure (LIVE_OUTBOUND_MAX_BYTES): reconnect with `?since=`.
 * - sheetNotFound 4404, sheetDeleted 4410.
 */
export const LIVE_CLOSE = {
  policyViolation: 1008,
  messageTooBig: 1009,
  sessionEnded: 4401,
  tokenExpired: 4440,
  tooFarBehind: 4408,
  sheetNotFound: 4404,
  sheetDeleted: 4410,
} as const;

/** Texts of the live sockets' closes and refusals, shown to users as they are. */
export const LIVE_TEXTS = {
  sessionEnded: 'Your session has ended. Sign in again.',
  tokenExpired: 'Your access token expired; reconnecting with a fresh one.',
  tooFarBehind: 'This connection fell too far behind; reconnecting.',
  tooManyBeforeJoin: 'Too many frames before the connection was ready',
  sheetBusy: 'The sheet is busy; try again in a moment.',
} as const;

/** What the live client does after a close with `code` (see LIVE_CLOSE). */
export type LiveCloseAction = 'renewSession' | 'refreshAndRetry' | 'retry';
export function liveCloseAction(code: number): LiveCloseAction {
  if (code === LIVE_CLOSE.sessionEnded || code === LIVE_CLOSE.tokenExpired) return 'renewSession';
  if (code === LIVE_CLOSE.policyViolation) return 'refreshAndRetry';
  return 'retry';
}

const OperationId = z.string().min(1).max(128);
/** Clients send a number (ms) or an ISO string; the server replaces it with its commit time. */
const ClientTimestamp = z.union([z.number(), z.string().max(64)]).optional();
/**
 * The sheet version the sender had applied when it made the operation (all versions up to it):
 * the server moves the operation's positions through the rows and columns inserted or removed
 * since (transform-position.ts) and drops an edit whose cell is gone, with an error frame naming
 * it. Without it (older clients) the operation applies to the sheet as it is now. Dropped from
 * the operation the server broadcasts: that one is at its own version.
 */
const BaseVersion = z.number().int().min(0).optional();

export const CellPositionSchema = z.strictObject({
  row: CellChangeSchema.shape.row,
  column: CellChangeSchema.shape.col,
});

/** One cell (spec 01 §3 "Collaboration operation"). `user_id` from a client is ignored. */
export const CellUpdateOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cell_update'),
  position: CellPositionSchema,
  value: CellValueSchema,
  base_version: BaseVersion,
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});

/**
 * Many cells as one operation (a pasted range): one version, one op-log entry. `source` 'ai':
 * the cells are an AI or code result applied to the sheet; the server sets the sheet's
 * metadata.lastAIUpdate when it commits one (spec 02 §3).
 */
export const CellsUpdateOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cells_update'),
  changes: z.array(CellChangeSchema).min(1).max(CELL_PATCH_MAX_CHANGES),
  source: z.literal('ai').optional(),
  base_version: BaseVersion,
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});

/**
 * Rows or columns inserted or removed as one operation: `count` of them at `index` (0-based,
 * in the stored grid). Inserted ones are empty; cells at and after `index` move by `count`.
 * The server refuses an index past the grid (insert: at most its length; remove: the range
 * must lie inside it).
 */
function structureOperation<T extends string>(type: T, max: number) {
  return z.strictObject({
    id: OperationId,
    type: z.literal(type),
    index: z.number().int().min(0).max(max),
    count: z.number().int().min(1).max(max),
    base_version: BaseVersion,
    user_id: z.string().max(128).optional(),
    timestamp: ClientTimestamp,
  });
}
/**
 * `undo` on an insert: the version of a `rows_remove` (`columns_remove`) this insert undoes — Ctrl+Z
 * of a remove on a sheet the client holds only windows of, so it does not hold the cells the remove
 * took (structure-undo.ts). The insert is placed as any insert (`index` moved through what was
 * inserted or removed since `base_version`) and its new rows (columns) are then filled by the server
 * with the cells the remove took, as they were just before it: a removed column's cells moved with
 * their rows through rows inserted, removed or sorted since; a removed row's with their columns.
 * `count` must be the remove's. Refused (STRUCTURE_UNDO_TEXTS) when `undo` is not a remove of this
 * axis and count, the whole grid was replaced since, or the history before it is no longer kept.
 * Clients read the cells they hold of the inserted rows (columns) again once applied (the server
 * does not send the values).
 */
const StructureUndo = { undo: z.number().int().min(1).optional() };
export const RowsInsertOperationSchema = structureOperation('rows_insert', SHEET_MAX_ROWS).extend(StructureUndo);
export const RowsRemoveOperationSchema = structureOperation('rows_remove', SHEET_MAX_ROWS);
export const ColumnsInsertOperationSchema = structureOperation('columns_insert', SHEET_MAX_COLUMNS).extend(StructureUndo);
export const ColumnsRemoveOperationSchema = structureOperation('columns_remove', SHEET_MAX_COLUMNS);
export const STRUCTURE_OPERATION_TYPES = ['rows_insert', 'rows_remove', 'columns_insert', 'columns_remove'] as const;
export type StructureOperationType = (typeof STRUCTURE_OPERATION_TYPES)[number];

/**
 * The sheet's rows sorted by `column` (0-based, in the stored grid) in `direction` (rows-sort.ts):
 * the intent only. The server moves the column through the columns inserted or removed since
 * `base_version` and orders the rows it holds when it applies the op; the applied op carries that
 * order (AppliedOperationSchema).
 */
export const RowsSortOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('rows_sort'),
  column: z.number().int().min(0).max(SHEET_MAX_COLUMNS - 1),
  direction: z.enum(SORT_DIRECTIONS),
  /**
   * The version of a sort this operation undoes (Ctrl+Z after a sort): the server puts the rows back
   * in the order they had before it (the logged order inverted; column and direction are that sort's).
   * Refused (SORT_TEXTS.undoMoved) when rows were inserted, removed or sorted since, or the grid was
   * replaced; cell edits since move with their rows.
   */
  undo: z.number().int().min(1).optional(),
  base_version: BaseVersion,
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});
export type RowsSortOperation = z.infer<typeof RowsSortOperationSchema>;

/** `count` rows or columns from `start`, inside the sheet's limit `max`. */
function spanSchema(max: number) {
  return z
    .strictObject({ start: z.number().int().min(0).max(max - 1), count: z.number().int().min(1).max(max) })
    .refine((s) => s.start + s.count <= max, { message: `A range may not pass ${max.toLocaleString('en-US')}` });
}

/**
 * A block of cells emptied as one operation (cells-clear.ts): `rows` × `columns` (0-based, in the
 * stored grid), one version and one op-log entry however many cells — a whole column of a
 * million rows is this, not a million changes. The server moves the block through the rows and
 * columns inserted or removed and rows sorted since `base_version` (cells-clear.ts says how),
 * refuses a block past the sheet, and broadcasts the block as it applied it.
 */
export const CellsClearOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cells_clear'),
  rows: spanSchema(SHEET_MAX_ROWS),
  columns: spanSchema(SHEET_MAX_COLUMNS),
  base_version: BaseVersion,
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});
export type CellsClearOperation = z.infer<typeof CellsClearOperationSchema>;

/**
 * Ctrl+Z of a `cells_clear` (cells-clear.ts), done by the server: every cell of the clear logged at
 * version `undo` that held a value just before it and is still empty gets that value back — cells
 * typed into since keep what was typed. One small operation however many cells (a whole column of
 * a million rows), where sending the cells back would be a million changes. The cleared cells move
 * with their rows and columns through what was inserted, removed or sorted since (cells whose row or
 * column was removed since are gone; a formula moved by a sort is shifted with its row, as the sort
 * shifts the formulas of the rows it moves: cells-clear.ts clearedPlacesThrough). Refused (CLEAR_TEXTS.undoNotClear / undoReplaced / undoGone /
 * undoUnavailable) when `undo` is not a clear of this sheet, the whole grid was replaced since, none
 * of its cells is left, or the sheet's history no longer holds the cells before it. The applied op
 * carries the block the cells put back lie in now (AppliedOperationSchema): clients read the cells
 * they hold of it again (the server does not send the values).
 */
export const CellsClearUndoOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cells_clear_undo'),
  undo: z.number().int().min(1),
  base_version: BaseVersion,
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});
export type CellsClearUndoOperation = z.infer<typeof CellsClearUndoOperationSchema>;

export const LiveOperationSchema = z.discriminatedUnion('type', [
  CellUpdateOperationSchema,
  CellsUpdateOperationSchema,
  RowsInsertOperationSchema,
  RowsRemoveOperationSchema,
  ColumnsInsertOperationSchema,
  ColumnsRemoveOperationSchema,
  RowsSortOperationSchema,
  CellsClearOperationSchema,
  CellsClearUndoOperationSchema,
]);
export type LiveOperation = z.infer<typeof LiveOperationSchema>;

// ---- client → server ----

export const LiveOperationFrameSchema = z.strictObject({
  type: z.literal('operation'),
  operation: LiveOperationSchema,
  sheet_id: z.string().max(64),
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});

export const LiveReloadRequestFrameSchema = z.strictObject({
  type: z.literal('reload_request'),
  sheet_id: z.string().max(64),
});

/** The cell this user has selected (null: none), shown to the others in the user's colour. */
export const LiveSelectionFrameSchema = z.strictObject({
  type: z.literal('selection'),
  sheet_id: z.string().max(64),
  selection: CellPositionSchema.nullable(),
});

/**
 * How a socket's page holds its sheet (issue 23), which decides what its `sync` frames carry:
 * - 'whole': every cell is in the page (the default, what a client that does not say gets): a sync
 *   brings the whole grid;
 * - 'windowed': the page reads the sheet a window of rows at a time (GET /sheets/{id}/rows) and
 *   never holds it all: a sync brings the version, name and metadata only, and the page reads its
 *   windows again. A room whose sockets are all windowed never reads the whole grid for a sync.
 * Told at connect (`?grid=`, for the catch-up at join) and with a `grid` frame when the page's
 * sheet loads or switches (the shell opens the socket before the page knows how it holds it).
 */
export const LIVE_GRIDS = ['whole', 'windowed'] as const;
export const LiveGridSchema = z.enum(LIVE_GRIDS);
export type LiveGrid = z.infer<typeof LiveGridSchema>;

/** The page now holds its sheet as `grid` (see LIVE_GRIDS): this socket's syncs follow from now on. */
export const LiveGridFrameSchema = z.strictObject({
  type: z.literal('grid'),
  sheet_id: z.string().max(64),
  grid: LiveGridSchema,
});

export const LiveClientFrameSchema = z.discriminatedUnion('type', [LiveOperationFrameSchema, LiveReloadRequestFrameSchema, LiveSelectionFrameSchema, LiveGridFrameSchema]);
export type LiveClientFrame = z.infer<typeof LiveClientFrameSchema>;

/**
 * Query of the socket URL. `since`: the last version the client holds. `grid`: how the page holds
 * the sheet (LIVE_GRIDS; absent is 'whole'). `user_id` is accepted and never trusted.
 */
export const LiveConnectQuerySchema = z.object({
  token: z.string().max(4096).optional(),
  since: z.coerce.number().int().min(0).optional(),
  grid: LiveGridSchema.optional(),
  user_id: z.string().optional(),
});

// ---- server → client ----

/** An operation as the server applied it: stamped with the token's user and the commit time. */
const Applied = { user_id: z.string(), timestamp: z.string() };
export const AppliedOperationSchema = z.discriminatedUnion('type', [
  CellUpdateOperationSchema.extend(Applied),
  CellsUpdateOperationSchema.extend(Applied),
  RowsInsertOperationSchema.extend(Applied),
  RowsRemoveOperationSchema.extend(Applied),
  ColumnsInsertOperationSchema.extend(Applied),
  ColumnsRemoveOperationSchema.extend(Applied),
  /**
   * `order[newRow] = oldRow`: the permutation the server applied (a cell at old row r is now at the
   * row whose entry is r). Absent for a sheet of more than SORT_ORDER_SENT_MAX_ROWS rows (its size):
   * the client reads the sheet again instead (LiveSheet).
   */
  RowsSortOperationSchema.extend({ ...Applied, order: z.array(z.number().int().min(0)).max(SORT_ORDER_SENT_MAX_ROWS).optional() }),
  CellsClearOperationSchema.extend(Applied),
  /**
   * `rows` × `columns`: the block (in the grid as it is now) holding every cell put back; empty
   * spans' `count` 0 never occur — an undo that puts nothing back (every cell typed into since) is
   * still applied, with the clear's block as it moved. Clients read what they hold of it again.
   */
  CellsClearUndoOperationSchema.extend({ ...Applied, rows: spanSchema(SHEET_MAX_ROWS), columns: spanSchema(SHEET_MAX_COLUMNS) }),
]);
export type AppliedCellsClear = Extract<AppliedOperation, { type: 'cells_clear' }>;
export type AppliedCellsClearUndo = Extract<AppliedOperation, { type: 'cells_clear_undo' }>;
export type AppliedRowsSort = Extract<AppliedOperation, { type: 'rows_sort' }>;
export type AppliedOperation = z.infer<typeof AppliedOperationSchema>;

/** Online presence entry (spec 01 §3: userId and joinedAt), with the name to show. */
export const PresenceEntrySchema = z.object({
  userId: z.string(),
  joinedAt: z.string(),
  display_name: z.string(),
  /** The cell the user has selected, when they reported one. */
  selection: CellPositionSchema.nullable().optional(),
});
export type PresenceEntry = z.infer<typeof PresenceEntrySchema>;

const PresenceEventData = z.object({ user_id: z.string(), sheet_id: z.string(), display_name: z.string() });

export const LiveServerFrameSchema = z.discriminatedUnion('type', [
  /** Sent once on join: who is on the sheet now (the joiner included). */
  z.object({ type: z.literal('presence'), data: z.object({ sheet_id: z.string(), users: z.array(PresenceEntrySchema) }) }),
  z.object({ type: z.literal('user_joined'), data: PresenceEventData }),
  z.object({ type: z.literal('user_left'), data: PresenceEventData }),
  /** A committed change; apply in `version` order (skip versions already held). */
  z.object({ type: z.literal('operation'), data: z.object({ sheet_id: z.string(), version: z.number().int(), operation: AppliedOperationSchema }) }),
  /**
   * To the sender only, after the op is in the database (in place of the operation frame the others
   * get). A rows_sort's ack carries the order the server applied (its client cannot know it before),
   * up to SORT_ORDER_SENT_MAX_ROWS rows (past it, none: the client reads the sheet again).
   */
  z.object({
    type: z.literal('ack'),
    data: z.object({
      sheet_id: z.string(),
      operation_id: z.string(),
      version: z.number().int(),
      timestamp: z.string(),
      order: z.array(z.number().int().min(0)).max(SORT_ORDER_SENT_MAX_ROWS).optional(),
    }),
  }),
  /**
   * The sheet as it is now: replaces what the client holds. `data` (the whole grid) is omitted
   * for a socket whose page holds the sheet windowed (LIVE_GRIDS): it reads its windows again
   * at `version`, sized by metadata.rows and metadata.columns.
   */
  z.object({
    type: z.literal('sync'),
    data: z.object({
      sheet_id: z.string(),
      data: GridDataSchema.optional(),
      version: z.number().int(),
      name: z.string(),
      metadata: SheetMetadataSchema,
      timestamp: z.string(),
    }),
  }),
  z.object({
    type: z.literal('error'),
    data: z.object({ code: z.string(), message: z.string(), operation_id: z.string().optional() }),
  }),
  /** Another user selected a cell (null: cleared). Never sent back to the selecting socket. */
  z.object({
    type: z.literal('selection'),
    data: z.object({ sheet_id: z.string(), user_id: z.string(), display_name: z.string(), selection: CellPositionSchema.nullable() }),
  }),
  /** A proposed version was made on the sheet (by the AI or a user): lists refresh (spec 02 §7). */
  z.object({
    type: z.literal('new_proposal'),
    data: z.object({ sheet_id: z.string(), version_id: z.string(), author: z.string().nullable().optional() }),
  }),
  /**
   * To one socket, at its join (after presence) and whenever a sharing change moves its member's
   * level on the sheet (issue 18): the grid turns read-only ('View only') or editable again without
   * a reload, also after a reconnect that missed the change. Operations sent after it are judged at
   * this level. Losing access is not told here: the socket is closed
   * (LIVE_CLOSE.sheetNotFound, ACCESS_TEXTS.accessRemoved).
   */
  z.object({
    type: z.literal('access'),
    data: z.object({ sheet_id: z.string(), access: AccessLevelSchema.exclude(['none']) }),
  }),
  /**
   * A chart was added, changed (moved, resized, edited) or deleted (issue 20): version `version`,
   * applied in version order like an operation. `chart` is the chart as stored now (its range and
   * box as the server anchored them), null when it was deleted. Nobody reloads the sheet for it.
   */
  z.object({
    type: z.literal('chart'),
    data: z.object({
      sheet_id: z.string(),
      version: z.number().int(),
      chart_id: z.string(),
      chart: ChartDefinitionSchema.nullable(),
      user_id: z.string(),
      timestamp: z.string(),
    }),
  }),
  /** A proposed version was accepted and is live now; a `sync` with its content follows. */
  z.object({
    type: z.literal('live_update_accepted'),
    data: z.object({ sheet_id: z.string(), version_id: z.string(), version: z.number().int() }),
  }),
]);
export type LiveServerFrame = z.infer<typeof LiveServerFrameSchema>;

// ---- the workspace socket `/live` (DESIGN.md § Live collaboration) ----

/** Who is online anywhere in the workspace: one entry per user, however many tabs. */
export const OnlineUserSchema = z.object({ user_id: z.string(), display_name: z.string() });
export type OnlineUser = z.infer<typeof OnlineUserSchema>;

/** Navigation changes told to every workspace socket, so that navigators stay current without a reload. */
export const NAVIGATION_EVENT_TYPES = [
  'sheet_created',
  'sheet_updated',
  'sheet_deleted',
  'group_created',
  'group_updated',
  'group_deleted',
] as const;
export type NavigationEventType = (typeof NAVIGATION_EVENT_TYPES)[number];

export const NavigationEventDataSchema = z.object({
  /** The sheet's or group's id. */
  id: z.string(),
  /** Who made the change (the navigator of that user may skip its own echo). */
  user_id: z.string(),
  name: z.string().optional(),
  parent_id: z.string().nullable().optional(),
});

export const WorkspaceServerFrameSchema = z.discriminatedUnion('type', [
  /** Sent once on connect: everyone online now (the connecting user included). */
  z.object({ type: z.literal('online'), data: z.object({ users: z.array(OnlineUserSchema) }) }),
  /** A user's first socket opened. */
  z.object({ type: z.literal('user_online'), data: OnlineUserSchema }),
  /** A user's last socket closed or timed out. */
  z.object({ type: z.literal('user_offline'), data: z.object({ user_id: z.string() }) }),
  // One entry per type (not a map over NAVIGATION_EVENT_TYPES) so that each frame type narrows on its own.
  z.object({ type: z.literal('sheet_created'), data: NavigationEventDataSchema }),
  z.object({ type: z.literal('sheet_updated'), data: NavigationEventDataSchema }),
  z.object({ type: z.literal('sheet_deleted'), data: NavigationEventDataSchema }),
  z.object({ type: z.literal('group_created'), data: NavigationEventDataSchema }),
  z.object({ type: z.literal('group_updated'), data: NavigationEventDataSchema }),
  z.object({ type: z.literal('group_deleted'), data: NavigationEventDataSchema }),
  /** Only to the importing user's sockets: how far the server is with storing an import's rows (POST /api/v1/import?progress=<id>). */
  z.object({ type: z.literal('import_progress'), data: ImportProgressSchema }),
]);
export type WorkspaceServerFrame = z.infer<typeof WorkspaceServerFrameSchema>;

/**
 * How a client reads an incoming frame (spec 01 §3 "Live messages"): a type plus data, or the
 * message itself as data; `custom_message` wraps an inner type and data, and the inner type
 * decides. Returns null for what is not an object with a string type.
 */
export function unwrapLiveMessage(message: unknown): { type: string; data: unknown } | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, data } = message as { type?: unknown; data?: unknown };
  if (typeof type !== 'string') return null;
  const payload = data === undefined ? message : data;
  if (type === 'custom_message') return unwrapLiveMessage(payload);
  return { type, data: payload };
}

/** Types ending in _created, _updated or _deleted make the navigation reload (spec 01 §3). */
export function isNavigationChange(type: string): boolean {
  return /_(created|updated|deleted)$/.test(type);
}
