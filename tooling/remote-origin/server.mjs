#!/usr/bin/env node
// CLI: node tooling/remote-origin/server.mjs --name mfe-sheets --port 3001 \
//        --dist mfe-sheets/dist --version 0.1.0 [--releases DIR] [--host H] [--shell-origin URL]
import { parseArgs } from 'node:util';
import { buildRemoteOrigin } from './remote-origin.mjs';

const USAGE =
  'usage: server.mjs --name NAME --port PORT (--dist DIR --version V | --releases DIR) [--host HOST] [--shell-origin ORIGIN ...]\n' +
  '  serves DIR under /V/ and every <releases>/<version>/ folder under /<version>/,\n' +
  '  with CORS for the shell origin(s) (else SHELL_ORIGIN; neither: any origin)';

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      name: { type: 'string' },
      port: { type: 'string' },
      dist: { type: 'string' },
      version: { type: 'string' },
      releases: { type: 'string' },
      host: { type: 'string' },
      'shell-origin': { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (err) {
  console.error(`${err.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(options.port);
if (!options.port || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number\n${USAGE}`);
  process.exit(2);
}

let app;
try {
  app = await buildRemoteOrigin({
    ...options,
    shellOrigins: options['shell-origin'] ?? process.env.SHELL_ORIGIN ?? [],
    logLevel: process.env.LOG_LEVEL || 'info',
  });
} catch (err) {
  console.error(`${err.message}\n${USAGE}`);
  process.exit(2);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

try {
  await app.listen({ host: options.host || process.env.HOST || '127.0.0.1', port });
  app.log.info({ name: options.name, dist: options.dist, version: options.version, releases: options.releases }, 'remote origin ready');
} catch (err) {
  app.log.error({ err }, 'cannot listen');
  process.exit(1);
}
