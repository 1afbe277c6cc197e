import { GitDiffQuerySchema, type GitDiffResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { parseInput } from './git-http.js';
import { validateRepoPath } from './path-rules.js';
import type { GitRepository } from './repository.service.js';
import { fileDiff } from './unified-diff.js';

const utf8 = new TextDecoder('utf-8');

/** GET /git/diff?from&to&path: unified diff between two commits (`to` defaults to the head, `from` to its first parent). */
export function registerDiffRoute(scope: FastifyInstance, repo: GitRepository): void {
  scope.get('/git/diff', async (request): Promise<GitDiffResponse> => {
    const query = parseInput(GitDiffQuerySchema, request.query);
    const only = query.path?.trim() ? validateRepoPath(query.path.trim()) : null;
    const to = await repo.resolveCommit(query.to?.trim() || 'HEAD');
    const from = query.from?.trim() ? await repo.resolveCommit(query.from.trim()) : ((await repo.store.commit(to)).parent[0] ?? null);
    const changes = (await repo.diff(from, to)).filter((c) => only === null || c.path === only);
    const text = async (oid: string | null) => (oid ? utf8.decode(await repo.store.blob(oid)) : null);
    const diffs = await Promise.all(changes.map(async (c) => fileDiff(c.path, await text(c.oldOid), await text(c.newOid))));
    return { from, to, files: diffs.map((d) => d.file), diff: diffs.map((d) => d.patch).join('') };
  });
}
