// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the answers.
// POST /hybrid/forward in Agent • Direct Exec, over a real loopback server with the real
// confined runner (root needed, as for the runner's own tests). Few jobs: each costs a Pyodide child.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DIRECT_EXEC_CODE_REQUIRED_MESSAGE,
  ErrorBodySchema,
  HYBRID_STAGES,
  HYBRID_STAGE_PROGRESS,
  HybridResponseSchema,
  ServiceHealthSchema,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { readHybridEvents } from './helpers/hybrid-client.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const SALES = {
  sheet_context: { id: 'sheet-1', name: 'Ventes – Zürich', rowCount: 4, columnCount: 2 },
  handsontable_data: {
    spreadsheet_data: {
      headers: ['Region', 'Amount'],
      rows: [
        ['North', 10],
        ['South', 5.5],
        ['North', 2],
        ['East', 1],
      ],
    },
  },
};
const TOTALS_CODE = [
  'totals = {}',
  'for r in records:',
  "    totals[r['Region']] = totals.get(r['Region'], 0) + r['Amount']",
  "print('regions:', len(totals))",
  "result = [{'Region': k, 'Total': v} for k, v in sorted(totals.items())]",
].join('\n');

describe('POST /hybrid/forward (Agent • Direct Exec)', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let auth: Record<string, string>;

  const post = (body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      ...init,
    });

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl, { runner: { engine: 'pyodide', timeoutMs: 4000, memoryMb: 256, poolSize: 1 } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    auth = { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` };
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('without a token: 401, and no code runs', async () => {
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...SALES, code: 'result = 1' }),
    });
    assert.equal(res.status, 401);
    assert.equal(ErrorBodySchema.parse(await res.json()).error.code, 'unauthorized');
  });

  test('bad bodies get 400 with a message naming the problem', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...SALES }, `code: ${DIRECT_EXEC_CODE_REQUIRED_MESSAGE}`],
      [{ ...SALES, code: '   ' }, `code: ${DIRECT_EXEC_CODE_REQUIRED_MESSAGE}`],
      [{ code: 'x' + 'y'.repeat(200_000) }, 'code:'],
      [{ code: 'result = 1', handsontable_data: { spreadsheet_data: { rows: [[{ nested: 1 }]] } } }, 'handsontable_data.spreadsheet_data.rows: must be a list of rows'],
      [{ code: 'result = 1', enable_ai_generation: 'no' }, 'enable_ai_generation:'],
      // 16,384 columns × 200 rows is past the 2,600,000-cell limit.
      [
        {
          code: 'result = 1',
          handsontable_data: { spreadsheet_data: { headers: Array.from({ length: 16_384 }, (_, i) => `c${i}`), rows: Array.from({ length: 200 }, () => [1]) } },
        },
        'handsontable_data.spreadsheet_data: the sheet has 3276800 cells (rows × columns); at most 2600000 can be sent',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      const error = ErrorBodySchema.parse(await res.json()).error;
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.message.startsWith(message), `${error.message} should start with ${message}`);
    }
  });

  test('a JSON reply: the hybrid response with the computed grid', async () => {
    const res = await post({ ...SALES, problem: '', code: TOTALS_CODE, enable_ai_generation: false, merge_timeline: false });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const reply = HybridResponseSchema.parse(await res.json());
    assert.equal(reply.success, true);
    assert.equal(reply.status, 'success');
    assert.equal(reply.error, undefined);
    assert.equal(reply.execution_output, 'regions: 3\n');
    assert.equal(reply.has_grid, true);
    const totals = [
      ['East', 1],
      ['North', 12],
      ['South', 5.5],
    ];
    assert.deepEqual(reply.grid_update?.headers, ['Region', 'Total']);
    assert.deepEqual(reply.grid_update?.rows, totals);
    assert.equal(reply.grid_update?.updated, true);
    assert.equal(reply.grid_update?.source, 'list_of_objects');
    assert.match(reply.grid_update?.metadata.hash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(reply.handsontable_data, { spreadsheet_data: { headers: ['Region', 'Total'], rows: totals } });
    assert.equal(reply.langchain_result.status, 'success');
  });

  test('Server-Sent Events: the stages in order, 20 to 100, the last one finished with the response', async () => {
    const res = await post({ ...SALES, code: "result = sheet['name'] + ': ' + str(len(rows))" }, { accept: 'text/event-stream' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(res.headers.get('x-request-id'), 'the request id survives the hijacked reply');
    const events = await readHybridEvents(res);
    assert.deepEqual(
      events.map((e) => [e.metadata.stage, e.metadata.progress]),
      HYBRID_STAGES.map((stage) => [stage, HYBRID_STAGE_PROGRESS[stage]]),
    );
    assert.deepEqual(events.map((e) => e.metadata.progress), [20, 40, 60, 80, 100]);
    assert.ok(events.slice(0, -1).every((e) => !e.finished && e.error === null && e.metadata.workflow_complete === undefined));
    assert.ok(events.every((e) => e.metadata.ui.text === e.text && e.text.length > 0));
    const last = events.at(-1)!;
    assert.equal(last.finished, true);
    assert.equal(last.metadata.workflow_complete, true);
    assert.equal(last.error, null);
    assert.equal(last.metadata.response?.success, true);
    assert.equal(last.metadata.response?.result, 'Ventes – Zürich: 4');
    assert.equal(last.metadata.response?.has_grid, false);
  });

  test('a client that closes the stream stops waiting; the service goes on serving', async () => {
    const controller = new AbortController();
    const res = await post({ ...SALES, code: 'result = len(rows)' }, { accept: 'text/event-stream' }, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /^data: .*"stage":"analysis"/);
    controller.abort(); // Stop: the job may still finish in the runner, its events go nowhere
    await assert.rejects(reader.read());
    // The next job (in the next test) and /health are answered as usual.
    assert.equal((await fetch(`${base}/health`)).status, 200);
  });

  test('a Python error: 200 with success false and the traceback, in JSON and as the stream’s last event', async () => {
    const code = "print('before')\ndef f(x):\n    return x / 0\nf(1)";
    const res = await post({ ...SALES, code });
    assert.equal(res.status, 200);
    const reply = HybridResponseSchema.parse(await res.json());
    assert.equal(reply.success, false);
    assert.equal(reply.status, 'failed');
    assert.equal(reply.execution_output, 'before\n');
    assert.match(reply.error ?? '', /File "<code>", line 3, in f/);
    assert.match(reply.error ?? '', /ZeroDivisionError: division by zero$/);
    assert.deepEqual(reply.langchain_result, { status: 'failed', message: reply.error });
    assert.equal(reply.has_grid, false);

    const streamed = await readHybridEvents(await post({ ...SALES, code }, { accept: 'text/event-stream' }));
    const last = streamed.at(-1)!;
    assert.equal(last.metadata.stage, 'final_response');
    assert.equal(last.finished, true);
    assert.match(last.error ?? '', /ZeroDivisionError: division by zero$/);
    assert.equal(last.metadata.response?.success, false);
  });

  test('/health reports the code runner once the service listens', async () => {
    const res = await fetch(`${base}/health`);
    const health = ServiceHealthSchema.parse(await res.json());
    assert.equal(health.checks?.code_runner, 'ok');
  });

  test('/metrics times the runner’s jobs by outcome (the jobs above: computed grids and Python errors)', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const count = (outcome: string) =>
      Number(new RegExp(`^code_runner_job_duration_seconds_count\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    assert.ok(count('ok') >= 2, text);
    assert.ok(count('error') >= 2, text);
  });
});
