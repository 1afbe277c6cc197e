import { GIT_MAX_FILE_BYTES, type GitCommitResponse, GitCommitRequestSchema, type GitRevertActivityBody, GitRevertRequestSchema } from '@tessera/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CommitQuota, commitContentBytes } from './commit-quota.js';
import { parseInput, usernameOf } from './git-http.js';
import type { GitRepository } from './repository.service.js';

/**
 * Room for a request of files just under the 1 MB limit, JSON-escaped, so the
 * 1 MB rule answers with its own clear 400 rather than the server's 413.
 */
export const COMMIT_BODY_LIMIT = 8 * GIT_MAX_FILE_BYTES;

/** POST /git/commits and POST /git/revert-commit: the writes, by the signed-in user. */
export function registerCommitRoutes(scope: FastifyInstance, repo: GitRepository, quota: CommitQuota, commitMaxBytes: number, apiUrl?: string): void {
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
    const result = await repo.revert(usernameOf(request), body.commit, body.message);
    if (apiUrl && result.committed && result.reverted) await recordRevert(apiUrl, request, result.commit_hash!, result.reverted);
    return stripReverted(result);
  });
}

/** How long the api may take to record a revert before the reply goes without it. */
const RECORD_TIMEOUT_MS = 10_000;

/** The reply as the contract has it (the reverted commit's facts are for the activity log only). */
function stripReverted({ reverted: _reverted, ...response }: GitCommitResponse & { reverted?: unknown }): GitCommitResponse {
  return response;
}

/**
 * The api's activity log records every git revert (issue 18), with the member's own token and the
 * address they came from. The revert is committed by then (git and the log live in two services):
 * a failure to record is logged, not undone.
 */
async function recordRevert(apiUrl: string, request: FastifyRequest, commit: string, reverted: { hash: string; subject: string }): Promise<void> {
  try {
    const res = await fetch(`${apiUrl}/api/v1/activity/git-revert`, {
      method: 'POST',
      headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json', 'x-forwarded-for': request.ip },
      body: JSON.stringify({ commit, reverted: reverted.hash, subject: reverted.subject.slice(0, 200) } satisfies GitRevertActivityBody),
      signal: AbortSignal.timeout(RECORD_TIMEOUT_MS),
    });
    if (!res.ok) request.log.warn({ status: res.status, body: (await res.text()).slice(0, 300), commit }, 'git: the api did not record the revert in the activity log');
  } catch (err) {
    request.log.warn({ err, commit }, 'git: the api could not be reached to record the revert in the activity log');
  }
}
