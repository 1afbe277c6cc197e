import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

let app: FastifyInstance;
const config = loadConfig();
try {
  app = await buildApp(config);
} catch (err) {
  // No Fastify logger yet: one JSON line in the same shape, then a failing exit.
  console.error(JSON.stringify({ level: 60, msg: 'could not start the api', err: String((err as Error)?.stack ?? err) }));
  process.exit(1);
}

let closing = false;
async function shutdown(signal: string): Promise<void> {
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
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

try {
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(`api listening at ${address} (database: ${config.databaseUrl ? 'PostgreSQL' : 'PGlite in DATA_DIR/api'})`);
} catch (err) {
  app.log.error({ err }, 'could not start the api');
  await app.close().catch(() => {});
  process.exit(1);
}
