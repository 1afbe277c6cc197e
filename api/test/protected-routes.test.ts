// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of bad tokens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { API_TOKEN_TEXTS, API_TOKENS_PATH, CreatedApiTokenSchema } from '@tessera/contracts';
import { apiClient } from './support/api-client.js';
import { forgeBadTokens } from './support/forged-tokens.js';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { concreteUrl, type CollectedRoute } from './support/route-collector.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Routes reachable without a token, on purpose. A new public route must be added here knowingly. */
const PUBLIC_ROUTES = [
  'GET /health',
  'GET /metrics',
  'GET /api/v1/auth/status',
  'POST /api/v1/auth/signup',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/logout',
  'GET /api/v1/auth/jwks.json',
  // The API's description and its reference page (issue 21): nothing in them is private.
  'GET /api/v1/openapi.json',
  'GET /api/docs',
  'GET /api/docs/:file',
  // Single sign-on (issue 21): nobody is signed in yet; 404 when OIDC_ISSUER is not set.
  'GET /api/v1/auth/sign-in-options',
  'POST /api/v1/auth/oidc/start',
  'POST /api/v1/auth/oidc/callback',
  // The live socket: a browser cannot set Authorization on a WebSocket, so it checks the token itself (src/live).
  'GET /sheets/:sheetId',
  // The workspace socket (who is online, navigation changes): same token rules as the sheet socket.
  'GET /live',
];

const key = (r: CollectedRoute) => `${r.method} ${r.url}`;

function request(t: TestApp, route: CollectedRoute, authorization?: string) {
  const withBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
  return t.app.inject({
    method: route.method as 'GET',
    url: concreteUrl(route.url),
    headers: { ...(authorization ? { authorization } : {}), ...(withBody ? { 'content-type': 'application/json' } : {}) },
    ...(withBody ? { payload: '{}' } : {}),
  });
}

describe('every protected route refuses bad tokens', () => {
  let t: TestApp;
  let session: Session;
  let protectedRoutes: CollectedRoute[];
  before(async () => {
    t = await createTestApp();
    session = await signupAdmin(t.app);
    protectedRoutes = t.routes.filter((r) => !r.public);
  });
  after(() => t.close());

  it('collects the routes from the app itself, and only the intended ones are public', () => {
    const publicRoutes = new Set(t.routes.filter((r) => r.public && r.method !== 'HEAD').map(key));
    assert.deepEqual([...publicRoutes].sort(), [...PUBLIC_ROUTES].sort());
    const protectedKeys = protectedRoutes.map(key);
    assert.ok(protectedKeys.includes('GET /api/v1/users'), protectedKeys.join(', '));
    assert.ok(protectedKeys.includes('POST /api/v1/auth/change-password'), protectedKeys.join(', '));
  });

  it('refuses a request without a token on every protected route', async () => {
    for (const route of protectedRoutes) {
      const res = await request(t, route);
      assert.equal(res.statusCode, 401, `${key(route)} answered ${res.statusCode} without a token`);
      if (route.method !== 'HEAD') assert.equal(res.json().error.code, 'unauthorized');
    }
  });

  it('refuses expired, tampered, wrong-key, alg=none and other forged tokens on every protected route', async () => {
    const forged = await forgeBadTokens(t.config, session.accessToken, { id: session.userId, username: 'Admin' });
    const schemes: [string, string][] = Object.entries(forged).map(([name, token]) => [name, `Bearer ${token}`]);
    schemes.push(['basic scheme', `Basic ${Buffer.from('Admin:correct horse battery').toString('base64')}`]);
    schemes.push(['raw token without Bearer', session.accessToken]);
    for (const route of protectedRoutes) {
      for (const [name, authorization] of schemes) {
        const res = await request(t, route, authorization);
        assert.equal(res.statusCode, 401, `${key(route)} accepted a token that is ${name} (status ${res.statusCode})`);
        if (route.method !== 'HEAD') {
          assert.equal(res.json().error.code, 'unauthorized', `${key(route)} / ${name}`);
        }
      }
    }
  });

  it('lets the genuine token through on every protected route (so the refusals above are about the token)', async () => {
    for (const route of protectedRoutes) {
      const res = await request(t, route, `Bearer ${session.accessToken}`);
      assert.notEqual(res.statusCode, 401, `${key(route)} refused a valid token: ${res.body}`);
    }
  });

  // Personal API tokens (issue 21): the same sweep with `tsr_` credentials.
  async function apiToken(scope: 'read' | 'read-write') {
    const res = await apiClient(t.app, session.accessToken).post(API_TOKENS_PATH, { name: `sweep ${scope}`, scope, expires_in_days: 1 });
    assert.equal(res.statusCode, 201, res.body);
    return CreatedApiTokenSchema.parse(res.json());
  }

  it('refuses garbled, unknown, wrong-secret, revoked and expired API tokens on every protected route', async () => {
    const genuine = await apiToken('read-write');
    const revoked = await apiToken('read-write');
    assert.equal((await apiClient(t.app, session.accessToken).delete(`${API_TOKENS_PATH}/${revoked.id}`)).statusCode, 200);
    const expired = await apiToken('read-write');
    await sql`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`.execute(t.app.db);
    const secret = genuine.token.slice(-43);
    const flipped = `${secret[0] === 'A' ? 'B' : 'A'}${secret.slice(1)}`;
    const forged: [string, string][] = [
      ['wrong secret', `${genuine.token.slice(0, -43)}${flipped}`],
      ['unknown lookup id', `tsr_ffffffffffff_${secret}`],
      ['truncated', genuine.token.slice(0, -1)],
      ['prefix only', 'tsr_'],
      ['garbled', 'tsr_../../etc/passwd'],
      ['upper-case prefix', genuine.token.replace('tsr_', 'TSR_')],
      ['revoked', revoked.token],
      ['expired', expired.token],
    ];
    for (const route of protectedRoutes) {
      for (const [name, token] of forged) {
        const res = await request(t, route, `Bearer ${token}`);
        assert.equal(res.statusCode, 401, `${key(route)} accepted an API token that is ${name} (status ${res.statusCode})`);
      }
    }
  });

  it("a read API token gets 403 with the reason on every route that is not a GET; a read-write one passes (tokens' own routes aside)", async () => {
    const read = await apiToken('read');
    const write = await apiToken('read-write');
    const managesTokens = (r: CollectedRoute) => r.url.startsWith(API_TOKENS_PATH) && r.method !== 'GET' && r.method !== 'HEAD';
    for (const route of protectedRoutes) {
      const byRead = await request(t, route, `Bearer ${read.token}`);
      if (['GET', 'HEAD'].includes(route.method)) {
        assert.ok(![401, 403].includes(byRead.statusCode), `${key(route)} refused a read token: ${byRead.body}`);
      } else {
        assert.equal(byRead.statusCode, 403, `${key(route)} let a read token through: ${byRead.statusCode}`);
        assert.equal(byRead.json().error.message, API_TOKEN_TEXTS.readOnly, key(route));
      }
      const byWrite = await request(t, route, `Bearer ${write.token}`);
      if (managesTokens(route)) {
        assert.equal(byWrite.statusCode, 403, key(route));
        assert.equal(byWrite.json().error.message, API_TOKEN_TEXTS.noTokenManagement, key(route));
      } else assert.ok(![401, 403].includes(byWrite.statusCode), `${key(route)} refused a read-write token: ${byWrite.body}`);
    }
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 'not_found');
    assert.equal(typeof res.json().error.message, 'string');
  });
});
