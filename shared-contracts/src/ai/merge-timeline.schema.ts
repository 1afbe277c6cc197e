import { z } from 'zod';

/**
 * merge_timeline (spec 02 §3 AI hybrid response → snapshot; DESIGN.md § Where an AI result
 * goes), as the ai-middleware writes it: the result grid of a hybrid call became a proposed
 * version of the sheet through the api — `version_id` is the proposal, and `version` is left
 * out because a proposal has no number until it is accepted — or `error` says why nothing was
 * made. The chat panel reads it with chat-panel.schema.ts's HybridSnapshotSchema.
 */
export const MergeTimelineSnapshotSchema = z.union([
  z.object({
    sheet_id: z.string(),
    version_id: z.string(),
    status: z.literal('proposed'),
    /** The live version the proposal was made against. */
    base_version: z.number().int().nullable(),
  }),
  z.object({
    sheet_id: z.string(),
    /** The api's reply ('HTTP {status}: {body}') or the transport's error. */
    error: z.string(),
  }),
]);
export type MergeTimelineSnapshot = z.infer<typeof MergeTimelineSnapshotSchema>;
