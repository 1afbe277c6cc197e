import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  AI_SUPPORTED_FILE_FORMATS,
  CapabilitiesSchema,
  DEFAULT_FLAGS,
  ErrorBodySchema,
  MAX_SOLVER_RETRIES,
  ServiceHealthSchema,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('health, metrics and capabilities', () => {
  let issuer: TestIssuer;
  let t: TestApp;

  before(async () => {
    issuer = await startTestIssuer();
    // A model provider configured but never called here: /config and /health only name it.
    t = await startTestApp(issuer.apiUrl, { provider: 'openai', openai: { baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', apiKey: undefined } });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('GET /health needs no token and reports a healthy database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200);
    const body = ServiceHealthSchema.parse(res.json());
    assert.equal(body.service, 'ai-middleware');
    assert.equal(body.status, 'healthy');
    assert.equal(body.version, pkg.version);
    assert.deepEqual(body.checks, { database: 'ok' });
    assert.deepEqual(body.ai, { provider: 'openai', model: 'gpt-4o-mini' });
  });

  test('GET /config needs no token and states what this build really does', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/config' });
    assert.equal(res.statusCode, 200);
    const caps = CapabilitiesSchema.parse(res.json());
    assert.deepEqual(caps, {
      langGraphEnabled: false,
      hybridWorkflowSupported: true,
      threePageModeSupported: false,
      streamingSupported: true,
      gridDetectionSupported: true,
      maxRetryAttempts: MAX_SOLVER_RETRIES,
      supportedFileFormats: [...AI_SUPPORTED_FILE_FORMATS],
      version: pkg.version,
      provider: 'openai',
      model: 'gpt-4o-mini',
      flags: DEFAULT_FLAGS,
    });
  });

  test('GET /metrics serves Prometheus text including the request histogram', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/plain/);
    assert.match(res.body, /http_request_duration_seconds_count\{[^}]*route="\/health"/);
    assert.match(res.body, /process_cpu_seconds_total/);
  });

  test('GET /health answers 503 unhealthy when the database is gone', async () => {
    const { app } = t;
    await app.db.destroy();
    const res = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 503);
    const body = ServiceHealthSchema.parse(res.json());
    assert.equal(body.status, 'unhealthy');
    assert.deepEqual(body.checks, { database: 'failing' });
  });

  test('errors keep the contract shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/whoami' });
    assert.equal(res.statusCode, 401);
    ErrorBodySchema.parse(res.json());
  });
});
