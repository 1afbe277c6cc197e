import { GIT_ERROR_CODES, GitCodeContentQuerySchema, type GitFileContent } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { GitRequestError } from './git-errors.js';
import { parseInput } from './git-http.js';
import { languageOf } from './listing-rules.js';
import { validateRepoPath } from './path-rules.js';
import type { GitRepository } from './repository.service.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lossyUtf8 = new TextDecoder('utf-8');

/** GET /git/code-content?identifier={path}&commit={hash}: a file's text at a commit (default the head). */
export function registerCodeContentRoute(scope: FastifyInstance, repo: GitRepository): void {
  scope.get('/git/code-content', async (request): Promise<GitFileContent> => {
    const query = parseInput(GitCodeContentQuerySchema, request.query);
    const filePath = validateRepoPath(query.identifier);
    const commit = await repo.resolveCommit(query.commit?.trim() || 'HEAD');
    const file = await repo.readFile(commit, filePath);
    if (!file) {
      throw new GitRequestError(404, GIT_ERROR_CODES.fileNotFound, `File "${filePath}" not found at commit ${commit.slice(0, 7)}`);
    }
    let content: string;
    let utf8 = true;
    try {
      content = strictUtf8.decode(file.bytes);
    } catch {
      content = lossyUtf8.decode(file.bytes);
      utf8 = false;
    }
    return {
      identifier: filePath,
      content,
      commit_hash: commit,
      metadata: { size: file.bytes.byteLength, blob: file.oid, language: languageOf(filePath), utf8 },
    };
  });
}
