// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of forged tokens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TOKEN_TEXTS, API_TOKENS_PATH, CreatedApiTokenSchema, LIVE_CLOSE, SheetSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { LiveClient, listen } from '../live-client.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Forged and garbled `tsr_` credentials (issue 21), on REST and on the live socket: each is a 401
 * (a socket closes with 1008) with the same text whatever is wrong — nothing tells a guesser which
 * part was right —, nothing is written (the sheet, the tokens' last use), /health still answers.
 */

async function healthy(app: FastifyInstance): Promise<void> {
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200, res.body);
}

describe('hostile: forged API tokens', () => {
  let t: TestApp;
  let session: ApiClient;
  let genuine: string;
  let tokenId: string;
  let sheetId: string;

  const forgeries = () => {
    const head = genuine.slice(0, -43);
    const secret = genuine.slice(-43);
    const other = `${secret[0] === 'A' ? 'B' : 'A'}${secret.slice(1)}`;
    return [
      ['one character of the secret changed', `${head}${other}`],
      ['the lookup id of another token', `tsr_000000000000_${secret}`],
      ['a secret one character short', genuine.slice(0, -1)],
      ['a secret one character long', `${genuine}A`],
      ['no secret', head],
      ['the prefix only', 'tsr_'],
      ['SQL in the lookup id', `tsr_'OR'1'='1'--_${secret}`],
      ['a NUL byte', `${head}${secret.slice(0, 42)}\u0000`],
      ['8 KB of garbage', `tsr_${'z'.repeat(8000)}`],
      ['the token hash instead of the token', 'tsr_' + 'f'.repeat(64)],
    ] as const;
  };

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    session = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
    const created = CreatedApiTokenSchema.parse((await session.post(API_TOKENS_PATH, { name: 'real', scope: 'read-write', expires_in_days: 5 })).json());
    genuine = created.token;
    tokenId = created.id;
    sheetId = SheetSchema.parse((await session.post('/api/v1/sheets', { name: 'Target', data: [['keep']] })).json()).id;
  });
  after(() => t.close());

  it('REST: every forgery is a 401 with one text; the sheet and the token are untouched', async () => {
    for (const [what, token] of forgeries()) {
      if (token.includes('\u0000')) continue; // not a valid header value: the HTTP layer refuses it before the api
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/sheets/${sheetId}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Forged' }),
      });
      assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
      assert.equal(res.json().error.message, API_TOKEN_TEXTS.invalid, what);
    }
    const sheet = SheetSchema.parse((await session.get(`/api/v1/sheets/${sheetId}`)).json());
    assert.equal(sheet.name, 'Target');
    const row = await t.app.db.selectFrom('api_tokens').select(['last_used_at', 'revoked_at']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { last_used_at: null, revoked_at: null }, 'a forgery does not count as a use of the real token');
    // The genuine one still works after all that.
    assert.equal((await apiClient(t.app, genuine).get(`/api/v1/sheets/${sheetId}`)).statusCode, 200);
    await healthy(t.app);
  });

  it('live socket: every forgery closes with 1008 and the same text before any frame', async () => {
    const base = await listen(t.app);
    for (const [what, token] of forgeries()) {
      const client = LiveClient.connect(base, `/sheets/${sheetId}?token=${encodeURIComponent(token)}`, { label: what });
      const closed = await client.closed;
      assert.equal(closed.code, LIVE_CLOSE.policyViolation, what);
      // The query schema bounds the token's length: past it the text is about the parameters.
      assert.ok([API_TOKEN_TEXTS.invalid, 'Invalid connection parameters'].includes(closed.reason), `${what}: ${closed.reason}`);
      assert.equal(client.frames.length, 0, what);
    }
    await healthy(t.app);
  });
});
