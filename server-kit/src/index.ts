export * from './config/env.js';
export * from './config/trust-proxy.js';
export * from './db/open-database.js';
export * from './db/pglite-dialect.js';
export * from './server/run-server.js';
export * from './server/request-id.js';
export * from './server/http-metrics.js';
export * from './server/logger-options.js';
