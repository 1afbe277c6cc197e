import { DEFAULT_GIT_BRANCH, GitCommitGraphQuerySchema, type GitCommitGraphResponse, GitHistoryQuerySchema, type GitHistoryResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { parseInput } from './git-http.js';
import { validateRepoPath } from './path-rules.js';
import type { GitRepository } from './repository.service.js';

/** GET /git/history?identifier=&limit= (newest first; identifier narrows to one file) and GET /git/commit-graph?limit=. */
export function registerHistoryRoutes(scope: FastifyInstance, repo: GitRepository): void {
  scope.get('/git/history', async (request): Promise<GitHistoryResponse> => {
    const query = parseInput(GitHistoryQuerySchema, request.query);
    const identifier = query.identifier?.trim();
    const head = await repo.head();
    const history = identifier ? await repo.fileLog(validateRepoPath(identifier), query.limit) : await repo.log(query.limit);
    return { history, count: history.length, empty_repo: head === null };
  });

  scope.get('/git/commit-graph', async (request): Promise<GitCommitGraphResponse> => {
    const query = parseInput(GitCommitGraphQuerySchema, request.query);
    const head = await repo.head();
    const commits = await repo.log(query.limit);
    return { commits, count: commits.length, branch: DEFAULT_GIT_BRANCH, head };
  });
}
