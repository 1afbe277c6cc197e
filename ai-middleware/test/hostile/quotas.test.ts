// Issue 17 §1: per-user quotas on what the middleware stores outside sheets — chat sessions per
// user, messages per session (429), git file content per commit (413) and per user per UTC day
// (429) — each refused with its text, storing nothing, with /health answering after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODES, QUOTA_TEXTS } from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from '../helpers/jwks-server.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';

const KB = 1024;
const MB = 1024 * KB;
const quotas = { sessionsPerUser: 3, messagesPerSession: 4, gitCommitMaxBytes: 1 * MB, gitDailyMaxBytes: 2 * MB, figuresPerUserBytes: 16 * MB };

describe(`hostile: per-user quotas (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'})`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  const tokens: Record<string, string> = {};
  const call = async (user: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const refusal = async (res: Response, status: number, code: string, message: string) => {
    assert.equal(res.status, status);
    assert.deepEqual(await res.json(), { error: { code, message } });
  };
  const health = async () => assert.equal((await fetch(`${base}/health`)).status, 200);
  const sessions = async (user: string) =>
    ((await (await call(user, 'GET', '/vertex/user-sessions')).json()) as { sessions: Array<{ session_id: string; message_count: number }> }).sessions;
  const createSession = (user: string, name: string) => call(user, 'POST', '/vertex/user-sessions', { action: 'create', session_name: name });
  const history = async (user: string) => (await (await call(user, 'GET', '/git/history?limit=50')).json()) as { commits: Array<{ hash?: string; commit_hash?: string }>; count: number };
  const commit = (user: string, base_commit: string | null, files: Record<string, number>, message = 'quota') =>
    call(user, 'POST', '/git/commits', {
      message,
      base_commit,
      changes: Object.entries(files).map(([path, bytes]) => ({ path, action: 'upsert', content: 'x'.repeat(bytes) })),
    });
  let head: string | null = null;
  const commitOk = async (user: string, files: Record<string, number>) => {
    const res = await commit(user, head, files);
    assert.equal(res.status, 200, await res.clone().text());
    head = ((await res.json()) as { commit_hash: string }).commit_hash;
  };

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl, { quotas });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    for (const user of ['ann', 'ben', 'cat']) tokens[user] = await issuer.sign({ sub: `user-${user}`, username: user, role: 'user' });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('chat sessions per user: the one past the cap is a 429 naming it, nothing is created; deleting one makes room; other users are not counted', async () => {
    for (const name of ['one', 'two', 'three']) assert.equal((await createSession('ann', name)).status, 201);
    await refusal(await createSession('ann', 'four'), 429, ERROR_CODES.tooManyRequests, QUOTA_TEXTS.sessions(3));
    assert.equal(QUOTA_TEXTS.sessions(3), 'You have 3 chat sessions, the most one user may keep; delete one to create another');
    const kept = await sessions('ann');
    assert.equal(kept.length, 3);
    assert.equal(kept.some((s) => (s as { session_name?: string }).session_name === 'four'), false);
    assert.equal((await createSession('ben', 'bens')).status, 201);
    assert.equal((await call('ann', 'DELETE', `/vertex/user-sessions?session_id=${kept[0].session_id}`)).status, 200);
    assert.equal((await createSession('ann', 'four')).status, 201);
    await health();
  });

  test('messages per session: a turn that would not fit is a 429 before the model or the code runs; the session keeps what it had', async () => {
    const created = await createSession('ben', 'short');
    const sessionId = ((await created.json()) as { session: { session_id: string } }).session.session_id;
    // Each turn stores the user's message and the reply: two turns fill the session (4).
    for (const message of ['first', 'second']) assert.equal((await call('ben', 'POST', '/vertex/chat', { message, session_id: sessionId })).status, 200);
    const full = QUOTA_TEXTS.messages(4);
    assert.equal(full, 'This chat session holds 4 messages, the most one session may keep; start a new session');
    await refusal(await call('ben', 'POST', '/vertex/chat', { message: 'third', session_id: sessionId }), 429, ERROR_CODES.tooManyRequests, full);
    await refusal(await call('ben', 'POST', '/vertex/stream', { message: 'third', session_id: sessionId }), 429, ERROR_CODES.tooManyRequests, full);
    const forward = {
      enable_ai_generation: false,
      code: "print('must not run')",
      handsontable_data: { spreadsheet_data: { headers: ['A'], rows: [[1]] } },
      session_id: sessionId,
    };
    await refusal(await call('ben', 'POST', '/hybrid/forward', forward, { accept: 'text/event-stream' }), 429, ERROR_CODES.tooManyRequests, full);
    await refusal(await call('ben', 'POST', '/hybrid/forward', forward), 429, ERROR_CODES.tooManyRequests, full);
    assert.equal((await sessions('ben')).find((s) => s.session_id === sessionId)?.message_count, 4);
    await health();
  });

  test('git bytes per commit: a commit adding more than the cap is a 413 naming both sizes; nothing is committed', async () => {
    const res = await commit('cat', null, { 'a.py': 600 * KB, 'b.py': 600 * KB });
    await refusal(res, 413, ERROR_CODES.payloadTooLarge, QUOTA_TEXTS.gitCommit(1200 * KB, MB));
    assert.equal(QUOTA_TEXTS.gitCommit(1200 * KB, MB), 'This commit adds 1.2 MB of file content; at most 1 MB can be committed at once');
    assert.equal((await history('cat')).count, 0);
    await health();
  });

  test('git bytes per user per day: the commit past the day’s total is a 429; a refused (409) commit costs nothing; other users have their own day', async () => {
    await commitOk('cat', { 'day/one.py': 900 * KB });
    await commitOk('cat', { 'day/two.py': 900 * KB });
    const before = (await history('cat')).count;
    const over = await commit('cat', head, { 'day/three.py': 300 * KB });
    await refusal(over, 429, ERROR_CODES.tooManyRequests, QUOTA_TEXTS.gitDaily(2 * MB));
    assert.equal(QUOTA_TEXTS.gitDaily(2 * MB), "You have reached today's limit of 2 MB of committed file content; try again tomorrow (UTC)");
    assert.equal((await history('cat')).count, before);
    const tree = await (await call('cat', 'GET', '/git/tree')).text();
    assert.ok(!tree.includes('three.py'), 'the refused file is not in the repository');

    // Ben: a stale base is refused (409) and its bytes are given back, so his whole day is still his.
    const stale = await commit('ben', null, { 'ben/a.py': MB });
    assert.equal(stale.status, 409);
    await commitOk('ben', { 'ben/a.py': MB });
    await commitOk('ben', { 'ben/b.py': MB });
    await refusal(await commit('ben', head, { 'ben/c.py': 1 }), 429, ERROR_CODES.tooManyRequests, QUOTA_TEXTS.gitDaily(2 * MB));
    await health();
  });
});
