import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AI_MIDDLEWARE_PORT, API_PORT, JWKS_PATH } from '@tessera/contracts';
import { ConfigError, type LogLevel, parseDatabaseUrl, parseHttpUrl, parseLogLevel, parsePort } from '@tessera/server-kit';

export { ConfigError };

/** Providers behind the one AI interface (DESIGN.md § AI). */
export const AI_PROVIDERS = ['builtin', 'openai', 'vertex'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

export interface AiConfig {
  host: string;
  port: number;
  /** Base URL of the api; its JWKS is the only source of token keys. */
  apiUrl: string;
  jwksUrl: URL;
  /** PGlite lives in `<dataDir>/ai` when no databaseUrl is given. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** The code repository (issue 9), a bare git repository: GIT_REPO_DIR, else `<dataDir>/repo` (also when left out here). */
  gitRepoDir?: string;
  provider: AiProvider;
  logLevel: LogLevel;
  /** This build's version (package.json), reported by /health and /config. */
  version: string;
}

// Same relative path from src/ (tsx) and dist/ (built), so no cwd dependence.
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Reads the environment once into a typed config; throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AiConfig {
  const provider = env.AI_PROVIDER?.trim() || 'builtin';
  if (!(AI_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(`AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')}; got "${provider}"`);
  }
  const logLevel = parseLogLevel(env.LOG_LEVEL);
  const databaseUrl = parseDatabaseUrl('AI_DATABASE_URL', env.AI_DATABASE_URL);
  const apiUrl = parseHttpUrl('API_URL', env.API_URL?.trim() || `http://127.0.0.1:${API_PORT}`);
  const dataDir = path.resolve(env.DATA_DIR?.trim() || 'data');
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: parsePort('AI_PORT', env.AI_PORT, AI_MIDDLEWARE_PORT),
    apiUrl,
    jwksUrl: new URL(`${apiUrl}${JWKS_PATH}`),
    dataDir,
    databaseUrl,
    gitRepoDir: path.resolve(env.GIT_REPO_DIR?.trim() || path.join(dataDir, 'repo')),
    provider: provider as AiProvider,
    logLevel,
    version: PACKAGE_VERSION,
  };
}
