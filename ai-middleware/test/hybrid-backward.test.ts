// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the answers.
// POST /hybrid/backward: from an edited grid back to the code that produced it, over a real
// loopback server with the real confined runner; the model is the fake OpenAI-compatible server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BACKWARD_CODE_REQUIRED_MESSAGE,
  BACKWARD_EDITED_REQUIRED_MESSAGE,
  BACKWARD_UP_TO_DATE_MESSAGE,
  ErrorBodySchema,
  HYBRID_STAGES,
  HybridResponseSchema,
  HybridStreamEventSchema,
  NO_MODEL_CONFIGURED_MESSAGE,
  backwardDifferencesMessage,
  backwardUpdatedMessage,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';
import { type FakeOpenAi, codeReply, startFakeOpenAi } from './support/fake-openai.js';

const SHEET = {
  sheet_context: { name: 'Hours' },
  handsontable_data: {
    spreadsheet_data: {
      headers: ['Name', 'Hours'],
      rows: [
        ['Ann', 8],
        ['Bob', 6],
      ],
    },
  },
};
/** The program that made the grid: a pay column at 20 an hour. */
const PAY_CODE = 'result = {"headers": ["Name", "Pay"], "rows": [[r[0], r[1] * 20] for r in rows]}';
/** What it produced, then the user's edit: pay is 25 an hour. */
const PRODUCED = { headers: ['Name', 'Pay'], rows: [['Ann', 160], ['Bob', 120]] };
const EDITED = { headers: ['Name', 'Pay'], rows: [['Ann', 200], ['Bob', 150]] };

describe('POST /hybrid/backward', () => {
  let issuer: TestIssuer;
  let fake: FakeOpenAi;
  let builtin: TestApp;
  let model: TestApp;
  let builtinBase: string;
  let modelBase: string;
  let auth: Record<string, string>;

  const post = (base: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${base}/hybrid/backward`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...SHEET, code: PAY_CODE, ...body }),
    });

  before(async () => {
    issuer = await startTestIssuer();
    fake = await startFakeOpenAi();
    const runner = { engine: 'pyodide' as const, timeoutMs: 4000, memoryMb: 256, poolSize: 1 };
    builtin = await startTestApp(issuer.apiUrl, { runner });
    model = await startTestApp(issuer.apiUrl, { runner, provider: 'openai', openai: { baseUrl: fake.baseUrl, model: 'llama3.1:8b', apiKey: undefined } });
    builtinBase = await builtin.app.listen({ host: '127.0.0.1', port: 0 });
    modelBase = await model.app.listen({ host: '127.0.0.1', port: 0 });
    auth = { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` };
  });
  after(async () => {
    await builtin?.close();
    await model?.close();
    await fake?.close();
    await issuer?.close();
  });

  test('without a token 401; without code or edited_data 400 naming both, and nothing runs', async () => {
    const stranger = await fetch(`${builtinBase}/hybrid/backward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(stranger.status, 401);
    const res = await post(builtinBase, { code: ' ', edited_data: undefined });
    assert.equal(res.status, 400);
    const { message } = ErrorBodySchema.parse(await res.json()).error;
    assert.ok(message.includes(BACKWARD_CODE_REQUIRED_MESSAGE), message);
    assert.ok(message.includes(BACKWARD_EDITED_REQUIRED_MESSAGE), message);
  });

  test('compare only (enable_ai_generation false): the cells the user changed, the code kept, no grid to apply', async () => {
    const res = await post(builtinBase, { enable_ai_generation: false, edited_data: EDITED });
    assert.equal(res.status, 200);
    const reply = HybridResponseSchema.parse(await res.json());
    assert.equal(reply.success, true);
    assert.equal(reply.mode, 'agent-direct');
    assert.equal(reply.message, backwardDifferencesMessage(2, false));
    assert.equal(reply.code, PAY_CODE);
    assert.equal(reply.has_grid, false);
    assert.equal(reply.handsontable_data, undefined);
    assert.deepEqual(reply.differences?.cells, [
      { row: 0, col: 1, header: 'Pay', code: 160, sheet: 200 },
      { row: 1, col: 1, header: 'Pay', code: 120, sheet: 150 },
    ]);
  });

  test('a grid the code already produces: nothing to change', async () => {
    const reply = HybridResponseSchema.parse(await (await post(builtinBase, { edited_data: PRODUCED })).json());
    assert.equal(reply.success, true);
    assert.equal(reply.message, BACKWARD_UP_TO_DATE_MESSAGE);
    assert.equal(reply.differences?.count, 0);
  });

  test('builtin: says what differs and that rewriting the code needs a model; nothing is pretended', async () => {
    const reply = HybridResponseSchema.parse(await (await post(builtinBase, { edited_data: EDITED })).json());
    assert.equal(reply.success, false);
    assert.equal(reply.message, `${backwardDifferencesMessage(2, false)}. ${NO_MODEL_CONFIGURED_MESSAGE}`);
    assert.equal(reply.langchain_result.status, 'failed');
    assert.equal(reply.provider, 'builtin');
    assert.equal(reply.code, PAY_CODE);
  });

  test('with a model: a rewrite that still differs goes back with the differences; the next one matches (SSE stages in order)', async () => {
    fake.reply(
      codeReply('result = {"headers": ["Name", "Pay"], "rows": [[r[0], r[1] * 24] for r in rows]}'),
      codeReply('RATE = 25\nresult = {"headers": ["Name", "Pay"], "rows": [[r[0], r[1] * RATE] for r in rows]}'),
    );
    const res = await post(modelBase, { edited_data: EDITED, problem: 'pay per person' }, { accept: 'text/event-stream' });
    const events = (await res.text())
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => HybridStreamEventSchema.parse(JSON.parse(b.slice(6))));
    const stages = [...new Set(events.map((e) => e.metadata.stage))];
    assert.deepEqual(stages, [...HYBRID_STAGES]);
    const reply = events.at(-1)?.metadata.response;
    assert.ok(reply);
    assert.equal(reply.success, true, reply.message);
    assert.equal(reply.message, backwardUpdatedMessage(2));
    assert.match(reply.code ?? '', /RATE = 25/);
    assert.deepEqual(reply.attempts?.map((a) => a.error), [backwardDifferencesMessage(2, false), undefined]);

    const [firstAsk, secondAsk] = fake.requests.slice(-2).map((r) => r.body.messages);
    const task = firstAsk.at(-1)!.content;
    assert.ok(task.includes('The program was written for: pay per person'), task);
    assert.ok(task.includes('row 1, column "Pay": the program gives 160, the edited grid has 200'), task);
    assert.ok(task.includes(PAY_CODE), task);
    assert.ok(secondAsk.at(-1)!.content.includes('the program gives 192, the edited grid has 200'), secondAsk.at(-1)!.content);
  });
});
