import { LiveServerFrameSchema } from '@tessera/contracts';
import { z } from 'zod';

/** The bus channel of one sheet (live-bus.ts): every api process with a socket on the sheet listens. */
export const sheetChannel = (sheetId: string) => `sheet:${sheetId}`;
/** The presence scope of one sheet (presence-store.ts). */
export const SHEET_SCOPE_PREFIX = 'sheet:';
export const sheetScope = (sheetId: string) => `${SHEET_SCOPE_PREFIX}${sheetId}`;

/**
 * What api processes tell each other about a sheet (validated on receipt: with Redis it crossed
 * the network).
 * - `operation`: version `version` was committed; every socket gets the frame (an operation, or a
 *   chart change) in version order (see sheet-room.ts), the sender's socket its ack instead.
 * - `sync`: everyone gets the whole sheet — at `version` (a PUT, a restore: in version order),
 *   or without one (reload_request: at once).
 * - `frame`: a frame without a version (presence, selection, proposals) to every socket but
 *   `except` (the socket it came from, named by its process and its id there).
 * - `deleted`: the sheet is gone; its sockets close.
 */
export const SheetBusMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('operation'), version: z.number().int().min(1), frame: LiveServerFrameSchema }),
  z.object({ kind: z.literal('sync'), version: z.number().int().min(1).optional() }),
  z.object({
    kind: z.literal('frame'),
    frame: LiveServerFrameSchema,
    except: z.object({ process: z.string(), conn: z.string() }).optional(),
  }),
  z.object({ kind: z.literal('deleted') }),
]);
export type SheetBusMessage = z.infer<typeof SheetBusMessageSchema>;
