import { z } from 'zod';
import { GitFileChangeSchema } from './git-commit.schema.js';
import { GIT_MAX_CHANGES_PER_COMMIT } from './git.constants.js';

/** POST /git/recommendations: the changes about to be committed. */
export const GitRecommendationsRequestSchema = z.strictObject({
  changes: z.array(GitFileChangeSchema).min(1).max(GIT_MAX_CHANGES_PER_COMMIT),
});
export type GitRecommendationsRequest = z.infer<typeof GitRecommendationsRequestSchema>;

/** AI recommendations (spec 02 §3). `source` says who wrote them: `summary` is the deterministic diff summary used when no model is configured. */
export const GitRecommendationsSchema = z.object({
  suggested_commit_message: z.string(),
  affected_files: z.array(z.string()),
  branch_recommendations: z.array(z.object({ name: z.string(), description: z.string() })),
  collaboration_impact: z.object({
    breaking_changes: z.boolean(),
    review_required: z.boolean(),
    merge_complexity: z.enum(['low', 'medium', 'high']),
    team_notification: z.boolean(),
  }),
  source: z.enum(['summary', 'model']),
});
export type GitRecommendations = z.infer<typeof GitRecommendationsSchema>;
