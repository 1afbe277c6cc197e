import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config/env.js';

export interface RunServerOptions<C extends { host: string; port: number }> {
  /** How the service names itself in start-up errors. */
  name: string;
  loadConfig(): C;
  build(config: C): Promise<FastifyInstance>;
  /** What the "ready" log line carries besides the address. */
  describe?(config: C): Record<string, unknown>;
}

/**
 * The entry of a service: reads the config (a ConfigError refuses to start
 * with its message), builds the app, listens, and closes cleanly once on
 * SIGINT or SIGTERM. Every failure exits non-zero with one clear line.
 */
export async function runServer<C extends { host: string; port: number }>(opts: RunServerOptions<C>): Promise<FastifyInstance> {
  let config: C;
  try {
    config = opts.loadConfig();
  } catch (err) {
    console.error(`${opts.name}: ${err instanceof ConfigError ? 'invalid configuration' : 'cannot read its configuration'}: ${(err as Error).message}`);
    process.exit(1);
  }
  let app: FastifyInstance;
  try {
    app = await opts.build(config);
  } catch (err) {
    // Typically the database: a bad URL, or DATA_DIR not writable.
    console.error(`${opts.name}: cannot start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const address = await app.listen({ host: config.host, port: config.port });
    app.log.info({ address, ...opts.describe?.(config) }, `${opts.name} ready`);
  } catch (err) {
    app.log.error({ err }, 'cannot listen');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  return app;
}
