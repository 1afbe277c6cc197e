import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AiConfig, QUOTAS_DEFAULTS } from '../config.js';
import { CommitQuota } from './commit-quota.js';
import { registerCodeContentRoute } from './code-content.route.js';
import { registerCommitRoutes } from './commits.route.js';
import { registerDiffRoute } from './diff.route.js';
import { registerFunctionsRoute } from './functions.route.js';
import { registerGitErrorHandler } from './git-http.js';
import { registerHistoryRoutes } from './history.route.js';
import type { AiProvider } from '../providers/provider.js';
import { registerRecommendationsRoute } from './recommendations.route.js';
import { GitRepository } from './repository.service.js';
import { registerTreeRoute } from './tree.route.js';

/** Every /git route (issue 9), protected like all routes, on the one repository of the config. */
export async function registerGitRoutes(
  app: FastifyInstance,
  config: Pick<AiConfig, 'dataDir' | 'gitRepoDir' | 'quotas'> & { apiUrl?: string },
  provider: AiProvider,
): Promise<void> {
  const repo = new GitRepository(config.gitRepoDir ?? path.join(config.dataDir, 'repo'));
  const quotas = config.quotas ?? QUOTAS_DEFAULTS;
  const quota = new CommitQuota(app.db, quotas);
  await app.register(async (scope) => {
    registerGitErrorHandler(scope);
    registerTreeRoute(scope, repo);
    registerCodeContentRoute(scope, repo);
    registerHistoryRoutes(scope, repo);
    registerCommitRoutes(scope, repo, quota, quotas.gitCommitMaxBytes, config.apiUrl);
    registerDiffRoute(scope, repo);
    registerFunctionsRoute(scope, repo);
    registerRecommendationsRoute(scope, repo, provider);
  });
  // Not awaited: the service answers at once; a /git/tree that arrives meanwhile waits for the same walk.
  app.addHook('onReady', async () => {
    repo.warmUp().catch((err: unknown) => app.log.warn({ err }, 'git: warming up the file times failed'));
  });
}
