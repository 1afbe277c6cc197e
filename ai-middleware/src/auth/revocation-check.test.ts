import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ACCESS_TOKEN_ISSUER, AUTH_SESSION_PATH, JWKS_PATH, TOKEN_REVOCATION_CHECK_MS } from '@tessera/contracts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createRevocationCheck } from './revocation-check.js';
import { createTokenVerifier, InvalidTokenError, sessionUrlFor, VerifierUnavailableError } from './token-verifier.js';

/** A real api stand-in on loopback: its JWKS, and a session route whose answer the test sets per user. */
async function startApi() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  const status = new Map<string, number>();
  let sessionCalls = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === JWKS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    if (req.url === AUTH_SESSION_PATH) {
      sessionCalls += 1;
      const token = String(req.headers.authorization).replace(/^Bearer /, '');
      const sub = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub as string;
      const code = status.get(sub) ?? 200;
      res.writeHead(code, { 'content-type': 'application/json' }).end(code === 200 ? JSON.stringify({ id: sub }) : '{}');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (sub: string, extra: Record<string, unknown> = { tep: 0 }, key: CryptoKey = privateKey) =>
    new SignJWT({ username: sub, role: 'user', ...extra })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setSubject(sub)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(key);
  return {
    url,
    sign,
    status,
    sessionCalls: () => sessionCalls,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('revocation check through the api session route', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  test('the session URL sits beside the JWKS on the api', () => {
    assert.equal(sessionUrlFor(new URL(`http://api:8083${JWKS_PATH}`)).href, `http://api:8083${AUTH_SESSION_PATH}`);
    assert.equal(sessionUrlFor(new URL(`http://h/prefix${JWKS_PATH}`)).href, `http://h/prefix${AUTH_SESSION_PATH}`);
  });

  test('a token the api stops honouring is refused once the cached answer is older than 60 s, not before', async () => {
    let now = 1_000_000;
    const jwksUrl = new URL(`${api.url}${JWKS_PATH}`);
    const verify = createTokenVerifier(jwksUrl, createRevocationCheck({ sessionUrl: sessionUrlFor(jwksUrl), now: () => now }));
    const token = await api.sign('deleted-soon');
    assert.equal((await verify(token)).id, 'deleted-soon');
    const calls = api.sessionCalls();

    api.status.set('deleted-soon', 401); // the user is deleted on the api
    now += TOKEN_REVOCATION_CHECK_MS - 1;
    assert.equal((await verify(token)).id, 'deleted-soon', 'still within the cached minute');
    assert.equal(api.sessionCalls(), calls, 'answered from the cache');

    now += 1;
    await assert.rejects(verify(token), InvalidTokenError);
    // Another token of the same user and epoch shares the (negative) answer.
    await assert.rejects(verify(await api.sign('deleted-soon')), InvalidTokenError);
    assert.equal(api.sessionCalls(), calls + 1);
  });

  test('concurrent checks of one user share one request', async () => {
    const jwksUrl = new URL(`${api.url}${JWKS_PATH}`);
    const verify = createTokenVerifier(jwksUrl);
    const token = await api.sign('busy');
    const before = api.sessionCalls();
    const users = await Promise.all(Array.from({ length: 5 }, () => verify(token)));
    assert.deepEqual(new Set(users.map((u) => u.id)), new Set(['busy']));
    assert.equal(api.sessionCalls() - before, 1);
  });

  test('a new epoch is a new question (a password change issues tokens of epoch n+1)', async () => {
    const jwksUrl = new URL(`${api.url}${JWKS_PATH}`);
    const verify = createTokenVerifier(jwksUrl);
    const before = api.sessionCalls();
    await verify(await api.sign('carol', { tep: 1 }));
    await verify(await api.sign('carol', { tep: 2 }));
    assert.equal(api.sessionCalls() - before, 2);
  });

  test('an api answering 5xx makes the token unjudgeable (503 upstream), not accepted', async () => {
    const jwksUrl = new URL(`${api.url}${JWKS_PATH}`);
    const verify = createTokenVerifier(jwksUrl);
    api.status.set('unlucky', 500);
    await assert.rejects(verify(await api.sign('unlucky')), VerifierUnavailableError);
  });
});
