import { z } from 'zod';
import { GIT_MAX_CHANGES_PER_COMMIT } from './git.constants.js';

/** One file change of a commit request (spec 02 §3 Commit request). */
export const GitFileChangeSchema = z.discriminatedUnion('action', [
  z.strictObject({ path: z.string().min(1), action: z.literal('upsert'), content: z.string() }),
  // A delete carries no content; an empty or absent one is accepted for clients that always send it.
  z.strictObject({ path: z.string().min(1), action: z.literal('delete'), content: z.string().optional() }),
]);
export type GitFileChange = z.infer<typeof GitFileChangeSchema>;

/**
 * POST /git/commits. `base_commit` is the head the client edited from: null or
 * empty only while the repository has no commit. `sheetVersion` (the Code tab)
 * is recorded as a `Sheet-Version: N` trailer.
 */
export const GitCommitRequestSchema = z.strictObject({
  message: z.string().trim().min(1, 'A commit message is required').max(10_000),
  base_commit: z.string().nullable().optional(),
  changes: z.array(GitFileChangeSchema).min(1, 'At least one change is required').max(GIT_MAX_CHANGES_PER_COMMIT),
  sheetVersion: z.number().int().nonnegative().optional(),
});
export type GitCommitRequest = z.infer<typeof GitCommitRequestSchema>;

export const GitFileResultSchema = z.object({
  path: z.string(),
  /** applied: part of the commit; skipped: nothing to do (same content, or deleting a missing file). */
  status: z.enum(['applied', 'skipped']),
  message: z.string(),
});
export type GitFileResult = z.infer<typeof GitFileResultSchema>;

/** Answer of POST /git/commits and POST /git/revert-commit. commit_hash is the head after the call (unchanged, null on an empty repository, when every change was skipped). */
export const GitCommitResponseSchema = z.object({
  commit_hash: z.string().nullable(),
  committed: z.boolean(),
  file_results: z.array(GitFileResultSchema),
});
export type GitCommitResponse = z.infer<typeof GitCommitResponseSchema>;

/** POST /git/revert-commit: undo one commit with a new commit on main. */
export const GitRevertRequestSchema = z.strictObject({
  commit: z.string().min(1),
  message: z.string().trim().min(1).max(10_000).optional(),
});
export type GitRevertRequest = z.infer<typeof GitRevertRequestSchema>;

/** `error.details` of a 409 from POST /git/commits or /git/revert-commit. */
export const GitConflictDetailsSchema = z.object({
  base_commit: z.string().nullable(),
  head_commit: z.string().nullable(),
  /** Files whose content differs between base_commit and the head (for a revert: changed since the reverted commit). */
  changed_files: z.array(z.string()),
});
export type GitConflictDetails = z.infer<typeof GitConflictDetailsSchema>;

export const GitConflictBodySchema = z.object({
  error: z.object({ code: z.literal('conflict'), message: z.string(), details: GitConflictDetailsSchema }),
});
export type GitConflictBody = z.infer<typeof GitConflictBodySchema>;
