import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AI_MIDDLEWARE_PORT,
  AI_PROVIDER_NAMES,
  API_PORT,
  DEFAULT_FLAGS,
  FEATURE_FLAGS,
  type FeatureFlag,
  type FeatureFlags,
  JOB_DEFAULTS,
  JWKS_PATH,
  QUOTA_DEFAULTS,
} from '@tessera/contracts';
import { ConfigError, type LogLevel, parseDatabaseUrl, parseHttpUrl, parseLogLevel, parsePort, parseWholeNumber } from '@tessera/server-kit';

export { ConfigError };

/** Providers behind the one AI interface (DESIGN.md § AI). */
export const AI_PROVIDERS = AI_PROVIDER_NAMES;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

/** AI_PROVIDER=openai: any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp server). */
export interface OpenAiSettings {
  /** AI_BASE_URL, e.g. http://127.0.0.1:11434/v1 for Ollama; default OpenAI's. */
  baseUrl: string;
  /** AI_MODEL, required: each endpoint names its models differently. */
  model: string;
  /** AI_API_KEY; local servers often need none. */
  apiKey: string | undefined;
}

/** AI_PROVIDER=vertex: Gemini on Vertex AI through its REST streamGenerateContent API. */
export interface VertexSettings {
  /** AI_BASE_URL; default the global endpoint https://aiplatform.googleapis.com/v1. */
  baseUrl: string;
  /** AI_MODEL; default gemini-2.5-flash. */
  model: string;
  /** AI_API_KEY: a Vertex AI API key (sent as x-goog-api-key). */
  apiKey: string;
  /** VERTEX_PROJECT: set, the model is called under projects/{project}/locations/{location}. */
  project: string | undefined;
  /** VERTEX_LOCATION, with VERTEX_PROJECT; default us-central1. */
  location: string;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const VERTEX_DEFAULT_BASE_URL = 'https://aiplatform.googleapis.com/v1';
export const VERTEX_DEFAULT_MODEL = 'gemini-2.5-flash';
export const VERTEX_DEFAULT_LOCATION = 'us-central1';

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
  provider: AiProviderName;
  /** Set when provider is openai. */
  openai?: OpenAiSettings;
  /** Set when provider is vertex. */
  vertex?: VertexSettings;
  /** How long one model stream may last; default STREAM_TIMEOUT_MS (10 minutes, spec 02 §9). Not an env setting. */
  streamTimeoutMs?: number;
  logLevel: LogLevel;
  /** This build's version (package.json), reported by /health and /config. */
  version: string;
  /** The confined Python code runner (src/runner); left out, its defaults apply. */
  runner?: RunnerConfig;
  /** The feature flags of spec 02 §9 (FEATURE_* env), reported by /config; left out, all on (DEFAULT_FLAGS). */
  flags?: FeatureFlags;
  /** The job scheduler's limits (src/jobs/); left out, JOBS_DEFAULTS. */
  jobs?: JobsConfig;
  /** Per-user quotas on sessions, messages and git bytes; left out, QUOTAS_DEFAULTS. */
  quotas?: QuotasConfig;
}

/** JOBS_PER_USER, SOLVES_PER_USER, JOB_QUEUE_MAX, JOBS_MAX_RUNNING (issue 17 §1). */
export interface JobsConfig {
  perUser: number;
  solvesPerUser: number;
  queueMax: number;
  /** Code jobs (each with a Pyodide child) running at once on the instance. */
  maxRunning: number;
}

export const JOBS_DEFAULTS: JobsConfig = { ...JOB_DEFAULTS };

export function loadJobsConfig(env: NodeJS.ProcessEnv): JobsConfig {
  return {
    perUser: parseWholeNumber('JOBS_PER_USER', env.JOBS_PER_USER, JOBS_DEFAULTS.perUser, 1, 100),
    solvesPerUser: parseWholeNumber('SOLVES_PER_USER', env.SOLVES_PER_USER, JOBS_DEFAULTS.solvesPerUser, 1, 100),
    queueMax: parseWholeNumber('JOB_QUEUE_MAX', env.JOB_QUEUE_MAX, JOBS_DEFAULTS.queueMax, 0, 10_000),
    maxRunning: parseWholeNumber('JOBS_MAX_RUNNING', env.JOBS_MAX_RUNNING, JOBS_DEFAULTS.maxRunning, 1, 64),
  };
}

