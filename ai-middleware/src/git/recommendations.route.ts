import { GitRecommendationsRequestSchema, type GitRecommendations } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { COMMIT_BODY_LIMIT } from './commits.route.js';
import { parseInput } from './git-http.js';
import { encodeFileContent, validateRepoPath } from './path-rules.js';
import type { AiProvider } from '../providers/provider.js';
import { modelRecommendations } from './model-recommendations.js';
import { summarizeChanges } from './recommendations.js';
import type { GitRepository } from './repository.service.js';

const utf8 = new TextDecoder('utf-8');

/**
 * POST /git/recommendations {changes}: from the configured model (`source: 'model'`), else —
 * builtin, or a model that fails or answers something else — the deterministic diff summary
 * (`source: 'summary'`).
 */
export function registerRecommendationsRoute(scope: FastifyInstance, repo: GitRepository, provider: AiProvider): void {
  scope.post('/git/recommendations', { bodyLimit: COMMIT_BODY_LIMIT }, async (request): Promise<GitRecommendations> => {
    const { changes } = parseInput(GitRecommendationsRequestSchema, request.body);
    for (const change of changes) {
      validateRepoPath(change.path);
      if (change.action === 'upsert') encodeFileContent(change.path, change.content);
    }
    const head = await repo.head();
    const items = await Promise.all(
      changes.map(async (change) => {
        const file = head ? await repo.readFile(head, change.path) : null;
        return { change, current: file ? utf8.decode(file.bytes) : null };
      }),
    );
    const summary = summarizeChanges(items);
    if (provider.model === null || summary.affected_files.length === 0) return summary;
    try {
      return await modelRecommendations(provider, items, summary);
    } catch (err) {
      request.log.warn({ err }, 'git recommendations: the model failed; answering with the diff summary');
      return summary;
    }
  });
}
