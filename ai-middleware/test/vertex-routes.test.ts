// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the Vertex provider's routes.
// POST /vertex/chat, /vertex/stream and /vertex/enhanced-conversation (spec 02 §7) over a real
// loopback server: with the builtin provider (no model), and with the openai provider against
// the fake OpenAI-compatible server (test/support/fake-openai.ts), which records what the
// model was given.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AI_CONVERSATION_CONTEXT,
  ErrorBodySchema,
  NO_MODEL_CONFIGURED_MESSAGE,
  SESSION_TEXTS,
  SessionReplySchema,
  VERTEX_STREAM_FAILED,
  VertexChatReplySchema,
  type VertexStreamEvent,
  VertexStreamEventSchema,
} from '@tessera/contracts';
import { SessionService } from '../src/sessions/session.service.js';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';
import { type FakeOpenAi, startFakeOpenAi } from './support/fake-openai.js';

const backend = process.env.TEST_PG_URL ? 'PostgreSQL' : 'PGlite';

/** Reads a whole SSE reply into its events (`data: <json>` blocks). */
async function readEvents(res: Response): Promise<VertexStreamEvent[]> {
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  return (await res.text())
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => VertexStreamEventSchema.parse(JSON.parse(block.slice('data: '.length))));
}

function client(base: string, auth: Record<string, string>) {
  return (path: string, body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      ...init,
    });
}

async function newSession(post: ReturnType<typeof client>, name: string): Promise<string> {
  const res = await post('/vertex/user-sessions', { action: 'create', session_name: name });
  assert.equal(res.status, 201);
  return SessionReplySchema.parse(await res.json()).session.session_id;
}

describe(`the /vertex chat calls with the builtin provider (${backend})`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let post: ReturnType<typeof client>;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    post = client(base, { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('without a token: 401 on every chat call', async () => {
    for (const path of ['/vertex/chat', '/vertex/stream', '/vertex/enhanced-conversation']) {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"hi"}' });
      assert.equal(res.status, 401, path);
    }
  });

  test('a bad body is a 400 that names the problem', async () => {
    const empty = await post('/vertex/chat', { message: '   ' });
    assert.equal(empty.status, 400);
    assert.match(ErrorBodySchema.parse(await empty.json()).error.message, /message is required/);
    const hot = await post('/vertex/stream', { message: 'hi', temperature: 5 });
    assert.equal(hot.status, 400);
    assert.match(ErrorBodySchema.parse(await hot.json()).error.message, /^temperature: /);
  });

  test('/vertex/chat: the honest no-model reply, said to be from builtin with no model, and stored in the session', async () => {
    const sessionId = await newSession(post, 'Builtin chat');
    const res = await post('/vertex/chat', { message: 'What is in my sheet?', session_id: sessionId, user_id: 'user_local_123' });
    assert.equal(res.status, 200);
    const reply = VertexChatReplySchema.parse(await res.json());
    assert.equal(reply.response, NO_MODEL_CONFIGURED_MESSAGE);
    assert.equal(reply.provider, 'builtin');
    assert.equal(reply.model, null);
    assert.equal(reply.session_id, sessionId);
    const messages = await new SessionService(t.app.db).lastMessages('user-1', sessionId);
    assert.deepEqual(messages.map((m) => [m.role, m.content]), [
      ['user', 'What is in my sheet?'],
      ['assistant', NO_MODEL_CONFIGURED_MESSAGE],
    ]);
    assert.equal(messages[1].metadata.provider, 'builtin');

    // The session card's summary and tags (spec 02 §2) follow what was asked: the first question, the Chat mode, the sheet.
    await post('/vertex/chat', { message: 'And the totals?', session_id: sessionId, workspace_context: { current_sheet: { id: 's-1', name: 'Budget 2026' } } });
    const card = await new SessionService(t.app.db).get('user-1', sessionId);
    assert.equal(card.context_summary, 'What is in my sheet?');
    assert.deepEqual(card.tags, ['Chat', 'Budget 2026']);
  });

  test('/vertex/stream: Server-Sent Events, the reply then a finished event with the whole of it; stream_mode false answers JSON', async () => {
    const events = await readEvents(await post('/vertex/stream', { message: 'hello', temperature: 0.7, stream_mode: true }));
    const last = events.at(-1)!;
    assert.equal(last.finished, true);
    assert.equal(last.error, null);
    assert.equal(last.response, NO_MODEL_CONFIGURED_MESSAGE);
    assert.equal(events.slice(0, -1).map((e) => e.text).join(''), NO_MODEL_CONFIGURED_MESSAGE);
    assert.ok(events.slice(0, -1).every((e) => !e.finished));

    const json = await post('/vertex/stream', { message: 'hello', stream_mode: false });
    assert.equal(VertexChatReplySchema.parse(await json.json()).response, NO_MODEL_CONFIGURED_MESSAGE);
    // The other calls stream when asked to.
    const asked = await readEvents(await post('/vertex/chat', { message: 'hello' }, { accept: 'text/event-stream' }));
    assert.equal(asked.at(-1)?.response, NO_MODEL_CONFIGURED_MESSAGE);
  });

  test('enhanced-conversation needs a session of the user’s: none is 400 with the spec’s text, another user’s is 404', async () => {
    const none = await post('/vertex/enhanced-conversation', { message: 'hi', workspace_context: {} });
    assert.equal(none.status, 400);
    assert.equal(ErrorBodySchema.parse(await none.json()).error.message, SESSION_TEXTS.noActiveSessionEnhanced);

    const bob = client(base, { authorization: `Bearer ${await issuer.sign({ sub: 'user-2', username: 'bob', role: 'user' })}` });
    const bobs = await newSession(bob, 'Bob’s');
    for (const headers of [{}, { accept: 'text/event-stream' }] as Record<string, string>[]) {
      const res = await post('/vertex/enhanced-conversation', { message: 'hi', session_id: bobs }, headers);
      assert.equal(res.status, 404);
      assert.equal(ErrorBodySchema.parse(await res.json()).error.message, SESSION_TEXTS.notFound);
    }
    const stream = await post('/vertex/stream', { message: 'hi', session_id: 'no-such-session' });
    assert.equal(stream.status, 404);
    const res = await bob('/vertex/enhanced-conversation', { message: 'hi', session_id: bobs });
    assert.equal(VertexChatReplySchema.parse(await res.json()).response, NO_MODEL_CONFIGURED_MESSAGE);
  });
});