/** AI_SESSIONS_PER_USER, AI_MESSAGES_PER_SESSION, AI_FIGURES_PER_USER_MB, GIT_COMMIT_MAX_MB, GIT_DAILY_MAX_MB (issue 17 §1). */
export interface QuotasConfig {
  sessionsPerUser: number;
  messagesPerSession: number;
  /** Base64 figure bytes one user's stored chat answers keep (0: none are kept). */
  figuresPerUserBytes: number;
  gitCommitMaxBytes: number;
  gitDailyMaxBytes: number;
}

const MB = 1024 * 1024;
export const QUOTAS_DEFAULTS: QuotasConfig = {
  sessionsPerUser: QUOTA_DEFAULTS.sessionsPerUser,
  messagesPerSession: QUOTA_DEFAULTS.messagesPerSession,
  figuresPerUserBytes: QUOTA_DEFAULTS.figuresPerUserMb * MB,
  gitCommitMaxBytes: QUOTA_DEFAULTS.gitCommitMaxMb * MB,
  gitDailyMaxBytes: QUOTA_DEFAULTS.gitDailyMaxMb * MB,
};

export function loadQuotasConfig(env: NodeJS.ProcessEnv): QuotasConfig {
  const commitMb = parseWholeNumber('GIT_COMMIT_MAX_MB', env.GIT_COMMIT_MAX_MB, QUOTA_DEFAULTS.gitCommitMaxMb, 1, 1024);
  const dailyMb = parseWholeNumber('GIT_DAILY_MAX_MB', env.GIT_DAILY_MAX_MB, QUOTA_DEFAULTS.gitDailyMaxMb, 1, 1_000_000);
  if (dailyMb < commitMb) throw new ConfigError(`GIT_DAILY_MAX_MB (${dailyMb}) must be at least GIT_COMMIT_MAX_MB (${commitMb})`);
  return {
    sessionsPerUser: parseWholeNumber('AI_SESSIONS_PER_USER', env.AI_SESSIONS_PER_USER, QUOTAS_DEFAULTS.sessionsPerUser, 1, 100_000),
    // A turn stores two messages (the user's and the reply): at least one turn must fit.
    messagesPerSession: parseWholeNumber('AI_MESSAGES_PER_SESSION', env.AI_MESSAGES_PER_SESSION, QUOTAS_DEFAULTS.messagesPerSession, 2, 1_000_000),
    figuresPerUserBytes: parseWholeNumber('AI_FIGURES_PER_USER_MB', env.AI_FIGURES_PER_USER_MB, QUOTA_DEFAULTS.figuresPerUserMb, 0, 100_000) * MB,
    gitCommitMaxBytes: commitMb * MB,
    gitDailyMaxBytes: dailyMb * MB,
  };
}

/** The env variable of each feature flag: FEATURE_ and the flag's name in capitals (enhancedChat → FEATURE_ENHANCED_CHAT). */
export const FEATURE_FLAG_ENV: Record<FeatureFlag, string> = Object.fromEntries(
  FEATURE_FLAGS.map((flag) => [flag, `FEATURE_${flag.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`]),
) as Record<FeatureFlag, string>;

/**
 * The feature flags from the environment: each on unless its variable says otherwise —
 * `true`/`1` on, `false`/`0` off (any case), unset or blank the default (on); anything else
 * stops the service with a message naming the variable.
 */
export function loadFeatureFlags(env: NodeJS.ProcessEnv): FeatureFlags {
  const flags = { ...DEFAULT_FLAGS };
  for (const flag of FEATURE_FLAGS) {
    const name = FEATURE_FLAG_ENV[flag];
    const text = env[name]?.trim().toLowerCase();
    if (!text) continue;
    if (text !== 'true' && text !== '1' && text !== 'false' && text !== '0') {
      throw new ConfigError(`${name} must be true or false (or 1 or 0); got "${env[name]}"`);
    }
    flags[flag] = text === 'true' || text === '1';
  }
  return flags;
}

/**
 * Which Python runs user code (issue 19): `gvisor`, Debian's CPython with pandas & co. inside
 * gVisor (runsc); `pyodide`, the confined Pyodide child (standard library only); `auto`, gvisor
 * when its self-test at start passes, else pyodide (the reason is logged).
 */
export const RUNNER_ENGINES = ['auto', 'gvisor', 'pyodide'] as const;
export type RunnerEngineChoice = (typeof RUNNER_ENGINES)[number];

/** The code runner's engine and limits: RUNNER_ENGINE, RUNNER_TIMEOUT_MS, RUNNER_MEMORY_MB, RUNNER_POOL_SIZE. */
export interface RunnerConfig {
  engine: RunnerEngineChoice;
  /** Wall-clock limit of one job; the child is SIGKILLed past it. */
  timeoutMs: number;
  /** Memory limit of one job: Pyodide's RSS watchdog; gVisor's address-space limit (plus a cgroup backstop). */
  memoryMb: number;
  /** Pre-warmed children kept ready (each about 160 MB idle). */
  poolSize: number;
}

