import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { DEFAULT_FLAGS } from '@tessera/contracts';
import { createTokenVerifier } from './auth/token-verifier.js';
import { registerAuthHook } from './auth/auth.hook.js';
import { registerConfigRoute } from './capabilities/config.route.js';
import { type AiConfig, JOBS_DEFAULTS, QUOTAS_DEFAULTS, RUNNER_DEFAULTS } from './config.js';
import { MAX_CONCURRENT_SOLVES } from './jobs/job-context.js';
import { JobScheduler } from './jobs/job-scheduler.js';
import { registerJobMetrics } from './jobs/job-metrics.js';
import { openDatabase } from './db/database.js';
import type { AiDatabase } from './db/schema.js';
import { registerHealthRoute } from './health/health.route.js';
import { registerGitRoutes } from './git/git.routes.js';
import { createGitFileReader } from './hybrid/git-files.js';
import { registerHybridRoutes } from './hybrid/hybrid.route.js';
import { registerBackwardRoute } from './hybrid/backward/backward.route.js';
import { registerErrorHandlers } from './http/errors.js';
import { echoRequestId, genReqId, installHttpMetrics, loggerOptions } from '@tessera/server-kit';
import { registerWhoamiRoute } from './whoami/whoami.route.js';
import { type CodeRunner, type CodeRunnerOptions, createCodeRunner } from './runner/code-runner.js';
import { withJobMetrics } from './runner/runner-metrics.js';
import { createProvider } from './providers/provider.js';
import { SessionService } from './sessions/session.service.js';
import { registerSessionRoutes } from './sessions/sessions.routes.js';
import { ChatService } from './vertex/chat.service.js';
import { GitContextReader } from './vertex/git-context.js';
import { registerVertexRoutes } from './vertex/vertex.routes.js';

export interface RouteSummary {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<AiDatabase>;
    /** Every route as registered, so tests can check that none escapes auth. */
    registeredRoutes: RouteSummary[];
  }
}

/** What a test may put in place of the real thing (only what no configuration can reach). */
export interface AppOverrides {
  /** The runner's confinement check's outcome, e.g. a refusal (CodeRunnerOptions.command). */
  runnerCommand?: CodeRunnerOptions['command'];
}

/** Builds the middleware (database open and migrated), not listening. */
export async function buildApp(config: AiConfig, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    genReqId,
    // 1 MB is plenty for the JSON this service takes; larger bodies get 413.
    bodyLimit: 1024 * 1024,
    // Every plugin is local; on a busy 2-core host one can take longer than avvio's 10 s to
    // register (seen under load), and a slow start beats a crash at start.
    pluginTimeout: 60_000,
  });
  app.decorate('db', db);
  app.decorate('registeredRoutes', [] as RouteSummary[]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      app.registeredRoutes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });
  app.addHook('onClose', async () => {
    await db.destroy();
  });

  // The runner's pool warms when the service listens; an app only injected into (tests)
  // starts it at its first Direct Exec job instead of spawning Pyodide children for nothing.
  let runner: CodeRunner | undefined;
  // FEATURE_ENHANCED_TABLE_PARSING off: printed output is not parsed into a grid.
  const flags = config.flags ?? DEFAULT_FLAGS;
  const getRunner = (): CodeRunner =>
    (runner ??= withJobMetrics(createCodeRunner(config.runner ?? RUNNER_DEFAULTS, { parsePrintedOutput: flags.enhancedTableParsing, ...(overrides.runnerCommand ? { command: overrides.runnerCommand } : {}) }), metrics));
  app.addHook('onListen', async () => {
    const live = getRunner();
    const status = live.status();
    if (status.state === 'refused') app.log.warn({ reason: status.reason }, 'code runner refuses to run code');
    // RUNNER_ENGINE=auto decides after its self-test (seconds): logged then, not awaited here.
    void live.engine().then((engine) => {
      if (!engine) app.log.warn({ reason: live.status().reason }, 'code runner refuses to run code');
      else if (engine.fallbackReason) app.log.warn({ engine: engine.name, reason: engine.fallbackReason }, 'code runner falls back to Pyodide');
      else app.log.info({ engine: engine.name, packages: engine.packages }, 'code runner engine chosen');
    });
  });
  app.addHook('onClose', async () => {
    await runner?.close();
  });

  // First of the onRequest hooks: a request refused by auth still names its id.
  echoRequestId(app);
  registerErrorHandlers(app);
  registerAuthHook(app, createTokenVerifier(config.jwksUrl));
  // Declared here, in the hooks' order; the runner (created later, lazily) times its jobs on it.
  const metrics = installHttpMetrics(app, 'ai-middleware');
  // The model provider AI_PROVIDER names (builtin, openai, vertex): AI Powered and the chat calls share it.
  const provider = createProvider(config);
  registerHealthRoute(app, db as Kysely<unknown>, config.version, () => runner?.status(), { provider: provider.name, model: provider.model });
  registerConfigRoute(app, config.version, config.provider, provider.model, flags, () => runner?.status());
  registerWhoamiRoute(app);
  await registerGitRoutes(app, config, provider);
  const repoDir = config.gitRepoDir ?? path.join(config.dataDir, 'repo');
  const readGitFiles = createGitFileReader(repoDir);
  // AI chat sessions (spec 02 §7): the hybrid and the chat calls read and store their messages.
  const sessions = new SessionService(db, config.quotas ?? QUOTAS_DEFAULTS);
  // One scheduler in front of the code runner and the solver: every /hybrid call is a job (src/jobs/).
  const jobLimits = config.jobs ?? JOBS_DEFAULTS;
  const jobs = new JobScheduler({
    perUser: jobLimits.perUser,
    solvesPerUser: jobLimits.solvesPerUser,
    queueMax: jobLimits.queueMax,
    capacity: { code: jobLimits.maxRunning, solve: MAX_CONCURRENT_SOLVES },
  });
  registerJobMetrics(jobs, metrics);
  registerHybridRoutes(app, getRunner, {
    jobs,
    provider,
    readGitFiles,
    apiUrl: config.apiUrl,
    sessions,
    ...(config.streamTimeoutMs ? { streamTimeoutMs: config.streamTimeoutMs } : {}),
  });
  registerBackwardRoute(app, getRunner, {
    jobs,
    provider,
    sessions,
    ...(config.streamTimeoutMs ? { streamTimeoutMs: config.streamTimeoutMs } : {}),
  });
  // The /vertex/* chat calls, on the same provider.
  registerSessionRoutes(app, sessions);
  const chat = new ChatService({
    provider,
    sessions,
    git: new GitContextReader(repoDir),
    readGitFiles,
    apiUrl: config.apiUrl,
    log: app.log,
  });
  registerVertexRoutes(app, chat, config.streamTimeoutMs ? { streamTimeoutMs: config.streamTimeoutMs } : {});
  return app;
}
