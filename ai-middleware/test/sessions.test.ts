// GET/POST/DELETE /vertex/user-sessions (spec 02 §3, §4 Sessions, §7) over a real loopback
// server, on PGlite or PostgreSQL (TEST_PG_URL), and the session service the chat calls use.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CHAT_SESSIONS_MAX,
  DeleteSessionReplySchema,
  ErrorBodySchema,
  SESSION_TEXTS,
  SessionListSchema,
  SessionReplySchema,
} from '@tessera/contracts';
import { QUOTAS_DEFAULTS } from '../src/config.js';
import { SessionService } from '../src/sessions/session.service.js';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const backend = process.env.TEST_PG_URL ? 'PostgreSQL' : 'PGlite';

describe(`AI chat sessions (${backend})`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const create = async (headers: Record<string, string>, name: string) => {
    const res = await call('POST', '/vertex/user-sessions', headers, { action: 'create', session_name: name, user_id: 'user_123_abc' });
    assert.equal(res.status, 201);
    return SessionReplySchema.parse(await res.json()).session;
  };
  const list = async (headers: Record<string, string>, query = '') => {
    const res = await call('GET', `/vertex/user-sessions${query}`, headers);
    assert.equal(res.status, 200);
    return SessionListSchema.parse(await res.json()).sessions;
  };
  const errorOf = async (res: Response) => ErrorBodySchema.parse(await res.json()).error;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    alice = { authorization: `Bearer ${await issuer.sign({ sub: 'user-alice', username: 'alice', role: 'user' })}` };
    bob = { authorization: `Bearer ${await issuer.sign({ sub: 'user-bob', username: 'bob', role: 'user' })}` };
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('without a token every session call is 401', async () => {
    for (const [method, body] of [['GET'], ['POST', { action: 'create', session_name: 'x' }], ['DELETE']] as const) {
      const res = await call(method, '/vertex/user-sessions?session_id=x', {}, body);
      assert.equal(res.status, 401, method);
    }
    assert.deepEqual(await list(alice), []);
  });

  test('a new session comes first, with no messages; a blank name is refused', async () => {
    const blank = await call('POST', '/vertex/user-sessions', alice, { action: 'create', session_name: '   ' });
    assert.equal(blank.status, 400);
    assert.match((await errorOf(blank)).message, new RegExp(SESSION_TEXTS.nameEmpty));
    const missing = await call('POST', '/vertex/user-sessions', alice, { action: 'rename', session_name: 'x' });
    assert.equal(missing.status, 400);

    const first = await create(alice, 'Budget 2026');
    const second = await create(alice, '  Rota  ');
    assert.equal(second.session_name, 'Rota', 'the name is trimmed');
    assert.equal(second.message_count, 0);
    assert.deepEqual(second.tags, []);
    const sessions = await list(alice);
    assert.deepEqual(sessions.map((s) => s.session_name), ['Rota', 'Budget 2026']);
    assert.equal(sessions[1].session_id, first.session_id);
  });

  test("sessions are the token's user's: a user_id in the query or body changes nothing, another's session is 404", async () => {
    const [own] = await list(alice);
    // Bob asks for Alice's sessions by the spec's user_id: he gets his own (none).
    assert.deepEqual(await list(bob, `?user_id=user-alice`), []);
    const bobs = await create(bob, 'Bob only');
    assert.deepEqual((await list(alice, '?user_id=user-bob')).map((s) => s.session_name), ['Rota', 'Budget 2026']);

    const sw = await call('POST', '/vertex/user-sessions', bob, { action: 'switch', session_id: own.session_id, user_id: 'user-alice' });
    assert.equal(sw.status, 404);
    assert.equal((await errorOf(sw)).message, SESSION_TEXTS.notFound);
    const del = await call('DELETE', `/vertex/user-sessions?session_id=${own.session_id}&user_id=user-alice`, bob);
    assert.equal(del.status, 404);
    assert.equal((await list(alice)).length, 2, "Alice's sessions are untouched");
    assert.deepEqual((await list(bob)).map((s) => s.session_id), [bobs.session_id]);
  });

  test('switching makes a session current (first) and returns its messages in order', async () => {
    const sessions = new SessionService(t.app.db);
    const [, budget] = await list(alice);
    await sessions.append('user-alice', budget.session_id, [
      { role: 'user', content: 'total of Amount by Region' },
      { role: 'assistant', content: 'North 12, South 5.5', metadata: { provider: 'builtin' } },
    ]);
    const res = await call('POST', '/vertex/user-sessions', alice, { action: 'switch', session_id: budget.session_id });
    assert.equal(res.status, 200);
    const reply = SessionReplySchema.parse(await res.json());
    assert.equal(reply.session.session_id, budget.session_id);
    assert.equal(reply.session.message_count, 2);
    assert.deepEqual(reply.messages?.map((m) => [m.role, m.content]), [
      ['user', 'total of Amount by Region'],
      ['assistant', 'North 12, South 5.5'],
    ]);
    assert.deepEqual(reply.messages?.[1].metadata, { provider: 'builtin' });
    assert.deepEqual((await list(alice)).map((s) => s.session_name), ['Budget 2026', 'Rota']);

    const unknown = await call('POST', '/vertex/user-sessions', alice, { action: 'switch', session_id: 'no-such-session' });
    assert.equal(unknown.status, 404);
  });

  test("an answer's figures are stored with it; past the member's budget the oldest answers lose theirs and say how many", async () => {
    const figure = (fill: string) => ({ mime: 'image/png' as const, data: fill.repeat(1000), width: 64, height: 48 });
    // Room for five 1,000-byte figures per member.
    const sessions = new SessionService(t.app.db, { ...QUOTAS_DEFAULTS, figuresPerUserBytes: 5000 });
    const first = await sessions.create('user-dora', { session_name: 'Charts' });
    const second = await sessions.create('user-dora', { session_name: 'More charts' });
    const others = await sessions.create('user-ed', { session_name: 'Not Dora' });
    await sessions.append('user-ed', others.session_id, [{ role: 'assistant', content: 'E', figures: [figure('E'), figure('E')] }]);
    await sessions.append('user-dora', first.session_id, [{ role: 'assistant', content: 'A', figures: [figure('A'), figure('A')] }]);
    await sessions.append('user-dora', first.session_id, [{ role: 'assistant', content: 'B', figures: [figure('B')] }]);
    // 3 stored + 3 new > 5: A's two go (B's one stays).
    await sessions.append('user-dora', second.session_id, [{ role: 'assistant', content: 'C', figures: [figure('C'), figure('C'), figure('C')] }]);
    // Larger than the whole budget alone: the first five are kept, the sixth is not; B and C lose theirs.
    await sessions.append('user-dora', second.session_id, [{ role: 'assistant', content: 'D', figures: Array.from({ length: 6 }, () => figure('D')) }]);

    const stored = async (sessionId: string, user: string) =>
      (await sessions.lastMessages(user, sessionId, 10, { withFigures: true })).map((m) => [m.content, (m.metadata.figures as { data: string }[] | undefined)?.length ?? 0, m.metadata.figures_not_kept ?? 0]);
    assert.deepEqual(await stored(first.session_id, 'user-dora'), [['A', 0, 2], ['B', 0, 1]]);
    assert.deepEqual(await stored(second.session_id, 'user-dora'), [['C', 0, 3], ['D', 5, 1]]);
    // Another member's figures are theirs: untouched.
    assert.deepEqual(await stored(others.session_id, 'user-ed'), [['E', 2, 0]]);
    const [d] = (await sessions.lastMessages('user-dora', second.session_id, 10, { withFigures: true })).slice(-1);
    assert.deepEqual(d.metadata.figures, Array.from({ length: 5 }, () => figure('D')));
    // The model's context (the default) goes without the figures' megabytes.
    const [forModel] = (await sessions.lastMessages('user-dora', second.session_id)).slice(-1);
    assert.deepEqual(forModel.metadata, { figures_not_kept: 1 });
    // Switching to the session (what a reload of the chat does) brings them.
    const dora = { authorization: `Bearer ${await issuer.sign({ sub: 'user-dora', username: 'dora', role: 'user' })}` };
    const switched = SessionReplySchema.parse(await (await call('POST', '/vertex/user-sessions', dora, { action: 'switch', session_id: second.session_id })).json());
    assert.equal((switched.messages?.at(-1)?.metadata.figures as unknown[]).length, 5);

    const none = new SessionService(t.app.db, { ...QUOTAS_DEFAULTS, figuresPerUserBytes: 0 });
    await none.append('user-ed', others.session_id, [{ role: 'assistant', content: 'F', figures: [figure('F')] }]);
    assert.deepEqual((await stored(others.session_id, 'user-ed')).at(-1), ['F', 0, 1]);
  });

  test('the service reads the last 10 messages, oldest first, and refuses a session of another user', async () => {
    const sessions = new SessionService(t.app.db);
    const mine = await sessions.create('user-carol', { session_name: 'Long talk' });
    for (let i = 1; i <= 7; i++) {
      await sessions.append('user-carol', mine.session_id, [
        { role: 'user', content: `question ${i}` },
        { role: 'assistant', content: `answer ${i}` },
      ]);
    }
    const last = await sessions.lastMessages('user-carol', mine.session_id);
    assert.equal(last.length, 10);
    assert.equal(last[0].content, 'question 3');
    assert.equal(last[9].content, 'answer 7');
    assert.equal((await sessions.get('user-carol', mine.session_id)).message_count, 14);
    await assert.rejects(sessions.lastMessages('user-alice', mine.session_id), { name: 'SessionNotFoundError' });
    await assert.rejects(sessions.append('user-alice', mine.session_id, [{ role: 'user', content: 'hi' }]), { name: 'SessionNotFoundError' });
  });

  test(`at most ${CHAT_SESSIONS_MAX} are listed, most recently active first; an older one returns when switched to`, async () => {
    const dave = { authorization: `Bearer ${await issuer.sign({ sub: 'user-dave', username: 'dave', role: 'user' })}` };
    const made = [];
    for (let i = 1; i <= CHAT_SESSIONS_MAX + 2; i++) made.push(await create(dave, `Chat ${i}`));
    const listed = await list(dave);
    assert.equal(listed.length, CHAT_SESSIONS_MAX);
    assert.equal(listed[0].session_name, `Chat ${CHAT_SESSIONS_MAX + 2}`);
    assert.equal(listed.at(-1)?.session_name, 'Chat 3');
    const res = await call('POST', '/vertex/user-sessions', dave, { action: 'switch', session_id: made[0].session_id });
    assert.equal(res.status, 200);
    assert.equal((await list(dave))[0].session_name, 'Chat 1');
  });

  test('deleting a session removes it and its messages; the next most recent is first', async () => {
    const [budget, rota] = await list(alice);
    const res = await call('DELETE', `/vertex/user-sessions?session_id=${budget.session_id}&user_id=whatever`, alice);
    assert.equal(res.status, 200);
    assert.deepEqual(DeleteSessionReplySchema.parse(await res.json()), { success: true, session_id: budget.session_id });
    assert.deepEqual((await list(alice)).map((s) => s.session_id), [rota.session_id]);
    const left = await t.app.db.selectFrom('ai_messages').select('id').where('session_id', '=', budget.session_id).execute();
    assert.equal(left.length, 0);

    // The id may also come in a JSON body; a second delete is 404; none at all is 400.
    const byBody = await call('DELETE', '/vertex/user-sessions', alice, { session_id: rota.session_id });
    assert.equal(byBody.status, 200);
    assert.equal((await call('DELETE', `/vertex/user-sessions?session_id=${rota.session_id}`, alice)).status, 404);
    assert.equal((await call('DELETE', '/vertex/user-sessions', alice)).status, 400);
    assert.deepEqual(await list(alice), []);
  });
});