describe(`the /vertex chat calls with a model (openai provider, fake server) (${backend})`, () => {
  let issuer: TestIssuer;
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let post: ReturnType<typeof client>;

  before(async () => {
    issuer = await startTestIssuer();
    fake = await startFakeOpenAi();
    t = await startTestApp(issuer.apiUrl, { provider: 'openai', openai: { baseUrl: fake.baseUrl, model: 'llama3.1:8b', apiKey: undefined } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    post = client(base, { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await issuer?.close();
  });

  test('enhanced-conversation: the model gets the workspace context (sheet, selection, git, activities) and the session’s last 10 messages', async () => {
    // A commit in the code repository, and a file the user selected.
    const commit = await post('/git/commits', {
      message: 'Add totals script',
      base_commit: null,
      changes: [{ path: 'scripts/totals.py', action: 'upsert', content: 'def totals(rows):\n    return sum(r[1] for r in rows)\n' }],
    });
    assert.equal(commit.status, 200, await commit.clone().text());
    const sessionId = await newSession(post, 'Sales questions');
    const sessions = new SessionService(t.app.db);
    for (let i = 1; i <= 6; i++) {
      await sessions.append('user-1', sessionId, [
        { role: 'user', content: `earlier question ${i}` },
        { role: 'assistant', content: `earlier answer ${i}` },
      ]);
    }
    fake.reply({ chunks: ['North ', 'leads.'] });
    const res = await post('/vertex/enhanced-conversation', {
      user_id: 'user_local_1',
      session_id: sessionId,
      message: 'Which region leads?',
      workspace_context: {
        current_sheet: {
          id: 'sheet-42',
          name: 'Ventes – Zürich',
          headers: ['Region', 'Amount'],
          total_rows: 120,
          total_columns: 2,
          sample_rows: [
            ['North', 10],
            ['South', 5.5],
          ],
          selected_cells: [{ row: 1, col: 1, value: 5.5 }],
        },
        git_context: { selected_files: ['scripts/totals.py'], modified_files: ['notes.md'] },
        recent_activities: [{ description: 'Bob imported sales.csv' }],
        selected_functions: [{ name: 'totals', file_path: 'scripts/totals.py', description: 'sums the second column' }],
      },
      conversation_context: [{ role: 'user', content: 'ignored: the session has its own record' }],
      preferences: { response_format: 'markdown', include_code_examples: true, detail_level: 'detailed' },
    });
    assert.equal(res.status, 200);
    const reply = VertexChatReplySchema.parse(await res.json());
    assert.equal(reply.response, 'North leads.');
    assert.equal(reply.provider, 'openai');
    assert.equal(reply.model, 'llama3.1:8b');
    assert.deepEqual(reply.context, { messages: AI_CONVERSATION_CONTEXT, sheet: 'Ventes – Zürich', git_commits: 1 });

    const sent = fake.requests.at(-1)!.body;
    assert.equal(sent.temperature, 0.7);
    const [system, ...rest] = sent.messages;
    assert.equal(system.role, 'system');
    for (const expected of [
      'Current sheet: Ventes – Zürich (id sheet-42)',
      'Size: 120 rows × 2 columns',
      'Headers: Region | Amount',
      '  North | 10',
      'Selected cells (1): row 2, Amount = 5.5',
      'Git branch: main',
      'Add totals script (alice)',
      'Modified files: notes.md',
      'Content of scripts/totals.py:',
      'return sum(r[1] for r in rows)',
      'Bob imported sales.csv',
      'totals (scripts/totals.py): sums the second column',
      'alice committed "Add totals script"',
      'Include code examples where they help.',
    ]) {
      assert.ok(system.content.includes(expected), `the system prompt lacks ${JSON.stringify(expected)}:\n${system.content}`);
    }
    // The last 10 stored messages, oldest first, then the question.
    assert.deepEqual(
      rest.map((m) => m.content),
      [2, 3, 4, 5, 6].flatMap((i) => [`earlier question ${i}`, `earlier answer ${i}`]).concat('Which region leads?'),
    );
    const stored = await sessions.lastMessages('user-1', sessionId, 2);
    assert.deepEqual(stored.map((m) => [m.role, m.content]), [
      ['user', 'Which region leads?'],
      ['assistant', 'North leads.'],
    ]);
    assert.equal(stored[1].metadata.model, 'llama3.1:8b');
  });

  test('without a session, /vertex/chat gives the model the client’s conversation_context turns', async () => {
    fake.reply({ chunks: ['Yes.'] });
    const res = await post('/vertex/chat', {
      message: 'And now?',
      temperature: 0.2,
      conversation_context: [
        { role: 'user', content: 'Is it sorted?' },
        { role: 'assistant', content: 'No.' },
      ],
    });
    assert.equal(VertexChatReplySchema.parse(await res.json()).response, 'Yes.');
    const sent = fake.requests.at(-1)!.body;
    assert.equal(sent.temperature, 0.2);
    assert.deepEqual(sent.messages.slice(1).map((m) => m.content), ['Is it sorted?', 'No.', 'And now?']);
    assert.ok(sent.messages[0].content.includes('No sheet is open.'));
    assert.ok(sent.messages[0].content.includes('The repository has no commits yet.') || sent.messages[0].content.includes('Recent commits:'));
  });

  test('the provider’s error: JSON 502 with its text; on the stream, the last event says Vertex AI stream failed with it', async () => {
    fake.reply({ status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } } });
    const json = await post('/vertex/chat', { message: 'hi' });
    assert.equal(json.status, 502);
    assert.equal(ErrorBodySchema.parse(await json.json()).error.message, 'HTTP 401: Incorrect API key provided.');

    fake.reply({ chunks: ['partial '], streamError: { message: 'The server is overloaded' } });
    const events = await readEvents(await post('/vertex/stream', { message: 'hi' }));
    assert.equal(events[0].text, 'partial ');
    const last = events.at(-1)!;
    assert.equal(last.finished, true);
    assert.equal(last.error, `${VERTEX_STREAM_FAILED}: The server is overloaded`);
  });

  test('Stop: closing the stream cancels the model’s request; what was said so far is kept in the session', async () => {
    const sessionId = await newSession(post, 'Stopped');
    fake.reply({ chunks: ['one ', 'two ', 'three ', 'four ', 'five'], pauseMs: 150 });
    const controller = new AbortController();
    const res = await post('/vertex/stream', { message: 'count', session_id: sessionId }, {}, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /"text":"one "/);
    controller.abort();
    assert.equal(await fake.requests.at(-1)!.ended, 'aborted');
    // The turn is stored once the middleware has seen the abort.
    const sessions = new SessionService(t.app.db);
    let stored = await sessions.lastMessages('user-1', sessionId);
    for (let i = 0; i < 100 && stored.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await sessions.lastMessages('user-1', sessionId);
    }
    assert.equal(stored[0].content, 'count');
    assert.equal(stored[1].role, 'assistant');
    assert.ok(stored[1].content.startsWith('one '));
    assert.ok(!stored[1].content.includes('five'));
    assert.equal(stored[1].metadata.stopped, true);
  });
});

describe(`the /vertex stream limit (${backend})`, () => {
  test('a provider that never finishes is cut at the stream timeout with its text, and the request to it closed', async () => {
    const issuer = await startTestIssuer();
    const fake = await startFakeOpenAi();
    const t = await startTestApp(issuer.apiUrl, {
      provider: 'openai',
      openai: { baseUrl: fake.baseUrl, model: 'llama3.1:8b', apiKey: undefined },
      streamTimeoutMs: 300,
    });
    try {
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const post = client(base, { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` });
      fake.reply({ hang: true }, { hang: true });
      const events = await readEvents(await post('/vertex/stream', { message: 'hi' }));
      assert.equal(events.at(-1)?.error, `${VERTEX_STREAM_FAILED}: Stream timed out after 300 ms`);
      assert.equal(await fake.requests[0].ended, 'aborted');
      const json = await post('/vertex/chat', { message: 'hi' });
      assert.equal(json.status, 504);
      assert.equal(ErrorBodySchema.parse(await json.json()).error.message, 'Stream timed out after 300 ms');
    } finally {
      await t.close();
      await fake.close();
      await issuer.close();
    }
  });
});
