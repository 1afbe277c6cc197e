import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, FEATURE_FLAG_ENV, PACKAGE_VERSION, loadConfig } from './config.js';

test('defaults follow the brief: 127.0.0.1:8081, builtin provider, PGlite under ./data', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8081);
  assert.equal(config.provider, 'builtin');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.dataDir, path.resolve('data'));
  assert.equal(config.jwksUrl.href, 'http://127.0.0.1:8083/api/v1/auth/jwks.json');
  assert.equal(config.version, PACKAGE_VERSION);
});

test('API_URL with a trailing slash still yields one JWKS path', () => {
  assert.equal(loadConfig({ API_URL: 'http://10.0.0.2:9000/' }).jwksUrl.href, 'http://10.0.0.2:9000/api/v1/auth/jwks.json');
});

test('an unknown AI_PROVIDER is refused with a message naming the allowed values', () => {
  assert.throws(() => loadConfig({ AI_PROVIDER: 'gpt' }), (err: unknown) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /AI_PROVIDER must be one of builtin, openai, vertex; got "gpt"/);
    return true;
  });
  assert.equal(loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-4o-mini', AI_API_KEY: 'sk-x' }).provider, 'openai');
  assert.equal(loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k' }).provider, 'vertex');
});

test('builtin needs no model settings and ignores them', () => {
  const config = loadConfig({ AI_MODEL: 'gpt-4o-mini' });
  assert.equal(config.provider, 'builtin');
  assert.equal(config.openai, undefined);
  assert.equal(config.vertex, undefined);
});

test('openai: AI_MODEL is required; AI_API_KEY is required for OpenAI itself, not for another AI_BASE_URL', () => {
  assert.throws(() => loadConfig({ AI_PROVIDER: 'openai', AI_API_KEY: 'sk-x' }), /AI_PROVIDER=openai needs AI_MODEL/);
  assert.throws(() => loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-4o-mini' }), /needs AI_API_KEY for https:\/\/api.openai.com\/v1/);
  assert.deepEqual(loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-4o-mini', AI_API_KEY: ' sk-x ' }).openai, {
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    apiKey: 'sk-x',
  });
  // Ollama: no key, its own base URL (a trailing slash is dropped).
  assert.deepEqual(loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'llama3.1:8b', AI_BASE_URL: 'http://127.0.0.1:11434/v1/' }).openai, {
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'llama3.1:8b',
    apiKey: undefined,
  });
  assert.throws(() => loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'm', AI_BASE_URL: 'ftp://x' }), /AI_BASE_URL must be an http\(s\) URL/);
  assert.throws(() => loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'two words', AI_API_KEY: 'k' }), /AI_MODEL must be a model name/);
});

test('vertex: AI_API_KEY is required; model, endpoint and location have defaults', () => {
  assert.throws(() => loadConfig({ AI_PROVIDER: 'vertex' }), /AI_PROVIDER=vertex needs AI_API_KEY/);
  assert.deepEqual(loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k' }).vertex, {
    baseUrl: 'https://aiplatform.googleapis.com/v1',
    model: 'gemini-2.5-flash',
    apiKey: 'k',
    project: undefined,
    location: 'us-central1',
  });
  assert.equal(loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k', VERTEX_PROJECT: 'acme-prod', VERTEX_LOCATION: 'europe-west4' }).vertex?.location, 'europe-west4');
  assert.throws(() => loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k', VERTEX_LOCATION: 'Europe West' }), /VERTEX_LOCATION/);
});

test('bad ports, URLs and log levels are refused', () => {
  assert.throws(() => loadConfig({ AI_PORT: 'abc' }), ConfigError);
  assert.throws(() => loadConfig({ AI_PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ API_URL: 'ftp://x' }), ConfigError);
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), ConfigError);
  assert.throws(() => loadConfig({ AI_DATABASE_URL: 'mysql://x' }), ConfigError);
});

