import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PORT, AI_MIDDLEWARE_PORT, SHELL_PORT } from '@tessera/contracts';
import { ConfigError, type LogLevel, parseHttpUrl, parseLogLevel, parsePort, parseTrustProxy } from '@tessera/server-kit';

export { ConfigError, type LogLevel };

export interface ShellServerConfig {
  host: string;
  port: number;
  apiUrl: string;
  aiUrl: string;
  /** The remotes manifest ops edit; read at every request. */
  remotesFile: string;
  /** The built shell (webpack output). */
  distDir: string;
  /** Where the mfe-* packages live, to read their versions for a default remotes.json. */
  repoRoot: string;
  logLevel: LogLevel;
  /**
   * Whose X-Forwarded-For/-Proto the shell server believes (SHELL_TRUST_PROXY): a TLS terminator or
   * load balancer in front of it. Default none: the shell faces the browsers itself.
   */
  trustProxy?: string[];
}

// This file sits one level under shell/ both as server/config.ts (tsx) and as
// dist-server/config.js (built), so these resolve the same either way, whatever the cwd.
export const SHELL_DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Reads the environment once (see the README's table); throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShellServerConfig {
  const logLevel = parseLogLevel(env.LOG_LEVEL);
  const dataDir = path.resolve(env.DATA_DIR?.trim() || 'data');
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: parsePort('SHELL_PORT', env.SHELL_PORT, SHELL_PORT),
    apiUrl: parseHttpUrl('API_URL', env.API_URL?.trim() || `http://127.0.0.1:${API_PORT}`),
    aiUrl: parseHttpUrl('AI_URL', env.AI_URL?.trim() || `http://127.0.0.1:${AI_MIDDLEWARE_PORT}`),
    remotesFile: path.resolve(env.REMOTES_MANIFEST?.trim() || path.join(dataDir, 'remotes.json')),
    distDir: SHELL_DIST_DIR,
    repoRoot: REPO_ROOT,
    logLevel,
    trustProxy: parseTrustProxy('SHELL_TRUST_PROXY', env.SHELL_TRUST_PROXY, []),
  };
}
