import { GIT_MAX_FILE_BYTES, type GitCommitResponse, GitCommitRequestSchema, GitRevertRequestSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { parseInput, usernameOf } from './git-http.js';
import type { GitRepository } from './repository.service.js';

/**
 * Room for a request of files just under the 1 MB limit, JSON-escaped, so the
 * 1 MB rule answers with its own clear 400 rather than the server's 413.
 */
export const COMMIT_BODY_LIMIT = 8 * GIT_MAX_FILE_BYTES;

/** POST /git/commits and POST /git/revert-commit: the writes, by the signed-in user. */
export function registerCommitRoutes(scope: FastifyInstance, repo: GitRepository): void {
  scope.post('/git/commits', { bodyLimit: COMMIT_BODY_LIMIT }, async (request): Promise<GitCommitResponse> => {
    const body = parseInput(GitCommitRequestSchema, request.body);
    return repo.commit(usernameOf(request), body);
  });

  scope.post('/git/revert-commit', async (request): Promise<GitCommitResponse> => {
    const body = parseInput(GitRevertRequestSchema, request.body);
    return repo.revert(usernameOf(request), body.commit, body.message);
  });
}
