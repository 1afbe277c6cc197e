// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the answers.
// POST /hybrid/forward in Agent • AI Powered, over a real loopback server with the real confined
// runner (root needed, as for the runner's own tests): the openai provider against a fake
// OpenAI-compatible server speaking the real streaming protocol, and builtin (no model).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AI_POWERED_DEFAULT_INSTRUCTION,
  ErrorBodySchema,
  NO_MODEL_CONFIGURED_MESSAGE,
  ServiceHealthSchema,
  aiPoweredFailedMessage,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type HybridClient, hybridClient, readHybridEvents, useHybridApp } from './helpers/hybrid-client.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';
import { type FakeOpenAi, codeReply, startFakeOpenAi } from './support/fake-openai.js';

const RUNNER = { engine: 'pyodide' as const, timeoutMs: 4000, memoryMb: 256, poolSize: 1 };

/** No sheet id: merge_timeline stays off, the results come back in the reply only. */
const SALES = {
  sheet_context: { name: 'Ventes – Zürich', rowCount: 6, columnCount: 4 },
  handsontable_data: {
    spreadsheet_data: {
      headers: ['Region', 'Product', 'Amount', 'Unit Price'],
      rows: [
        ['North', 'Tea', 10, 2.5],
        ['South', 'Coffee', '5.5', 4],
        ['North', 'Cake', 2, 3.25],
        ['East', 'Tea', 1, 2.5],
        ['South', 'Tea', 7, null],
        [null, null, null, null],
      ],
    },
  },
};
const ROWS = SALES.handsontable_data.spreadsheet_data.rows;

const TOTALS_CODE = [
  'totals = {}',
  'for r in records:',
  "    if r['Region'] is None: continue",
  "    totals[r['Region']] = totals.get(r['Region'], 0) + float(r['Amount'])",
  "print('regions:', len(totals))",
  "result = {'headers': ['Region', 'Total'], 'rows': [[k, v] for k, v in sorted(totals.items())]}",
].join('\n');

