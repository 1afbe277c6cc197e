// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of bad token bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TOKEN_MAX_DAYS, API_TOKEN_MAX_PER_USER, API_TOKEN_NAME_MAX_LENGTH, API_TOKEN_TEXTS, API_TOKENS_PATH } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Creating personal API tokens with forged bodies (issue 21): each refusal is a 4xx with its
 * reason, no token is stored, and /health still answers. A member holds at most
 * API_TOKEN_MAX_PER_USER working tokens.
 */

async function healthy(app: FastifyInstance): Promise<void> {
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200, res.body);
}

describe('hostile: API token bodies', () => {
  let t: TestApp;
  let member: ApiClient;
  let accessToken: string;
  const stored = async () => (await t.app.db.selectFrom('api_tokens').select('id').execute()).length;

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    accessToken = (await signedInMember(t.app, 'user')).accessToken;
    member = apiClient(t.app, accessToken);
  });
  after(() => t.close());

  it('malformed bodies, over-long names and expiries beyond a year are 400 with the reason; nothing is stored', async () => {
    const good = { name: 'ok', scope: 'read', expires_in_days: 30 };
    const cases: [string, unknown, string][] = [
      ['an array', [good], 'Invalid input: expected object, received array'],
      ['a string', 'tsr', 'Invalid input: expected object, received string'],
      ['no name', { scope: 'read', expires_in_days: 30 }, API_TOKEN_TEXTS.nameRequired],
      ['a blank name', { ...good, name: '   ' }, API_TOKEN_TEXTS.nameRequired],
      ['a name as a number', { ...good, name: 42 }, API_TOKEN_TEXTS.nameRequired],
      ['an over-long name', { ...good, name: 'n'.repeat(API_TOKEN_NAME_MAX_LENGTH + 1) }, API_TOKEN_TEXTS.nameTooLong],
      ['a 100 KB name', { ...good, name: 'n'.repeat(100_000) }, API_TOKEN_TEXTS.nameTooLong],
      ['a name with a newline', { ...good, name: 'a\nb' }, 'Name must not contain control characters'],
      ['no scope', { name: 'x', expires_in_days: 30 }, "Scope must be 'read' or 'read-write'"],
      ['scope admin', { ...good, scope: 'admin' }, "Scope must be 'read' or 'read-write'"],
      ['scope write', { ...good, scope: 'write' }, "Scope must be 'read' or 'read-write'"],
      ['no expiry', { name: 'x', scope: 'read' }, API_TOKEN_TEXTS.expiryRange],
      ['an expiry beyond a year', { ...good, expires_in_days: API_TOKEN_MAX_DAYS + 1 }, API_TOKEN_TEXTS.expiryRange],
      ['an expiry of ten years', { ...good, expires_in_days: 3650 }, API_TOKEN_TEXTS.expiryRange],
      ['an expiry of 0 days', { ...good, expires_in_days: 0 }, API_TOKEN_TEXTS.expiryRange],
      ['a negative expiry', { ...good, expires_in_days: -1 }, API_TOKEN_TEXTS.expiryRange],
      ['a fractional expiry', { ...good, expires_in_days: 1.5 }, API_TOKEN_TEXTS.expiryRange],
      ['an expiry as text', { ...good, expires_in_days: '30' }, API_TOKEN_TEXTS.expiryRange],
      ['an expiry of 1e308', { ...good, expires_in_days: 1e308 }, API_TOKEN_TEXTS.expiryRange],
      ['a forged owner', { ...good, user_id: '00000000-0000-4000-8000-000000000000' }, 'Unrecognized key: "user_id"'],
      ['a forged token', { ...good, token: 'tsr_000000000000_' + 'a'.repeat(43) }, 'Unrecognized key: "token"'],
      ['a forged expires_at', { ...good, expires_at: '2999-01-01T00:00:00Z' }, 'Unrecognized key: "expires_at"'],
    ];
    for (const [what, body, message] of cases) {
      const res = await member.post(API_TOKENS_PATH, body);
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.equal(res.json().error.message, message, what);
    }
    for (const [what, payload, message] of [
      ['broken JSON', '{"name": "x", ', /JSON/i],
      ['no body', undefined, /body/i],
      // The api's JSON parser refuses prototype keys outright.
      ['a prototype key', '{"__proto__": {"scope": "read-write"}, "name": "x", "expires_in_days": 30}', /not valid JSON/],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: API_TOKENS_PATH,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload }),
      });
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.match(res.json().error.message, message, what);
    }
    assert.equal(await stored(), 0);
    await healthy(t.app);
  });

  it(`a member holds at most ${API_TOKEN_MAX_PER_USER} working tokens: the next is a 409 until one is revoked`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < API_TOKEN_MAX_PER_USER; i++) {
      const res = await member.post(API_TOKENS_PATH, { name: `t${i}`, scope: 'read', expires_in_days: 1 });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    // Parallel creates are counted one after another: none gets past the cap.
    const burst = await Promise.all([1, 2, 3].map((i) => member.post(API_TOKENS_PATH, { name: `extra${i}`, scope: 'read', expires_in_days: 1 })));
    for (const res of burst) {
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().error.message, API_TOKEN_TEXTS.tooMany);
    }
    assert.equal(await stored(), API_TOKEN_MAX_PER_USER);
    assert.equal((await member.delete(`${API_TOKENS_PATH}/${ids[0]}`)).statusCode, 200);
    assert.equal((await member.post(API_TOKENS_PATH, { name: 'after revoke', scope: 'read', expires_in_days: 1 })).statusCode, 201);
    await healthy(t.app);
  });

  it('revoking an id that is not a uuid, or not there, is a 404 and changes nothing', async () => {
    const before = await t.app.db.selectFrom('api_tokens').select(['id', 'revoked_at']).orderBy('id').execute();
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000', "1' OR '1'='1", 'x'.repeat(80)]) {
      const res = await member.delete(`${API_TOKENS_PATH}/${encodeURIComponent(id)}`);
      assert.equal(res.statusCode, 404, `${id.slice(0, 20)}: ${res.body}`);
      assert.equal(res.json().error.message, API_TOKEN_TEXTS.notFound);
    }
    assert.deepEqual(await t.app.db.selectFrom('api_tokens').select(['id', 'revoked_at']).orderBy('id').execute(), before);
    await healthy(t.app);
  });
});
