import { runServer } from '@tessera/server-kit';
import { buildServer } from './app.js';
import { loadConfig } from './config.js';

await runServer({
  name: 'shell server',
  loadConfig,
  build: buildServer,
  describe: (config) => ({ remotesFile: config.remotesFile, api: config.apiUrl, ai: config.aiUrl }),
});
