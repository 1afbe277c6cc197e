// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the answers.
// Spec 02 §5's grid filters through a real Agent • Direct Exec run (POST /hybrid/forward over
// loopback, the real confined runner; root needed, as for the runner's own tests): what the code
// prints becomes a grid only when it looks like a schedule, solver debug logs are noise, a
// `result` grid is kept, and FEATURE_ENHANCED_TABLE_PARSING=false turns the printed-output parsing off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DEFAULT_FLAGS,
  type HybridResponse,
  HybridResponseSchema,
  PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE,
  RESULT_GRID_NOISE_MESSAGE,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const SHEET = { handsontable_data: { spreadsheet_data: { headers: ['Doctor', 'Team'], rows: [['Alice', 'A'], ['Bob', 'B']] } }, merge_timeline: false };
/** A solver script's output: its log, then the schedule as CSV (no `result`). */
const PRINTS_SCHEDULE = [
  "print('Running HiGHS 1.7.0 (git hash: 50670fd): Copyright (c) 2024')",
  "print('Coefficient ranges:')",
  "print('  Matrix [1e+00, 1e+00]')",
  'print()',
  "print('Doctor ID,Doctor Name,1,2,3')",
  'for i, r in enumerate(rows):',
  "    print(f'D{i + 1},{r[0]},M,N,O')",
].join('\n');

describe('POST /hybrid/forward: printed output → grid, with the schedule-shape and noise filters', () => {
  let issuer: TestIssuer;
  let auth: Record<string, string>;
  const apps: TestApp[] = [];

  async function start(overrides: Parameters<typeof startTestApp>[1] = {}): Promise<string> {
    const t = await startTestApp(issuer.apiUrl, { runner: { engine: 'pyodide', timeoutMs: 4000, memoryMb: 256, poolSize: 1 }, ...overrides });
    apps.push(t);
    return t.app.listen({ host: '127.0.0.1', port: 0 });
  }
  async function directExec(base: string, code: string): Promise<HybridResponse> {
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...SHEET, code, enable_ai_generation: false }),
    });
    assert.equal(res.status, 200);
    return HybridResponseSchema.parse(await res.json());
  }

  before(async () => {
    issuer = await startTestIssuer();
    auth = { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` };
  });
  after(async () => {
    for (const t of apps) await t.close();
    await issuer?.close();
  });

  describe('enhanced table parsing on (the default)', () => {
    let base: string;
    before(async () => {
      base = await start();
    });

    test('a printed schedule becomes the grid (csv_parsed); the log above it is left out, the output stays as printed', async () => {
      const reply = await directExec(base, PRINTS_SCHEDULE);
      assert.equal(reply.success, true);
      assert.equal(reply.result, null);
      assert.equal(reply.has_grid, true);
      assert.equal(reply.grid_update?.source, 'csv_parsed');
      assert.deepEqual(reply.handsontable_data?.spreadsheet_data, {
        headers: ['Doctor ID', 'Doctor Name', '1', '2', '3'],
        rows: [
          ['D1', 'Alice', 'M', 'N', 'O'],
          ['D2', 'Bob', 'M', 'N', 'O'],
        ],
      });
      assert.match(reply.execution_output, /^Running HiGHS 1\.7\.0/);
      assert.equal(reply.message, 'Code executed: a grid of 2 rows × 5 columns (parsed from the printed output)');
    });

    test("a printed table that is not a schedule: no grid, and the reply says 'Parsed output ignored (not a schedule)'", async () => {
      const reply = await directExec(base, "print('| Team | Doctors |')\nprint('|---|---|')\nprint('| A | 1 |')\nprint('| B | 1 |')");
      assert.equal(reply.success, true);
      assert.equal(reply.has_grid, false);
      assert.equal(reply.grid_update, undefined);
      assert.deepEqual(reply.grid_discarded, { reason: 'not_a_schedule', message: PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE });
      assert.equal(reply.message, 'Code executed. Parsed output ignored (not a schedule)');
      assert.equal(reply.langchain_result.message, reply.message);
      assert.match(reply.execution_output, /\| A \| 1 \|/);
    });

    test('a result grid is kept though it is no schedule, and the printed schedule is then not read', async () => {
      const reply = await directExec(base, `${PRINTS_SCHEDULE}\nresult = [{'Team': r[1], 'Doctor': r[0]} for r in rows]`);
      assert.equal(reply.has_grid, true);
      assert.equal(reply.grid_update?.source, 'list_of_objects');
      assert.deepEqual(reply.handsontable_data?.spreadsheet_data.headers, ['Team', 'Doctor']);
    });

    test('a result grid that is a solver debug log is discarded as noise', async () => {
      const reply = await directExec(base, "result = [['Running HiGHS 1.7.0'], ['Presolving model'], ['Iteration 1: obj = 5'], ['Status: Optimal']]");
      assert.equal(reply.success, true);
      assert.equal(reply.has_grid, false);
      assert.deepEqual(reply.grid_discarded, { reason: 'solver_debug_log', message: RESULT_GRID_NOISE_MESSAGE });
      assert.equal(reply.message, `Code executed. ${RESULT_GRID_NOISE_MESSAGE}`);
    });
  });

  test('FEATURE_ENHANCED_TABLE_PARSING=false: printed output is not parsed (no grid, no message)', async () => {
    const base = await start({ flags: { ...DEFAULT_FLAGS, enhancedTableParsing: false } });
    const reply = await directExec(base, PRINTS_SCHEDULE);
    assert.equal(reply.success, true);
    assert.equal(reply.has_grid, false);
    assert.equal(reply.grid_discarded, undefined);
    assert.equal(reply.message, 'Code executed');
    assert.match(reply.execution_output, /Doctor ID,Doctor Name,1,2,3/);
  });
});