describe('AI Powered with the openai provider (fake OpenAI-compatible server)', () => {
  let issuer: TestIssuer;
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let api: HybridClient;

  before(async () => {
    issuer = await startTestIssuer();
    fake = await startFakeOpenAi();
    t = await startTestApp(issuer.apiUrl, {
      provider: 'openai',
      openai: { baseUrl: fake.baseUrl, model: 'fake-coder-1', apiKey: 'sk-fake' },
      runner: RUNNER,
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    api = await hybridClient(issuer, base);
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await issuer?.close();
  });

  test('/config and /health name the provider and the model', async () => {
    const config = (await (await fetch(`${base}/config`)).json()) as { provider: string; model: string | null; streamingSupported: boolean };
    assert.equal(config.provider, 'openai');
    assert.equal(config.model, 'fake-coder-1');
    assert.equal(config.streamingSupported, true);
    const health = ServiceHealthSchema.parse(await (await fetch(`${base}/health`)).json());
    assert.deepEqual(health.ai, { provider: 'openai', model: 'fake-coder-1' });
  });

  test('SSE: the stages in order; the model got the instruction, headers, first 5 rows, the git file and the last 10 messages', async () => {
    // A file in the code repository, selected in the chat's Git Files zone.
    const commit = await fetch(`${base}/git/commits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'helpers', base_commit: null, changes: [{ path: 'lib/totals.py', action: 'upsert', content: 'def region_total(rows):\n    return 42  # marker-in-git-file\n' }] }),
    });
    assert.equal(commit.status, 200, await commit.clone().text());
    const manyRows = [...ROWS, ['West', 'row-seven-marker', 3, 1]];
    const conversation = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn-${i}` }));
    fake.reply(codeReply(TOTALS_CODE));
    const before = fake.requests.length;
    const res = await api.post(
      {
        ...SALES,
        handsontable_data: { spreadsheet_data: { ...SALES.handsontable_data.spreadsheet_data, rows: manyRows } },
        problem: 'total of Amount by Region, please',
        enable_ai_generation: true,
        files: ['lib/totals.py', { path: 'missing.py' }],
        conversation_context: conversation,
      },
      { accept: 'text/event-stream' },
    );
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = await readHybridEvents(res);
    assert.deepEqual(
      events.map((e) => e.metadata.stage),
      ['analysis', 'code_generation', 'frontend_panels', 'handsontable_updates', 'final_response'],
    );
    assert.deepEqual(events.map((e) => e.metadata.progress), [20, 40, 60, 80, 100]);
    const last = events.at(-1)!;
    assert.equal(last.finished, true);
    assert.equal(last.metadata.workflow_complete, true);
    assert.equal(last.error, null);
    const response = last.metadata.response!;
    assert.equal(response.success, true);
    assert.equal(response.mode, 'agent-ai');
    assert.equal(response.provider, 'openai');
    assert.equal(response.model, 'fake-coder-1');
    assert.equal(response.code, TOTALS_CODE);
    assert.deepEqual(response.attempts, [{ code: TOTALS_CODE }]);
    assert.equal(response.execution_output, 'regions: 4\n');
    assert.deepEqual(response.grid_update?.rows, [['East', 1], ['North', 12], ['South', 12.5], ['West', 3]]);

    assert.equal(fake.requests.length, before + 1);
    const request = fake.requests.at(-1)!;
    assert.equal(request.body.model, 'fake-coder-1');
    assert.equal(request.authorization, 'Bearer sk-fake');
    const messages = request.body.messages;
    assert.equal(messages[0]!.role, 'system');
    assert.match(messages[0]!.content, /`headers` \(list of str\)|headers: list of str/);
    // The last 10 turns, in order, between the system prompt and the task.
    assert.deepEqual(messages.slice(1, -1).map((m) => m.content), conversation.slice(2).map((m) => m.content));
    const task = messages.at(-1)!.content;
    assert.match(task, /Instruction: total of Amount by Region, please/);
    assert.match(task, /Headers: \["Region","Product","Amount","Unit Price"\]/);
    assert.match(task, /7 rows × 4 columns/);
    assert.match(task, /First 5 rows/);
    assert.ok(task.includes('"East","Tea",1,2.5'), 'the 4th row is given');
    assert.ok(!task.includes('row-seven-marker'), 'rows past the 5th are not given');
    assert.ok(task.includes('marker-in-git-file'), 'the selected git file’s content is given');
    assert.match(task, /File missing\.py from the repository \(not in the repository\)/);
  });

  test('the fix loop: the first code raises, the error goes back to the model, the second code works', async () => {
    fake.reply(codeReply("print('trying')\nresult = 1 / 0"), codeReply(TOTALS_CODE, 'Sorry, fixed:\n'));
    const before = fake.requests.length;
    const reply = await api.json({ ...SALES, problem: 'totals by region', enable_ai_generation: true });
    assert.equal(reply.success, true);
    assert.equal(reply.code, TOTALS_CODE);
    assert.equal(reply.attempts?.length, 2);
    assert.match(reply.attempts?.[0]?.error ?? '', /ZeroDivisionError: division by zero$/);
    assert.equal(reply.attempts?.[1]?.error, undefined);
    assert.deepEqual(reply.grid_update?.rows, [['East', 1], ['North', 12], ['South', 12.5]]);
    assert.equal(fake.requests.length, before + 2);
    const second = fake.requests.at(-1)!.body.messages;
    // The model sees its own first reply, then the real error and what was printed before it.
    assert.match(second.at(-2)!.content, /result = 1 \/ 0/);
    assert.equal(second.at(-2)!.role, 'assistant');
    assert.match(second.at(-1)!.content, /ZeroDivisionError: division by zero/);
    assert.match(second.at(-1)!.content, /trying/);
  });

  test('after 3 fixes that still raise: a failed reply with the last error, and no 5th call', async () => {
    fake.reply(...[1, 2, 3, 4].map((i) => codeReply(`raise ValueError('attempt ${i}')`)));
    const before = fake.requests.length;
    const reply = await api.json({ ...SALES, problem: 'something hard', enable_ai_generation: true });
    assert.equal(fake.requests.length, before + 4);
    assert.equal(reply.success, false);
    assert.equal(reply.status, 'failed');
    assert.equal(reply.attempts?.length, 4);
    const lastError = reply.attempts?.[3]?.error ?? '';
    assert.match(lastError, /ValueError: attempt 4$/);
    assert.equal(reply.message, aiPoweredFailedMessage(4, lastError));
    assert.deepEqual(reply.langchain_result, { status: 'failed', message: reply.message });
    assert.equal(reply.code, "raise ValueError('attempt 4')");
    assert.equal(reply.has_grid, false);
  });

  test('a model error: its text passed through, in JSON and as the stream’s last event; no code runs', async () => {
    const refusal = { status: 401, body: { error: { message: 'Incorrect API key provided: sk-fake.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    fake.reply(refusal);
    const reply = await api.json({ ...SALES, problem: 'sum it', enable_ai_generation: true });
    assert.equal(reply.success, false);
    assert.equal(reply.error, 'HTTP 401: Incorrect API key provided: sk-fake.');
    assert.deepEqual(reply.langchain_result, { status: 'failed', message: 'HTTP 401: Incorrect API key provided: sk-fake.' });
    assert.equal(reply.code, undefined);

    fake.reply(refusal);
    const events = await readHybridEvents(await api.post({ ...SALES, problem: 'sum it', enable_ai_generation: true }, { accept: 'text/event-stream' }));
    assert.deepEqual(events.map((e) => e.metadata.stage), ['analysis', 'code_generation', 'final_response']);
    assert.equal(events.at(-1)!.error, 'HTTP 401: Incorrect API key provided: sk-fake.');
    assert.equal(events.at(-1)!.finished, true);
  });

  test('Stop: closing the stream mid-answer cancels the request to the model', async () => {
    fake.reply({ chunks: Array.from({ length: 500 }, (_, i) => `# line ${i}\n`), pauseMs: 20 });
    const n = fake.requests.length + 1;
    const controller = new AbortController();
    const res = await api.post({ ...SALES, problem: 'a long one', enable_ai_generation: true }, { accept: 'text/event-stream' }, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /"stage":"analysis"/);
    const request = await fake.requestArrived(n);
    controller.abort();
    assert.equal(await request.ended, 'aborted');
    // The service goes on serving.
    assert.equal((await fetch(`${base}/health`)).status, 200);
  });

  test('bad bodies get 400 and nothing reaches the model or the runner', async () => {
    const before = fake.requests.length;
    const cases: Array<[unknown, string]> = [
      [{ ...SALES, enable_ai_generation: true, problem: 'x'.repeat(20_001) }, 'problem:'],
      [{ ...SALES, enable_ai_generation: true, files: 'lib/totals.py' }, 'files:'],
      [{ ...SALES, enable_ai_generation: true, conversation_context: [{ role: 'robot', content: 'hi' }] }, 'conversation_context.0.role:'],
      [{ enable_ai_generation: true, handsontable_data: { spreadsheet_data: { rows: [[{ nested: 1 }]] } } }, 'handsontable_data.spreadsheet_data.rows:'],
      [{ enable_ai_generation: 'yes' }, 'enable_ai_generation:'],
    ];
    for (const [body, start] of cases) {
      const res = await api.post(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      const error = ErrorBodySchema.parse(await res.json()).error;
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.message.startsWith(start), `${error.message} should start with ${start}`);
    }
    const noToken = await fetch(`${base}/hybrid/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enable_ai_generation: true }) });
    assert.equal(noToken.status, 401);
    assert.equal(fake.requests.length, before);
  });
});

describe('the 10-minute stream limit (here shortened)', () => {
  let issuer: TestIssuer;
  let fake: FakeOpenAi;
  let t: TestApp;
  let api: HybridClient;

  before(async () => {
    issuer = await startTestIssuer();
    fake = await startFakeOpenAi();
    t = await startTestApp(issuer.apiUrl, {
      provider: 'openai',
      openai: { baseUrl: fake.baseUrl, model: 'fake-coder-1', apiKey: undefined },
      runner: RUNNER,
      streamTimeoutMs: 1000,
    });
    api = await hybridClient(issuer, await t.app.listen({ host: '127.0.0.1', port: 0 }));
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await issuer?.close();
  });

  test('a model that never answers: the request to it is cancelled and the reply says the stream timed out', async () => {
    fake.reply({ hang: true });
    const reply = await api.json({ ...SALES, problem: 'anything', enable_ai_generation: true });
    assert.equal(reply.success, false);
    assert.equal(reply.error, 'Stream timed out after 1000 ms');
    assert.equal(await fake.requests.at(-1)!.ended, 'aborted');
  });
});

describe('AI Powered with builtin (no model): the documented requests, case by case', () => {
  const service = useHybridApp(() => ({ runner: RUNNER }));

  test('/config and /health say builtin, with no model', async () => {
    const base = service.app.app.listeningOrigin;
    const config = (await (await fetch(`${base}/config`)).json()) as { provider: string; model: string | null };
    assert.deepEqual([config.provider, config.model], ['builtin', null]);
    assert.deepEqual(ServiceHealthSchema.parse(await (await fetch(`${base}/health`)).json()).ai, { provider: 'builtin', model: null });
  });

  const ask = async (problem: string) => {
    const reply = await service.api.json({ ...SALES, problem, enable_ai_generation: true });
    assert.equal(reply.provider, 'builtin');
    assert.equal(reply.model, null);
    return reply;
  };

  test('total of Amount by Region (SSE): the stages, real Python, the right totals', async () => {
    const events = await readHybridEvents(await service.api.post({ ...SALES, problem: 'total of Amount by Region', enable_ai_generation: true }, { accept: 'text/event-stream' }));
    assert.deepEqual(events.map((e) => e.metadata.progress), [20, 40, 60, 80, 100]);
    assert.match(events[1]!.text, /Python written for: total of Amount by Region/);
    const reply = events.at(-1)!.metadata.response!;
    assert.equal(reply.success, true, reply.error);
    assert.deepEqual(reply.grid_update?.headers, ['Region', 'Total of Amount']);
    assert.deepEqual(reply.grid_update?.rows, [['East', 1], ['North', 12], ['South', 12.5]]);
    assert.match(reply.code ?? '', /^# Written by the built-in assistant \(no AI model\)/);
    assert.match(reply.code ?? '', /headers\.index\(name\)/);
  });

  test('describe: count, sum, mean, min, max, distinct of every column', async () => {
    const reply = await ask('describe the sheet');
    assert.deepEqual(reply.grid_update?.headers, ['Column', 'count', 'sum', 'mean', 'min', 'max', 'distinct']);
    assert.deepEqual(reply.grid_update?.rows, [
      ['Region', 5, null, null, 'East', 'South', 3],
      ['Product', 5, null, null, 'Cake', 'Tea', 3],
      ['Amount', 5, 25.5, 5.1, 1, 10, 5],
      ['Unit Price', 4, 12.25, 3.0625, 2.5, 4, 3],
    ]);
    assert.deepEqual((await ask('summarize Unit Price and region')).grid_update?.rows, [
      ['Unit Price', 4, 12.25, 3.0625, 2.5, 4, 3],
      ['Region', 5, null, null, 'East', 'South', 3],
    ]);
  });

  test('the total of a column; the average and the count by another', async () => {
    const total = await ask('total of Amount');
    assert.deepEqual(total.grid_update?.rows, [[25.5]]);
    assert.equal(total.execution_output, 'Total of Amount: 25.5\n');
    assert.deepEqual((await ask('average Unit Price by Region')).grid_update?.rows, [['East', 2.5], ['North', 2.875], ['South', 4]]);
    assert.deepEqual((await ask('count by Product')).grid_update?.rows, [['Cake', 1], ['Coffee', 1], ['Tea', 3]]);
  });

  test('sort by Amount descending: every row, numbers in text too, the empty one last', async () => {
    const reply = await ask('sort by Amount descending');
    assert.deepEqual(reply.grid_update?.headers, SALES.handsontable_data.spreadsheet_data.headers);
    assert.deepEqual(reply.grid_update?.rows, [ROWS[0], ROWS[4], ROWS[1], ROWS[2], ROWS[3], ROWS[5]]);
  });

  test('filter rows by a condition: a number, and a text whatever its case', async () => {
    assert.deepEqual((await ask('filter rows where Amount > 5')).grid_update?.rows, [ROWS[0], ROWS[1], ROWS[4]]);
    assert.deepEqual((await ask('rows where Region is north')).grid_update?.rows, [ROWS[0], ROWS[2]]);
  });

  test('top N by a column', async () => {
    assert.deepEqual((await ask('top 2 by Amount')).grid_update?.rows, [ROWS[0], ROWS[4]]);
    assert.deepEqual((await ask('bottom 1 by Unit Price')).grid_update?.rows, [ROWS[0]]);
  });

  test('a chart needs Matplotlib, which Pyodide lacks: an honest reply naming the numbers to ask for, and no code', async () => {
    const reply = await ask('chart of Amount by Region');
    assert.equal(reply.success, false);
    assert.equal(reply.message, "Charts need Matplotlib, which this server's Python (Pyodide) does not have. Ask for the numbers instead: total of Amount by Region");
    assert.equal(reply.code, undefined);
  });

  test('a column the sheet lacks, or a request it does not know: an honest reply and no code', async () => {
    const unknownColumn = await ask('sort by Colour');
    assert.equal(unknownColumn.success, false);
    assert.equal(unknownColumn.message, 'This sheet has no column named "Colour"; its columns are: Region, Product, Amount, Unit Price');
    assert.equal(unknownColumn.code, undefined);
    const poem = await ask('write a poem about the sales');
    assert.equal(poem.success, false);
    assert.equal(poem.message, NO_MODEL_CONFIGURED_MESSAGE);
    assert.equal(poem.code, undefined);
    // An empty prompt stands for the spec's default instruction, which builtin cannot do either.
    const empty = await ask('');
    assert.equal(empty.echo_prompt, AI_POWERED_DEFAULT_INSTRUCTION);
    assert.equal(empty.message, NO_MODEL_CONFIGURED_MESSAGE);
  });
});
