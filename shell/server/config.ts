import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PORT, AI_MIDDLEWARE_PORT, SHELL_PORT } from '@tessera/contracts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// This file sits one level under shell/ both as server/config.ts (tsx) and as
// dist-server/config.js (built), so these resolve the same either way, whatever the cwd.
export const SHELL_DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a port number between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parseHttpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** Reads the environment once (see the README's table); throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShellServerConfig {
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  }
  const dataDir = path.resolve(env.DATA_DIR?.trim() || 'data');
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: parsePort('SHELL_PORT', env.SHELL_PORT, SHELL_PORT),
    apiUrl: parseHttpUrl('API_URL', env.API_URL?.trim() || `http://127.0.0.1:${API_PORT}`),
    aiUrl: parseHttpUrl('AI_URL', env.AI_URL?.trim() || `http://127.0.0.1:${AI_MIDDLEWARE_PORT}`),
    remotesFile: path.resolve(env.REMOTES_FILE?.trim() || path.join(dataDir, 'remotes.json')),
    distDir: SHELL_DIST_DIR,
    repoRoot: REPO_ROOT,
    logLevel: logLevel as LogLevel,
  };
}
