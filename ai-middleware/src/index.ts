import { runServer } from '@tessera/server-kit';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

await runServer({
  name: 'ai-middleware',
  loadConfig,
  build: buildApp,
  describe: (config) => ({ provider: config.provider, jwks: config.jwksUrl.href }),
});
