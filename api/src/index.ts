import { runServer } from '@tessera/server-kit';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

await runServer({
  name: 'api',
  loadConfig,
  build: (config) => buildApp(config),
  describe: (config) => ({ database: config.databaseUrl ? 'PostgreSQL' : 'PGlite in DATA_DIR/api' }),
});
