import { type CodeRunnerInfo, type ServiceHealth, ServiceHealthSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { CodeRunnerStatus } from '../runner/code-runner.js';

const DATABASE_CHECK_TIMEOUT_MS = 2000;

async function databaseOk(db: Kysely<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    // A hung database must not hang the health check past the monitor's 5 s.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database check timed out')), DATABASE_CHECK_TIMEOUT_MS);
    });
    await Promise.race([sql`select 1`.execute(db), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The code runner's state, once it exists: 'failing' when it refuses to run unconfined or its
 * children do not start. It does not make the service unhealthy: chat works without it.
 */
function codeRunnerCheck(status: CodeRunnerStatus | undefined): Record<string, 'ok' | 'failing'> {
  if (!status) return {};
  return { code_runner: status.state === 'refused' || status.state === 'failing' || status.state === 'closed' ? 'failing' : 'ok' };
}

/** The live engine and its packages, once the runner exists (null engine: still choosing, or refusing). */
export function codeRunnerInfo(status: CodeRunnerStatus | undefined): { code_runner?: CodeRunnerInfo } {
  if (!status) return {};
  return { code_runner: { engine: status.engine?.name ?? null, packages: status.engine?.packages ?? {} } };
}

/** GET /health, no auth: the shell's monitor and load balancers read it. */
export function registerHealthRoute(
  app: FastifyInstance,
  db: Kysely<unknown>,
  version: string,
  runnerStatus: () => CodeRunnerStatus | undefined = () => undefined,
  /** The model provider and model, reported as they are configured (no call is made to the provider). */
  ai?: { provider: string; model: string | null },
): void {
  const startedAt = Date.now();
  app.get('/health', { config: { public: true } }, async (request, reply) => {
    const dbOk = await databaseOk(db);
    if (!dbOk) request.log.warn('health: database check failing');
    const body: ServiceHealth = ServiceHealthSchema.parse({
      service: 'ai-middleware',
      status: dbOk ? 'healthy' : 'unhealthy',
      version,
      uptime_s: Math.round((Date.now() - startedAt) / 1000),
      checks: { database: dbOk ? 'ok' : 'failing', ...codeRunnerCheck(runnerStatus()) },
      ...(ai ? { ai } : {}),
      ...codeRunnerInfo(runnerStatus()),
    });
    reply.header('cache-control', 'no-store');
    return reply.code(dbOk ? 200 : 503).send(body);
  });
}
