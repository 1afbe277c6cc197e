import { z } from 'zod';

/** GET /git/diff?from&to&path: `to` defaults to the head, `from` to the first parent of `to`, path limits to one file. */
export const GitDiffQuerySchema = z.object({
  from: z.string().optional(),
  to: z.string().optional(),
  path: z.string().optional(),
});
export type GitDiffQuery = z.infer<typeof GitDiffQuerySchema>;

export const GitDiffFileSchema = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type GitDiffFile = z.infer<typeof GitDiffFileSchema>;

export const GitDiffResponseSchema = z.object({
  /** null when `to` is a root commit and no `from` was given (diff against nothing). */
  from: z.string().nullable(),
  to: z.string(),
  files: z.array(GitDiffFileSchema),
  /** Unified diff of every file, `diff --git a/p b/p` headers, applies with `git apply`. */
  diff: z.string(),
});
export type GitDiffResponse = z.infer<typeof GitDiffResponseSchema>;
