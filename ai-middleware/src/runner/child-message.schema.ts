import type { JsonValue } from '@tessera/contracts';
import { z } from 'zod';

/**
 * What a runner child writes on stdout (child.mjs), one JSON line each. The child runs
 * untrusted code that can write there too, so every line is validated like any input
 * from outside; a forged line can only change its own job's outcome.
 */
export const ChildReadySchema = z.object({
  tessera: z.literal(1),
  type: z.literal('ready'),
  /** How Pyodide started: from the service's snapshot or loaded fresh (the gVisor engine says nothing). */
  boot: z.enum(['snapshot', 'fresh']).optional(),
});

export const ChildDoneSchema = z.object({
  tessera: z.literal(1),
  type: z.literal('done'),
  output: z.string(),
  truncated: z.boolean(),
  // The line went through JSON.parse, which yields JSON values only; walking a
  // 100,000-cell result again with a recursive schema costs 100–200 ms for nothing.
  result: z.custom<JsonValue>(() => true).optional(),
  error: z.object({ kind: z.enum(['python', 'memory', 'fatal']), message: z.string() }).optional(),
  /** The job's figures as base64 PNGs (the gVisor engine); checked again by figures.ts. */
  figures: z.array(z.string()).optional(),
  figures_omitted: z.number().int().nonnegative().optional(),
});
export type ChildDone = z.infer<typeof ChildDoneSchema>;

export const ChildMessageSchema = z.discriminatedUnion('type', [ChildReadySchema, ChildDoneSchema]);
export type ChildMessage = z.infer<typeof ChildMessageSchema>;
