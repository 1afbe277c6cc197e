import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AUTH_SESSION_PATH } from '@tessera/contracts';
import { API_TOKEN_CHECK_MS, createApiTokenCheck } from './api-token-check.js';
import { RevocationCheckUnavailableError, TokenRevokedError } from './revocation-check.js';

const TOKEN = `tsr_0123456789ab_${'A'.repeat(43)}`;

/** The api's session route on loopback: its answer for the token is set by the test. */
async function startApi() {
  let status = 200;
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls += 1;
    assert.equal(req.url, AUTH_SESSION_PATH);
    assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
    const body = status === 200 ? { id: 'u-1', username: 'alice', role: 'user', api_token_scope: 'read' } : { error: { code: 'x', message: 'x' } };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${AUTH_SESSION_PATH}`),
    setStatus: (s: number) => (status = s),
    calls: () => calls,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('API token check through the api session route', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  test('answers the owner and scope; asks again only after the cache time, and then sees a revocation', async () => {
    let now = 1_000;
    const check = createApiTokenCheck({ sessionUrl: api.url, now: () => now });
    const calls = api.calls();
    assert.deepEqual(await Promise.all([check(TOKEN), check(TOKEN)]), [
      { id: 'u-1', username: 'alice', role: 'user', apiTokenScope: 'read' },
      { id: 'u-1', username: 'alice', role: 'user', apiTokenScope: 'read' },
    ]);
    assert.equal(api.calls() - calls, 1, 'concurrent checks share one request');
    api.setStatus(401);
    now += API_TOKEN_CHECK_MS - 1;
    await check(TOKEN);
    assert.equal(api.calls() - calls, 1, 'cached');
    now += 2;
    await assert.rejects(check(TOKEN), TokenRevokedError);
    api.setStatus(200);
  });

  test('an api that answers 5xx or is down is "unavailable", not a verdict on the token', async () => {
    api.setStatus(503);
    await assert.rejects(createApiTokenCheck({ sessionUrl: api.url })(TOKEN), RevocationCheckUnavailableError);
    api.setStatus(200);
    await assert.rejects(createApiTokenCheck({ sessionUrl: new URL('http://127.0.0.1:9/x') })(TOKEN), RevocationCheckUnavailableError);
  });
});
