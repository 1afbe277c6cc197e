import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type AiConfig, ConfigError, loadConfig } from './config.js';

function readConfig(): AiConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      // Refuse to start, and say exactly which setting is wrong.
      console.error(`ai-middleware: invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const app: FastifyInstance = await buildApp(config).catch((err: unknown) => {
  // Typically the database: a bad AI_DATABASE_URL, or DATA_DIR not writable.
  console.error(`ai-middleware: cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

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
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host: config.host, port: config.port });
  app.log.info({ provider: config.provider, jwks: config.jwksUrl.href }, 'ai-middleware ready');
} catch (err) {
  app.log.error({ err }, 'cannot listen');
  await app.close().catch(() => undefined);
  process.exit(1);
}
