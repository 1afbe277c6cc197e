// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is personal API tokens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCESS_TEXTS,
  API_TOKEN_PATTERN,
  API_TOKEN_TEXTS,
  API_TOKENS_PATH,
  ApiTokenListSchema,
  type ApiTokenScope,
  CreatedApiTokenSchema,
  LIVE_CLOSE,
  SessionInfoSchema,
  SheetSchema,
} from '@tessera/contracts';
import { sql } from 'kysely';
import { LiveClient, WorkspaceClient } from './live-client.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { postJson } from './support/auth-helpers.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';
import { MEMBER_PASSWORD, signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Issue 21, personal API tokens: made in a signed-in session and shown once, stored hashed,
 * listed with their last use, revoked at once; `Authorization: Bearer tsr_…` acts as its owner
 * (role and per-item levels, as they are now) within its scope, on REST and the live sockets.
 */

async function createToken(api: ApiClient, scope: ApiTokenScope, name = `${scope} token`, days = 30) {
  const res = await api.post(API_TOKENS_PATH, { name, scope, expires_in_days: days });
  assert.equal(res.statusCode, 201, res.body);
  return CreatedApiTokenSchema.parse(res.json());
}

describe('personal API tokens over REST', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInMember>>;
  let session: ApiClient;

  before(async () => {
    t = await createTestApp({ workspaceDefaultAccess: 'editor' });
    await postJson(t.app, '/api/v1/auth/signup', { username: 'Admin', password: 'correct horse battery' });
    owner = await signedInMember(t.app, 'user');
    session = apiClient(t.app, owner.accessToken);
  });
  after(() => t.close());

  it('is shown once at creation, stored only as a hash, and listed without any secret', async () => {
    const created = await createToken(session, 'read-write', 'CI export', 90);
    assert.match(created.token, API_TOKEN_PATTERN);
    assert.equal(created.name, 'CI export');
    assert.equal(created.prefix, created.token.slice(0, 16));
    const days = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / 86_400_000;
    assert.equal(days, 90);

    const rows = await t.app.db.selectFrom('api_tokens').selectAll().where('id', '=', created.id).execute();
    assert.equal(rows.length, 1);
    assert.ok(!Object.values(rows[0]).some((v) => typeof v === 'string' && v.includes(created.token.slice(17))), 'the secret is not stored');

    const listed = await session.get(API_TOKENS_PATH);
    assert.equal(listed.statusCode, 200);
    assert.ok(!listed.body.includes(created.token.slice(17)), 'the list holds no secret');
    const token = ApiTokenListSchema.parse(listed.json()).tokens.find((x) => x.id === created.id);
    assert.ok(token);
    assert.equal(token.last_used_at, null);
    assert.ok(!('token' in token) && !('token_hash' in token));
  });

  it('acts as its owner: their sheets, their per-item levels; records its last use', async () => {
    const created = await createToken(session, 'read-write');
    const byToken = apiClient(t.app, created.token);
    const made = await byToken.post('/api/v1/sheets', { name: 'Made by a script', data: [['a']] });
    assert.equal(made.statusCode, 201, made.body);
    const sheet = SheetSchema.parse(made.json());
    assert.equal((await t.app.db.selectFrom('sheets').select('created_by').where('id', '=', sheet.id).executeTakeFirstOrThrow()).created_by, owner.userId);

    // Another member's sheet, shared with the owner as viewer: the token can read it, not write it.
    const otherMember = await signedInMember(t.app, 'user');
    const other = apiClient(t.app, otherMember.accessToken);
    const theirs = SheetSchema.parse((await other.post('/api/v1/sheets', { name: 'Theirs', data: [['x']] })).json());
    const shared = await other.put(`/api/v1/sheets/${theirs.id}/access`, {
      entries: [
        { user_id: otherMember.userId, level: 'owner' },
        { user_id: owner.userId, level: 'viewer' },
        { user_id: null, level: 'none' },
      ],
    });
    assert.equal(shared.statusCode, 200, shared.body);
    assert.equal((await byToken.get(`/api/v1/sheets/${theirs.id}`)).statusCode, 200);
    const write = await byToken.put(`/api/v1/sheets/${theirs.id}`, { name: 'Renamed by a token' });
    assert.equal(write.statusCode, 403, write.body);
    assert.equal(write.json().error.message, ACCESS_TEXTS.viewOnly);

    const info = SessionInfoSchema.parse((await byToken.get('/api/v1/auth/session')).json());
    assert.deepEqual(info, { id: owner.userId, username: owner.username, role: 'user', api_token_scope: 'read-write' });
    const listed = ApiTokenListSchema.parse((await session.get(API_TOKENS_PATH)).json()).tokens.find((x) => x.id === created.id);
    assert.ok(listed?.last_used_at, 'last use is recorded');
  });

  it("a read token reads, and every change it tries is a 403 that says why; nothing changes", async () => {
    const sheet = SheetSchema.parse((await session.post('/api/v1/sheets', { name: 'Read me', data: [['v']] })).json());
    const reader = apiClient(t.app, (await createToken(session, 'read')).token);
    assert.deepEqual((await reader.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['v']]);
    for (const res of [
      await reader.put(`/api/v1/sheets/${sheet.id}`, { name: 'Changed' }),
      await reader.post('/api/v1/sheets', { name: 'New' }),
      await reader.delete(`/api/v1/sheets/${sheet.id}`),
    ]) {
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().error.message, API_TOKEN_TEXTS.readOnly);
    }
    const now = SheetSchema.parse((await session.get(`/api/v1/sheets/${sheet.id}`)).json());
    assert.equal(now.name, 'Read me');
    assert.equal(now.version, sheet.version);
  });

  it('a token cannot make or revoke tokens; a signed-in session can', async () => {
    const writer = await createToken(session, 'read-write');
    const byToken = apiClient(t.app, writer.token);
    const before = (await t.app.db.selectFrom('api_tokens').select('id').execute()).length;
    const made = await byToken.post(API_TOKENS_PATH, { name: 'child', scope: 'read-write', expires_in_days: 365 });
    assert.equal(made.statusCode, 403);
    assert.equal(made.json().error.message, API_TOKEN_TEXTS.noTokenManagement);
    const revoked = await byToken.delete(`${API_TOKENS_PATH}/${writer.id}`);
    assert.equal(revoked.statusCode, 403);
    assert.equal(revoked.json().error.message, API_TOKEN_TEXTS.noTokenManagement);
    assert.equal((await t.app.db.selectFrom('api_tokens').select('id').execute()).length, before);
    assert.equal((await byToken.get(API_TOKENS_PATH)).statusCode, 200, 'listing is a read');
  });

  it('revoked → 401 at the next request; another member cannot revoke it; revoking twice keeps it revoked', async () => {
    const created = await createToken(session, 'read-write');
    const byToken = apiClient(t.app, created.token);
    assert.equal((await byToken.get('/api/v1/sheets')).statusCode, 200);
    const stranger = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
    const notTheirs = await stranger.delete(`${API_TOKENS_PATH}/${created.id}`);
    assert.equal(notTheirs.statusCode, 404);
    assert.equal(notTheirs.json().error.message, API_TOKEN_TEXTS.notFound);
    assert.equal((await byToken.get('/api/v1/sheets')).statusCode, 200);

    const revoked = await session.delete(`${API_TOKENS_PATH}/${created.id}`);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.ok(revoked.json().revoked_at);
    const refused = await byToken.get('/api/v1/sheets');
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error.message, API_TOKEN_TEXTS.invalid);
    const again = await session.delete(`${API_TOKENS_PATH}/${created.id}`);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().revoked_at, revoked.json().revoked_at);
  });

  it('expired → 401', async () => {
    const created = await createToken(session, 'read-write');
    assert.equal((await apiClient(t.app, created.token).get('/api/v1/sheets')).statusCode, 200);
    // The clock cannot be moved a month: its expiry is (expires_at is fixed at creation, hence plain SQL).
    await sql`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${created.id}`.execute(t.app.db);
    const res = await apiClient(t.app, created.token).get('/api/v1/sheets');
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.message, API_TOKEN_TEXTS.invalid);
  });

  it("never works after its owner is deleted; follows the owner's role as it is now", async () => {
    const admin = apiClient(t.app, (await signedInMember(t.app, 'admin')).accessToken);
    const member = await signedInMember(t.app, 'user');
    const token = await createToken(apiClient(t.app, member.accessToken), 'read-write');
    const byToken = apiClient(t.app, token.token);
    assert.equal(SessionInfoSchema.parse((await byToken.get('/api/v1/auth/session')).json()).role, 'user');
    // A password change ends sessions, not API tokens (they are revoked on their own, from the list).
    const changed = await apiClient(t.app, member.accessToken).post('/api/v1/auth/change-password', { old_password: MEMBER_PASSWORD, new_password: 'a new password 2' });
    assert.equal(changed.statusCode, 204, changed.body);
    assert.equal((await byToken.get('/api/v1/sheets')).statusCode, 200);

    const promoted = await admin.put(`/api/v1/users/${member.userId}`, { role: 'admin' });
    assert.equal(promoted.statusCode, 200, promoted.body);
    assert.equal(SessionInfoSchema.parse((await byToken.get('/api/v1/auth/session')).json()).role, 'admin');

    const deleted = await admin.delete(`/api/v1/users/${member.userId}`);
    assert.ok(deleted.statusCode < 300, deleted.body);
    const res = await byToken.get('/api/v1/sheets');
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.message, API_TOKEN_TEXTS.invalid);
    assert.equal((await t.app.db.selectFrom('api_tokens').select('id').where('user_id', '=', member.userId).execute()).length, 0);
  });
});

