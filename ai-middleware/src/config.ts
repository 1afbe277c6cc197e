import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AI_MIDDLEWARE_PORT, API_PORT, JWKS_PATH } from '@tessera/contracts';

/** Providers behind the one AI interface (DESIGN.md § AI). */
export const AI_PROVIDERS = ['builtin', 'openai', 'vertex'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AiConfig {
  host: string;
  port: number;
  /** Base URL of the api; its JWKS is the only source of token keys. */
  apiUrl: string;
  jwksUrl: URL;
  /** PGlite lives in `<dataDir>/ai` when no databaseUrl is given. */
  dataDir: string;
  databaseUrl: string | undefined;
  provider: AiProvider;
  logLevel: LogLevel;
  /** This build's version (package.json), reported by /health and /config. */
  version: string;
}

/** A configuration the service refuses to start with; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// Same relative path from src/ (tsx) and dist/ (built), so no cwd dependence.
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

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

/** Reads the environment once into a typed config; throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AiConfig {
  const provider = env.AI_PROVIDER?.trim() || 'builtin';
  if (!(AI_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(`AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')}; got "${provider}"`);
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  }
  const databaseUrl = env.AI_DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('AI_DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const apiUrl = parseHttpUrl('API_URL', env.API_URL?.trim() || `http://127.0.0.1:${API_PORT}`);
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: parsePort('AI_PORT', env.AI_PORT, AI_MIDDLEWARE_PORT),
    apiUrl,
    jwksUrl: new URL(`${apiUrl}${JWKS_PATH}`),
    dataDir: path.resolve(env.DATA_DIR?.trim() || 'data'),
    databaseUrl,
    provider: provider as AiProvider,
    logLevel: logLevel as LogLevel,
    version: PACKAGE_VERSION,
  };
}
