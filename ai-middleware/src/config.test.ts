import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, PACKAGE_VERSION, loadConfig } from './config.js';

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
  assert.equal(loadConfig({ AI_PROVIDER: 'openai' }).provider, 'openai');
  assert.equal(loadConfig({ AI_PROVIDER: 'vertex' }).provider, 'vertex');
});

test('bad ports, URLs and log levels are refused', () => {
  assert.throws(() => loadConfig({ AI_PORT: 'abc' }), ConfigError);
  assert.throws(() => loadConfig({ AI_PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ API_URL: 'ftp://x' }), ConfigError);
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), ConfigError);
  assert.throws(() => loadConfig({ AI_DATABASE_URL: 'mysql://x' }), ConfigError);
});