describe('API token rate limit (API_TOKEN_RATE_LIMIT)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ apiTokenRateLimit: 3 });
  });
  after(() => t.close());

  it('each token has its own budget per minute: past it a 429 with Retry-After; other tokens and the session go on', async () => {
    const member = await signedInMember(t.app, 'user');
    const session = apiClient(t.app, member.accessToken);
    const busy = apiClient(t.app, (await createToken(session, 'read')).token);
    const quiet = apiClient(t.app, (await createToken(session, 'read')).token);
    for (let i = 0; i < 3; i++) assert.equal((await busy.get('/api/v1/sheets')).statusCode, 200);
    const limited = await busy.get('/api/v1/sheets');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error.message, API_TOKEN_TEXTS.rateLimited);
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal((await quiet.get('/api/v1/sheets')).statusCode, 200);
    assert.equal((await session.get('/api/v1/sheets')).statusCode, 200);
  });
});

describe('API tokens on the live sockets', () => {
  let s: LiveStack;
  let sheetId: string;
  let bobSession: ApiClient;
  const open: { close(): Promise<unknown> }[] = [];

  const cellOp = (id: string, value: string) => ({
    type: 'operation',
    sheet_id: sheetId,
    operation: { id, type: 'cell_update', position: { row: 0, column: 0 }, value },
  });

  before(async () => {
    s = await startLiveStack();
    bobSession = apiClient(s.t.app, s.bob.accessToken);
    const res = await bobSession.post('/api/v1/sheets', { name: 'Live by token', data: [['start']] });
    assert.equal(res.statusCode, 201, res.body);
    sheetId = SheetSchema.parse(res.json()).id;
  });
  after(() => closeLiveStack(s.t, open));

  it('a read-write token edits live; a read token joins and reads but its operations are refused with the reason', async () => {
    const writer = await LiveClient.join(s.base, sheetId, (await createToken(bobSession, 'read-write')).token, { label: 'rw token' });
    const reader = await LiveClient.join(s.base, sheetId, (await createToken(bobSession, 'read')).token, { label: 'read token' });
    open.push(writer, reader);
    writer.send(cellOp('w1', 'by a script'));
    const ack = await writer.next('ack');
    reader.send(cellOp('r1', 'not allowed'));
    const error = await reader.next('error', (f) => f.data.operation_id === 'r1');
    assert.equal(error.data.code, 'forbidden');
    assert.equal(error.data.message, API_TOKEN_TEXTS.readOnly);
    const stored = SheetSchema.parse((await bobSession.get(`/api/v1/sheets/${sheetId}`)).json());
    assert.deepEqual(stored.data, [['by a script']]);
    assert.equal(stored.version, ack.data.version);
  });

  it('revoking a token closes its open sheet and workspace sockets at once; a bad token is refused with 1008', async () => {
    const created = await createToken(bobSession, 'read-write');
    const sheet = await LiveClient.join(s.base, sheetId, created.token, { label: 'token sheet' });
    const live = await WorkspaceClient.join(s.base, created.token, { label: 'token /live' });
    const session = await LiveClient.join(s.base, sheetId, s.bob.accessToken, { label: 'bob session' });
    open.push(sheet, live, session);
    assert.equal((await bobSession.delete(`${API_TOKENS_PATH}/${created.id}`)).statusCode, 200);
    for (const closed of await Promise.all([sheet.closed, live.closed])) {
      assert.deepEqual(closed, { code: LIVE_CLOSE.sessionEnded, reason: API_TOKEN_TEXTS.invalid });
    }
    // Bob's own session is not touched.
    session.send(cellOp('s1', 'still here'));
    await session.next('ack');

    const refused = LiveClient.connect(s.base, `/sheets/${sheetId}?token=${encodeURIComponent(created.token)}`);
    assert.deepEqual(await refused.closed, { code: LIVE_CLOSE.policyViolation, reason: API_TOKEN_TEXTS.invalid });
  });
});
