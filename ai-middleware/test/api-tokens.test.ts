// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is personal API tokens.
// Issue 21: personal API tokens (`tsr_…`) work on the ai-middleware too. They are opaque, so the
// middleware asks the real api (its build, PGlite or PostgreSQL) through GET /auth/session, cached
// briefly; a read token's writes are refused here as on the api.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API_TOKEN_TEXTS, API_TOKENS_PATH, AuthUserSchema, CreatedApiTokenSchema } from '@tessera/contracts';
import { type RealApi, startRealApi } from './helpers/real-api.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

describe('personal API tokens on the ai-middleware (real api)', () => {
  let api: RealApi;
  let t: TestApp;
  let auth: Record<string, string>;

  before(async () => {
    api = await startRealApi();
    auth = await api.signup('alice');
    t = await startTestApp(api.base);
  });
  after(async () => {
    await t?.close();
    await api?.close();
  });

  async function token(scope: 'read' | 'read-write') {
    const res = await fetch(`${api.base}${API_TOKENS_PATH}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `ai ${scope}`, scope, expires_in_days: 1 }),
    });
    assert.equal(res.status, 201);
    return CreatedApiTokenSchema.parse(await res.json());
  }
  const as = (tok: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${tok}` }, ...(payload ? { payload } : {}) });

  test("a token acts as its owner; a read token's write is a 403 that says why", async () => {
    const write = await token('read-write');
    const who = await as(write.token, 'GET', '/whoami');
    assert.equal(who.statusCode, 200, who.body);
    assert.equal(AuthUserSchema.parse(who.json()).username, 'alice');

    const read = await token('read');
    assert.equal((await as(read.token, 'GET', '/whoami')).statusCode, 200);
    const refused = await as(read.token, 'POST', '/git/commits', { message: 'x', base_commit: null, changes: [] });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().error.message, API_TOKEN_TEXTS.readOnly);
  });

  test('unknown, garbled and revoked tokens are 401', async () => {
    const revoked = await token('read-write');
    const res = await fetch(`${api.base}${API_TOKENS_PATH}/${revoked.id}`, { method: 'DELETE', headers: auth });
    assert.equal(res.status, 200);
    for (const bad of [revoked.token, `tsr_ffffffffffff_${'A'.repeat(43)}`, 'tsr_garbled']) {
      const r = await as(bad, 'GET', '/whoami');
      assert.equal(r.statusCode, 401, `${bad.slice(0, 20)}: ${r.body}`);
    }
  });
});
