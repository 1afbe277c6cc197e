import { z } from 'zod';
import { CELL_PATCH_MAX_CHANGES, CellChangeSchema, CellValueSchema, GridDataSchema, SheetMetadataSchema } from '../sheets/sheet.schema.js';

/**
 * The live sheet socket `/sheets/{sheetId}` (spec 01 §3 "Live messages", §4 "Live connection",
 * spec 02 §7). Client frames are `{type, ...}`; server frames are `{type, data}`.
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
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});

/** Many cells as one operation (a pasted range): one version, one op-log entry. */
export const CellsUpdateOperationSchema = z.strictObject({
  id: OperationId,
  type: z.literal('cells_update'),
  changes: z.array(CellChangeSchema).min(1).max(CELL_PATCH_MAX_CHANGES),
  user_id: z.string().max(128).optional(),
  timestamp: ClientTimestamp,
});

export const LiveOperationSchema = z.discriminatedUnion('type', [CellUpdateOperationSchema, CellsUpdateOperationSchema]);
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

export const LiveClientFrameSchema = z.discriminatedUnion('type', [LiveOperationFrameSchema, LiveReloadRequestFrameSchema]);
export type LiveClientFrame = z.infer<typeof LiveClientFrameSchema>;

/** Query of the socket URL. `since`: the last version the client holds. `user_id` is accepted and never trusted. */
export const LiveConnectQuerySchema = z.object({
  token: z.string().max(4096).optional(),
  since: z.coerce.number().int().min(0).optional(),
  user_id: z.string().optional(),
});

// ---- server → client ----

/** An operation as the server applied it: stamped with the token's user and the commit time. */
export const AppliedOperationSchema = z.discriminatedUnion('type', [
  CellUpdateOperationSchema.extend({ user_id: z.string(), timestamp: z.string() }),
  CellsUpdateOperationSchema.extend({ user_id: z.string(), timestamp: z.string() }),
]);
export type AppliedOperation = z.infer<typeof AppliedOperationSchema>;

/** Online presence entry (spec 01 §3: userId and joinedAt), with the name to show. */
export const PresenceEntrySchema = z.object({ userId: z.string(), joinedAt: z.string(), display_name: z.string() });
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
]);
export type LiveServerFrame = z.infer<typeof LiveServerFrameSchema>;
