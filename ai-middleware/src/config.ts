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
  /** The confined Python code runner (src/runner); left out, its defaults apply. */
  runner?: RunnerConfig;
}

/** The code runner's limits: RUNNER_TIMEOUT_MS, RUNNER_MEMORY_MB, RUNNER_POOL_SIZE. */
export interface RunnerConfig {
  /** Wall-clock limit of one job; the child is SIGKILLed past it. */
  timeoutMs: number;
  /** Resident memory limit of one child; the watchdog SIGKILLs it past this. */
  memoryMb: number;
  /** Pre-warmed children kept ready (each about 160 MB idle). */
  poolSize: number;
}

export const RUNNER_DEFAULTS: RunnerConfig = { timeoutMs: 10_000, memoryMb: 256, poolSize: 2 };

/** A whole number in [min, max]; unset or blank gives the fallback. */
function parseIntInRange(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const text = raw?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

export function loadRunnerConfig(env: NodeJS.ProcessEnv): RunnerConfig {
  return {
    timeoutMs: parseIntInRange('RUNNER_TIMEOUT_MS', env.RUNNER_TIMEOUT_MS, RUNNER_DEFAULTS.timeoutMs, 100, 600_000),
    // Pyodide needs about 160 MB idle, and the address-space limit (1280 MiB) caps what it can reach.
    memoryMb: parseIntInRange('RUNNER_MEMORY_MB', env.RUNNER_MEMORY_MB, RUNNER_DEFAULTS.memoryMb, 200, 1024),
    poolSize: parseIntInRange('RUNNER_POOL_SIZE', env.RUNNER_POOL_SIZE, RUNNER_DEFAULTS.poolSize, 1, 16),
  };
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
    runner: loadRunnerConfig(env),
  };
}
