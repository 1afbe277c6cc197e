import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { ACCESS_TOKEN_ISSUER, JWKS_PATH, JwksSchema, ServiceHealthSchema } from '@tessera/contracts';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('health, metrics and JWKS (no authentication)', () => {
  let t: TestApp;
  let session: Session;
  before(async () => {
    t = await createTestApp();
    session = await signupAdmin(t.app);
  });
  after(() => t.close());

  it('GET /health reports the api healthy with its database check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200);
    const health = ServiceHealthSchema.parse(res.json());
    assert.equal(health.service, 'api');
    assert.equal(health.status, 'healthy');
    assert.deepEqual(health.checks, { database: 'ok' });
    assert.equal(health.version, '0.1.0');
  });

  it('GET /metrics serves Prometheus text with the request counter by route and status', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/auth/status' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/plain/);
    assert.match(res.body, /http_requests_total\{method="GET",route="\/api\/v1\/auth\/status",status_code="200"/);
    assert.match(res.body, /http_request_duration_seconds_bucket/);
  });

  it('serves the public key, and an issued token verifies against it (local key set)', async () => {
    const res = await t.app.inject({ method: 'GET', url: JWKS_PATH });
    assert.equal(res.statusCode, 200);
    const jwks = JwksSchema.parse(res.json());
    const [key] = jwks.keys;
    assert.equal(key.kty, 'OKP');
    assert.equal(key.crv, 'Ed25519');
    assert.equal(key.alg, 'EdDSA');
    assert.equal(typeof key.kid, 'string');
    assert.equal(key.d, undefined, 'the private part must never be served');
    const { payload, protectedHeader } = await jwtVerify(session.accessToken, createLocalJWKSet(res.json()), {
      issuer: ACCESS_TOKEN_ISSUER,
      algorithms: ['EdDSA'],
    });
    assert.equal(protectedHeader.kid, key.kid);
    assert.equal(payload.sub, session.userId);
    assert.equal(payload.role, 'admin');
    assert.equal(payload.username, 'Admin');
    assert.equal((payload.exp as number) - (payload.iat as number), 15 * 60);
  });

  it('a token verifies with createRemoteJWKSet against the api over HTTP', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${port}${JWKS_PATH}`));
    const { payload } = await jwtVerify(session.accessToken, jwks, { issuer: ACCESS_TOKEN_ISSUER, algorithms: ['EdDSA'] });
    assert.equal(payload.sub, session.userId);
  });
});

describe('health when the database is gone', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers 503 with status unhealthy', async () => {
    await t.app.db.destroy();
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 503);
    const health = ServiceHealthSchema.parse(res.json());
    assert.equal(health.status, 'unhealthy');
    assert.deepEqual(health.checks, { database: 'failing' });
  });
});