// 512 MB: pandas needs more than Pyodide (about 130 MB once imported, and a DataFrame copies data).
export const RUNNER_DEFAULTS: RunnerConfig = { engine: 'auto', timeoutMs: 10_000, memoryMb: 512, poolSize: 2 };

export function loadRunnerConfig(env: NodeJS.ProcessEnv): RunnerConfig {
  const engine = env.RUNNER_ENGINE?.trim().toLowerCase() || RUNNER_DEFAULTS.engine;
  if (!(RUNNER_ENGINES as readonly string[]).includes(engine)) {
    throw new ConfigError(`RUNNER_ENGINE must be gvisor or pyodide (or auto, the default); got "${env.RUNNER_ENGINE}"`);
  }
  return {
    engine: engine as RunnerEngineChoice,
    timeoutMs: parseWholeNumber('RUNNER_TIMEOUT_MS', env.RUNNER_TIMEOUT_MS, RUNNER_DEFAULTS.timeoutMs, 100, 600_000),
    // Pyodide needs about 160 MB idle, and its address-space limit (1280 MiB) caps what it can reach;
    // gVisor's Python with pandas imported needs about 150 MB of address space.
    memoryMb: parseWholeNumber('RUNNER_MEMORY_MB', env.RUNNER_MEMORY_MB, RUNNER_DEFAULTS.memoryMb, 200, 8192),
    poolSize: parseWholeNumber('RUNNER_POOL_SIZE', env.RUNNER_POOL_SIZE, RUNNER_DEFAULTS.poolSize, 1, 16),
  };
}

// Same relative path from src/ (tsx) and dist/ (built), so no cwd dependence.
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function optional(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  return text ? text : undefined;
}

/** The chosen model provider's settings, checked: a missing model or key is refused at start, not at the first request. */
export function loadProviderSettings(
  provider: AiProviderName,
  env: NodeJS.ProcessEnv,
): Pick<AiConfig, 'openai' | 'vertex'> {
  const baseUrl = optional(env.AI_BASE_URL);
  const model = optional(env.AI_MODEL);
  const apiKey = optional(env.AI_API_KEY);
  if (model !== undefined && !/^[\w.:/@-]{1,200}$/.test(model)) {
    throw new ConfigError(`AI_MODEL must be a model name (letters, digits, . _ - : / @); got "${model}"`);
  }
  if (provider === 'openai') {
    if (!model) throw new ConfigError('AI_PROVIDER=openai needs AI_MODEL (the model name the endpoint knows, e.g. gpt-4o-mini or llama3.1)');
    if (!baseUrl && !apiKey) {
      throw new ConfigError(`AI_PROVIDER=openai needs AI_API_KEY for ${OPENAI_DEFAULT_BASE_URL}, or AI_BASE_URL for another endpoint`);
    }
    return { openai: { baseUrl: parseHttpUrl('AI_BASE_URL', baseUrl ?? OPENAI_DEFAULT_BASE_URL), model, apiKey } };
  }
  if (provider === 'vertex') {
    if (!apiKey) throw new ConfigError('AI_PROVIDER=vertex needs AI_API_KEY (a Vertex AI API key)');
    const project = optional(env.VERTEX_PROJECT);
    const location = optional(env.VERTEX_LOCATION) ?? VERTEX_DEFAULT_LOCATION;
    if (project && !/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/.test(project)) throw new ConfigError(`VERTEX_PROJECT is not a project id; got "${project}"`);
    if (!/^[a-z0-9-]+$/.test(location)) throw new ConfigError(`VERTEX_LOCATION is not a location; got "${location}"`);
    if (model?.includes('/')) throw new ConfigError(`AI_MODEL for vertex is a Gemini model id such as ${VERTEX_DEFAULT_MODEL}; got "${model}"`);
    return {
      vertex: {
        baseUrl: parseHttpUrl('AI_BASE_URL', baseUrl ?? VERTEX_DEFAULT_BASE_URL),
        model: model ?? VERTEX_DEFAULT_MODEL,
        apiKey,
        project,
        location,
      },
    };
  }
  return {};
}

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
    provider: provider as AiProviderName,
    ...loadProviderSettings(provider as AiProviderName, env),
    logLevel,
    version: PACKAGE_VERSION,
    runner: loadRunnerConfig(env),
    flags: loadFeatureFlags(env),
    jobs: loadJobsConfig(env),
    quotas: loadQuotasConfig(env),
  };
}
