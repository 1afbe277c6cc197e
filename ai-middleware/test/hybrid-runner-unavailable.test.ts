// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the answer when no runner is available.
// A code runner that cannot run code (it refuses to run unconfined) stops only what needs it:
// Direct Exec and /hybrid/backward answer 503 with its reason; a schedule (typed in AI Powered
// or given as parameters.optimization) is still solved; AI Powered code fails with the reason,
// without asking the model for fixes that cannot help.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorBodySchema } from '@tessera/contracts';
import { useHybridApp } from './helpers/hybrid-client.js';
import { type FakeOpenAi, codeReply, startFakeOpenAi } from './support/fake-openai.js';

const REFUSAL = 'The code runner refuses to run code unconfined. It needs root (test refusal).';
const REFUSED = { runnerCommand: { refused: REFUSAL } };
const RUNNER = { engine: 'pyodide' as const, timeoutMs: 4000, memoryMb: 256, poolSize: 1 };
const SHEET = { handsontable_data: { spreadsheet_data: { headers: ['Region', 'Amount'], rows: [['North', 10], ['South', 5]] } } };
const SCHEDULE = 'schedule 3 doctors over 7 days, 1 on day shift and 1 on night shift';

describe('with the builtin assistant and a refused runner', () => {
  const service = useHybridApp(() => ({ runner: RUNNER }), REFUSED);

  test('Direct Exec → 503 code_runner_unavailable with the reason; /hybrid/backward too', async () => {
    const res = await service.api.post({ ...SHEET, code: 'result = 1', enable_ai_generation: false });
    assert.equal(res.status, 503);
    const body = ErrorBodySchema.parse(await res.json());
    assert.equal(body.error.code, 'code_runner_unavailable');
    assert.equal(body.error.message, REFUSAL);

    const backward = await service.api.call('POST', '/hybrid/backward', {
      ...SHEET,
      code: 'result = df',
      edited_data: { headers: ['Region', 'Amount'], rows: [['North', 11]] },
    });
    assert.equal(backward.status, 503);
    assert.equal(ErrorBodySchema.parse(await backward.json()).error.message, REFUSAL);
  });

  test('a schedule typed in AI Powered is solved: no runner needed', async () => {
    const response = await service.api.json({ ...SHEET, problem: SCHEDULE, enable_ai_generation: true });
    assert.equal(response.success, true, response.message);
    assert.equal(response.handsontable_data?.spreadsheet_data.rows.length, 3);
    assert.ok(response.schedule);
  });

  test('a schedule in parameters.optimization is solved in Direct Exec too', async () => {
    const response = await service.api.json({
      enable_ai_generation: false,
      parameters: {
        optimization: {
          kind: 'schedule',
          problem: {
            staff: [1, 2].map((n) => ({ id: `DR0${n}`, name: `Doctor ${n}` })),
            horizon: { days: 7 },
            shift_types: [{ code: 'D', name: 'Day', start_hour: 7, hours: 12 }],
            coverage: { default: { D: 1 } },
          },
        },
      },
    });
    assert.equal(response.success, true, response.message);
    assert.equal(response.handsontable_data?.spreadsheet_data.rows.length, 2);
  });

  test('a sheet request in AI Powered (the builtin writes code) fails with the reason, as a hybrid response', async () => {
    const response = await service.api.json({ ...SHEET, problem: 'sort by Amount', enable_ai_generation: true });
    assert.equal(response.success, false);
    assert.equal(response.error, REFUSAL);
    assert.equal(response.attempts?.length, 1);
  });
});

describe('with a model and a refused runner', () => {
  let fake: FakeOpenAi;
  before(async () => {
    fake = await startFakeOpenAi();
  });
  after(async () => {
    await fake?.close();
  });
  const service = useHybridApp(
    () => ({ provider: 'openai', openai: { baseUrl: fake.baseUrl, model: 'fake-coder-1', apiKey: 'sk-fake' }, runner: RUNNER }),
    REFUSED,
  );

  test('the model’s code is not run and the model is not asked to fix it: one request, the reason as the error', async () => {
    fake.reply(codeReply('result = df.sort_values("Amount")'), codeReply('result = df'));
    const before = fake.requests.length;
    const response = await service.api.json({ ...SHEET, problem: 'sort by Amount', enable_ai_generation: true });
    assert.equal(response.success, false);
    assert.match(response.error ?? '', /refuses to run code unconfined/);
    assert.equal(fake.requests.length, before + 1);
    assert.equal(response.attempts?.length, 1);
  });
});
