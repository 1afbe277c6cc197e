import { z } from 'zod';
import {
  CELL_PATCH_MAX_CHANGES,
  CellChangeSchema,
  CellValueSchema,
  GridDataSchema,
  SHEET_MAX_COLUMNS,
  SHEET_MAX_ROWS,
  SheetMetadataSchema,
} from '../sheets/sheet.schema.js';

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
/** Largest frame the server reads (a 10,000-cell paste fits); a bigger one closes the socket with 1009. */
export const LIVE_MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** A client further behind than this many versions gets a `sync` instead of a replay of the ops. */
export const LIVE_REPLAY_MAX_VERSIONS = 1_000;
/** Ping interval; a socket that has not answered the previous ping by the next one is dropped. */
export const LIVE_HEARTBEAT_MS = 30_000;

/** Close codes: 1008 (policy) for authentication, 4404 for a sheet that does not exist. */
export const LIVE_CLOSE = { policyViolation: 1008, sheetNotFound: 4404, sheetDeleted: 4410 } as const;

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

/** Many cells as one operation (a pasted range): one version, one op-log entry. */
export const CellsUpdateOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cells_update'),
  changes: z.array(CellChangeSchema).min(1).max(CELL_PATCH_MAX_CHANGES),
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
export const RowsInsertOperationSchema = structureOperation('rows_insert', SHEET_MAX_ROWS);
export const RowsRemoveOperationSchema = structureOperation('rows_remove', SHEET_MAX_ROWS);
export const ColumnsInsertOperationSchema = structureOperation('columns_insert', SHEET_MAX_COLUMNS);
export const ColumnsRemoveOperationSchema = structureOperation('columns_remove', SHEET_MAX_COLUMNS);
export const STRUCTURE_OPERATION_TYPES = ['rows_insert', 'rows_remove', 'columns_insert', 'columns_remove'] as const;
export type StructureOperationType = (typeof STRUCTURE_OPERATION_TYPES)[number];

export const LiveOperationSchema = z.discriminatedUnion('type', [
  CellUpdateOperationSchema,
  CellsUpdateOperationSchema,
  RowsInsertOperationSchema,
  RowsRemoveOperationSchema,
  ColumnsInsertOperationSchema,
  ColumnsRemoveOperationSchema,
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

export const LiveClientFrameSchema = z.discriminatedUnion('type', [LiveOperationFrameSchema, LiveReloadRequestFrameSchema, LiveSelectionFrameSchema]);
export type LiveClientFrame = z.infer<typeof LiveClientFrameSchema>;

/** Query of the socket URL. `since`: the last version the client holds. `user_id` is accepted and never trusted. */
export const LiveConnectQuerySchema = z.object({
  token: z.string().max(4096).optional(),
  since: z.coerce.number().int().min(0).optional(),
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
]);
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
  /** To the sender only, after the op is in the database. */
  z.object({
    type: z.literal('ack'),
    data: z.object({ sheet_id: z.string(), operation_id: z.string(), version: z.number().int(), timestamp: z.string() }),
  }),
  /** The whole sheet: replaces what the client holds. */
  z.object({
    type: z.literal('sync'),
    data: z.object({
      sheet_id: z.string(),
      data: GridDataSchema,
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
