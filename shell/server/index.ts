import { buildServer } from './app.js';
import { ConfigError, type ShellServerConfig, loadConfig } from './config.js';

function readConfig(): ShellServerConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`shell server: invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const app = await buildServer(config);

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
  app.log.info({ remotesFile: config.remotesFile, api: config.apiUrl, ai: config.aiUrl }, 'shell server ready');
} catch (err) {
  app.log.error({ err }, 'cannot listen');
  process.exit(1);
}