test('feature flags: all on by default; FEATURE_<NAME>=false|0 turns one off, true|1 on, any case', () => {
  assert.deepEqual(loadConfig({}).flags, {
    contextWindow: true,
    enhancedChat: true,
    debugLogging: true,
    enhancedTableParsing: true,
    autoSheetCreation: true,
  });
  assert.deepEqual(FEATURE_FLAG_ENV, {
    contextWindow: 'FEATURE_CONTEXT_WINDOW',
    enhancedChat: 'FEATURE_ENHANCED_CHAT',
    debugLogging: 'FEATURE_DEBUG_LOGGING',
    enhancedTableParsing: 'FEATURE_ENHANCED_TABLE_PARSING',
    autoSheetCreation: 'FEATURE_AUTO_SHEET_CREATION',
  });
  const flags = loadConfig({
    FEATURE_AUTO_SHEET_CREATION: 'false',
    FEATURE_ENHANCED_TABLE_PARSING: ' 0 ',
    FEATURE_DEBUG_LOGGING: 'FALSE',
    FEATURE_CONTEXT_WINDOW: 'True',
    FEATURE_ENHANCED_CHAT: '',
  }).flags;
  assert.deepEqual(flags, {
    contextWindow: true,
    enhancedChat: true,
    debugLogging: false,
    enhancedTableParsing: false,
    autoSheetCreation: false,
  });
});

test('feature flags: another value stops the service, naming the variable', () => {
  for (const value of ['no', 'off', 'yes', '2', 'flase']) {
    assert.throws(
      () => loadConfig({ FEATURE_ENHANCED_CHAT: value }),
      (err: unknown) => err instanceof ConfigError && err.message === `FEATURE_ENHANCED_CHAT must be true or false (or 1 or 0); got "${value}"`,
    );
  }
});

test('jobs and quotas: the defaults of issue 17, each overridden by its variable; a bad value or a day smaller than a commit stops the service', () => {
  const config = loadConfig({});
  assert.deepEqual(config.jobs, { perUser: 2, solvesPerUser: 1, queueMax: 20, maxRunning: 4 });
  assert.deepEqual(config.quotas, { sessionsPerUser: 100, messagesPerSession: 2000, figuresPerUserBytes: 16 * 1024 * 1024, gitCommitMaxBytes: 5 * 1024 * 1024, gitDailyMaxBytes: 50 * 1024 * 1024 });
  const set = loadConfig({ JOBS_PER_USER: '3', SOLVES_PER_USER: '2', JOB_QUEUE_MAX: '0', JOBS_MAX_RUNNING: '8', AI_SESSIONS_PER_USER: '5', AI_MESSAGES_PER_SESSION: '10', AI_FIGURES_PER_USER_MB: '0', GIT_COMMIT_MAX_MB: '2', GIT_DAILY_MAX_MB: '2' });
  assert.deepEqual(set.jobs, { perUser: 3, solvesPerUser: 2, queueMax: 0, maxRunning: 8 });
  assert.deepEqual(set.quotas, { sessionsPerUser: 5, messagesPerSession: 10, figuresPerUserBytes: 0, gitCommitMaxBytes: 2 * 1024 * 1024, gitDailyMaxBytes: 2 * 1024 * 1024 });
  assert.throws(() => loadConfig({ JOBS_PER_USER: '0' }), (err: unknown) => err instanceof ConfigError && /JOBS_PER_USER must be a whole number from 1 to 100, got "0"/.test(err.message));
  assert.throws(() => loadConfig({ JOB_QUEUE_MAX: 'lots' }), /JOB_QUEUE_MAX must be a whole number/);
  assert.throws(() => loadConfig({ AI_FIGURES_PER_USER_MB: '-1' }), /AI_FIGURES_PER_USER_MB must be a whole number from 0/);
  assert.throws(() => loadConfig({ AI_MESSAGES_PER_SESSION: '1' }), /AI_MESSAGES_PER_SESSION must be a whole number from 2/);
  assert.throws(() => loadConfig({ GIT_COMMIT_MAX_MB: '10', GIT_DAILY_MAX_MB: '5' }), /GIT_DAILY_MAX_MB \(5\) must be at least GIT_COMMIT_MAX_MB \(10\)/);
});
