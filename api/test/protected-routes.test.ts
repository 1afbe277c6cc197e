import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 'not_found');
    assert.equal(typeof res.json().error.message, 'string');
  });
});
