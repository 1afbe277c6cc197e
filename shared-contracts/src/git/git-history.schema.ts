import { z } from 'zod';
import { GIT_MAX_HISTORY_LIMIT } from './git.constants.js';
import { COMMIT_GRAPH_LIMIT, HISTORY_PAGE_SIZE } from '../constants.js';

/** Commit (spec 02 §3). `message` has the Sheet-Version trailer removed; `sheetVersion` carries it (null when absent). */
export const GitCommitSchema = z.object({
  id: z.string(),
  hash: z.string(),
  message: z.string(),
  author: z.string(),
  email: z.string(),
  /** ISO time of the commit (author time). */
  timestamp: z.string(),
  sheetVersion: z.number().int().nullable(),
  parents: z.array(z.string()),
});
export type GitCommit = z.infer<typeof GitCommitSchema>;

const limit = (fallback: number) => z.coerce.number().int().min(1).max(GIT_MAX_HISTORY_LIMIT).default(fallback);

/** GET /git/history?identifier=&limit= (identifier: a file path, empty for the whole repository). */
export const GitHistoryQuerySchema = z.object({
  identifier: z.string().optional(),
  limit: limit(HISTORY_PAGE_SIZE),
});
export type GitHistoryQuery = z.infer<typeof GitHistoryQuerySchema>;

export const GitHistoryResponseSchema = z.object({
  history: z.array(GitCommitSchema),
  count: z.number().int().nonnegative(),
  empty_repo: z.boolean(),
});
export type GitHistoryResponse = z.infer<typeof GitHistoryResponseSchema>;

export const GitCommitGraphQuerySchema = z.object({ limit: limit(COMMIT_GRAPH_LIMIT) });

/** GET /git/commit-graph?limit=200: newest first, each with its parents. */
export const GitCommitGraphResponseSchema = z.object({
  commits: z.array(GitCommitSchema),
  count: z.number().int().nonnegative(),
  branch: z.string(),
  head: z.string().nullable(),
});
export type GitCommitGraphResponse = z.infer<typeof GitCommitGraphResponseSchema>;

export const GitCodeContentQuerySchema = z.object({
  identifier: z.string().min(1),
  commit: z.string().optional(),
});
