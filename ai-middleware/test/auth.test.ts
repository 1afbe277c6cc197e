// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is authentication.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuthUserSchema, ErrorBodySchema } from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const CLAIMS = { sub: 'user-1', username: 'alice', role: 'admin' } as const;

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('token verification through the api JWKS', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  const bad: Record<string, () => Promise<string>> = {};

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    const now = Math.floor(Date.now() / 1000);
    bad.expired = () => issuer.sign({ ...CLAIMS, exp: now - 60 });
    bad.tampered = async () => {
      const [h, , s] = (await issuer.sign({ ...CLAIMS, role: 'user' })).split('.');
      // Same signature, payload raised to admin: the signature no longer matches.
      return `${h}.${b64url({ ...CLAIMS, iss: 'tessera-api', exp: now + 900 })}.${s}`;
    };
    bad.wrongKey = () => issuer.sign({ ...CLAIMS }, { key: issuer.strangerKey });
    bad.wrongKeyUnknownKid = () => issuer.sign({ ...CLAIMS }, { key: issuer.strangerKey, kid: 'other' });
    bad.algNone = async () =>
      `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...CLAIMS, iss: 'tessera-api', exp: now + 900 })}.`;
    bad.wrongIssuer = () => issuer.sign({ ...CLAIMS }, { issuer: 'someone-else' });
    bad.missingRole = () => issuer.sign({ sub: 'user-1', username: 'alice' });
    bad.unknownRole = () => issuer.sign({ ...CLAIMS, role: 'superuser' });
    bad.garbage = async () => 'not.a.jwt';
  });

  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('GET /whoami with a valid token returns the token user', async () => {
    const token = await issuer.sign({ ...CLAIMS });
    const res = await t.app.inject({ method: 'GET', url: '/whoami', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(AuthUserSchema.parse(res.json()), { id: 'user-1', username: 'alice', role: 'admin' });
    assert.ok(issuer.jwksRequests() >= 1, 'the key came from the JWKS endpoint');
  });

  test('a missing or non-Bearer Authorization header gets 401 in the error shape', async () => {
    for (const headers of [{}, { authorization: 'Basic YWxpY2U6eA==' }, { authorization: 'Bearer' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/whoami', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'unauthorized');
    }
  });

  for (const name of ['expired', 'tampered', 'wrongKey', 'wrongKeyUnknownKid', 'algNone', 'wrongIssuer', 'missingRole', 'unknownRole', 'garbage']) {
    test(`a ${name} token gets 401`, async () => {
      const token = await bad[name]();
      const res = await t.app.inject({ method: 'GET', url: '/whoami', headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'unauthorized');
    });
  }

  test('only /health, /metrics and /config are public; every other route refuses bad tokens', async () => {
    const routes = t.app.registeredRoutes;
    const publicUrls = new Set(routes.filter((r) => r.public).map((r) => r.url));
    assert.deepEqual([...publicUrls].sort(), ['/config', '/health', '/metrics']);
    const protectedRoutes = routes.filter((r) => !r.public);
    assert.ok(protectedRoutes.some((r) => r.url === '/whoami'));
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');
      const missing = await t.app.inject({ method: route.method as 'GET', url });
      assert.equal(missing.statusCode, 401, `${route.method} ${url} without a token`);
      for (const name of Object.keys(bad)) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${await bad[name]()}` },
        });
        assert.equal(res.statusCode, 401, `${route.method} ${url} with a ${name} token`);
      }
    }
  });

  test('an unknown path is protected too: 401 without a token, 404 with one', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/nope' })).statusCode, 401);
    const token = await issuer.sign({ ...CLAIMS });
    const res = await t.app.inject({ method: 'GET', url: '/nope', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 404);
    assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'not_found');
  });
});

describe('when the api key set cannot be reached', () => {
  test('a protected route answers 503 auth_unavailable, not 200 and not a crash', async () => {
    const issuer = await startTestIssuer();
    const token = await issuer.sign({ ...CLAIMS });
    const deadApi = issuer.apiUrl;
    await issuer.close();
    const t = await startTestApp(deadApi);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/whoami', headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 503);
      assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'auth_unavailable');
      assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
