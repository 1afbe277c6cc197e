import { GIT_MAX_FILE_BYTES, type GitCommitResponse, GitCommitRequestSchema, GitRevertRequestSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { type CommitQuota, commitContentBytes } from './commit-quota.js';
import { parseInput, usernameOf } from './git-http.js';
import type { GitRepository } from './repository.service.js';

/**
 * Room for a request of files just under the 1 MB limit, JSON-escaped, so the
 * 1 MB rule answers with its own clear 400 rather than the server's 413.
 */
export const COMMIT_BODY_LIMIT = 8 * GIT_MAX_FILE_BYTES;

/** POST /git/commits and POST /git/revert-commit: the writes, by the signed-in user. */
export function registerCommitRoutes(scope: FastifyInstance, repo: GitRepository, quota: CommitQuota, commitMaxBytes: number): void {
  // Room for the largest commit GIT_COMMIT_MAX_MB allows, JSON-escaped, so it answers its own 413.
  const bodyLimit = Math.max(COMMIT_BODY_LIMIT, 2 * commitMaxBytes + GIT_MAX_FILE_BYTES);
  scope.post('/git/commits', { bodyLimit }, async (request): Promise<GitCommitResponse> => {
    const body = parseInput(GitCommitRequestSchema, request.body);
    const username = usernameOf(request);
    // Bytes per commit (413) and per user per day (429), before anything is written.
    const refund = await quota.reserve(request.user?.id ?? username, commitContentBytes(body.changes));
    try {
      return await repo.commit(username, body);
    } catch (err) {
      await refund();
      throw err;
    }
  });

  scope.post('/git/revert-commit', async (request): Promise<GitCommitResponse> => {
    const body = parseInput(GitRevertRequestSchema, request.body);
    return repo.revert(usernameOf(request), body.commit, body.message);
  });
}
