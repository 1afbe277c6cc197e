// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the schedules solved.
// Schedule requests on POST /hybrid/forward over a real loopback server with the real HiGHS
// solver: the builtin assistant's phrases (P1–P3 of the agreed requests), a staff list on the
// sheet, JSON parameters (parameters.optimization, also 'Retry with Simpler Requirements'),
// and a model (the openai provider against a fake OpenAI-compatible server) filling the schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ErrorBodySchema,
  type HybridResponse,
  MAX_SOLVER_RETRIES,
  SCHEDULE_GRID_SOURCE,
  SessionReplySchema,
  solverFailedMessage,
} from '@tessera/contracts';
import { useHybridApp } from './helpers/hybrid-client.js';
import { type FakeOpenAi, type FakeReply, startFakeOpenAi } from './support/fake-openai.js';

const RUNNER = { engine: 'pyodide' as const, timeoutMs: 4000, memoryMb: 256, poolSize: 1 };
const P1 = 'schedule 12 doctors over 28 days, 2 on day shift and 1 on night shift, at most 6 days in a row';
const P2 = 'schedule 3 doctors over 28 days, 2 on night shift, at most 8 nights each';
const P3 = 'schedule the doctors on this sheet over 14 days, 1 on day shift and 1 on night shift';
const DAYS_28 = Array.from({ length: 28 }, (_, i) => String(i + 1));

/** P2's problem as a client would send it in parameters.optimization. */
const P2_PROBLEM = {
  staff: [1, 2, 3].map((n) => ({ id: `DR0${n}`, name: `Doctor ${n}` })),
  horizon: { days: 28 },
  shift_types: [{ code: 'N', name: 'Night', start_hour: 23, hours: 8, night: true, max_per_staff: 8 }],
  coverage: { default: { N: 2 } },
};

const STAFF_SHEET = {
  sheet_context: { name: 'Team', rowCount: 4, columnCount: 4 },
  handsontable_data: {
    spreadsheet_data: {
      headers: ['Doctor ID', 'Doctor Name', 'Unavailable days', 'Max shifts'],
      rows: [
        ['A1', 'Ada Lovelace', '3, 4', 10],
        ['G2', 'Grace Hopper', '', ''],
        [null, null, null, null],
        ['T3', 'Alan Turing', '5-7', '9'],
        ['K4', 'Katherine Johnson', '', 8],
      ],
    },
  },
};

/** Each day column's shift codes counted: { D: n, N: m } per day. */
function perDay(response: HybridResponse): Array<Record<string, number>> {
  const grid = response.handsontable_data!.spreadsheet_data;
  const days = grid.headers.filter((h) => /^\d{1,2}$/.test(h));
  return days.map((day) => {
    const column = grid.headers.indexOf(day);
    const counts: Record<string, number> = {};
    for (const row of grid.rows) {
      const cell = row[column];
      if (typeof cell === 'string' && cell) counts[cell] = (counts[cell] ?? 0) + 1;
    }
    return counts;
  });
}

describe('schedule requests with the builtin assistant, and JSON parameters', () => {
  const service = useHybridApp(() => ({ runner: RUNNER }));

  test('P1 (JSON reply): solved; the grid is Doctor ID, Doctor Name, 1..28, Total D, Total N with 12 rows; every day 2 D and 1 N; no proposal', async () => {
    const session = (await (await service.api.call('POST', '/vertex/user-sessions', { action: 'create', session_name: 'Rota' })).json()) as { session: { session_id: string } };
    const response = await service.api.json({
      problem: P1,
      enable_ai_generation: true,
      // A sheet id: merge_timeline is on, yet a schedule is a new sheet, not the sheet's next version.
      sheet_id: 'sheet-1',
      session_id: session.session.session_id,
      // Even an active sheet with the schedule's own headers (the last schedule) gets no proposal.
      handsontable_data: { spreadsheet_data: { headers: ['Doctor ID', 'Doctor Name', ...DAYS_28, 'Total D', 'Total N'], rows: [] } },
    });
    assert.equal(response.success, true, response.message);
    assert.equal(response.status, 'success');
    assert.equal(response.mode, 'agent-ai');
    assert.equal(response.provider, 'builtin');
    assert.equal(response.model, null);
    assert.equal(response.echo_prompt, P1);
    assert.equal(response.has_grid, true);
    assert.equal(response.grid_update?.source, SCHEDULE_GRID_SOURCE);
    assert.equal(response.snapshot, undefined);
    const grid = response.handsontable_data!.spreadsheet_data;
    assert.deepEqual(grid.headers, ['Doctor ID', 'Doctor Name', ...DAYS_28, 'Total D', 'Total N']);
    assert.equal(grid.rows.length, 12);
    assert.deepEqual(grid.rows.map((row) => row[0]), Array.from({ length: 12 }, (_, i) => `DR${String(i + 1).padStart(2, '0')}`));
    assert.equal(grid.rows[0]![1], 'Doctor 1');
    for (const [i, counts] of perDay(response).entries()) assert.deepEqual(counts, { D: 2, N: 1 }, `day ${i + 1}`);
    assert.deepEqual(response.solver_status, { working_status: 'success', retry_count: 0, max_retries: MAX_SOLVER_RETRIES });
    assert.equal(response.schedule?.problem.rules.max_consecutive_days, 6);
    assert.deepEqual(response.schedule?.problem.shift_types.map((s) => [s.code, s.start_hour, s.hours]), [['D', 7, 12], ['N', 19, 12]]);
    assert.equal(response.backend_solver?.result.success, true);
    assert.match(response.execution_output, /^Solve \(relaxation level 0\): (optimal|feasible)/);

    // The turn is in the session, as a code turn would be.
    const switched = await service.api.call('POST', '/vertex/user-sessions', { action: 'switch', session_id: session.session.session_id });
    const stored = SessionReplySchema.parse(await switched.json());
    assert.deepEqual(stored.messages?.map((m) => m.role), ['user', 'assistant']);
    assert.equal(stored.messages?.[0]!.content, P1);
    assert.equal(stored.messages?.[1]!.content.split('\n')[0], response.message);
    assert.equal(stored.session.context_summary, P1);
    assert.deepEqual(stored.session.tags, ['AI Powered']);
  });

  test('P1 over SSE: the stages in order, the success status, then final_response with the whole response', async () => {
    const events = await service.api.stream({ problem: P1, enable_ai_generation: true });
    const stages = events.map((e) => e.metadata.stage);
    assert.equal(stages[0], 'analysis');
    assert.ok(stages.includes('code_generation'));
    assert.deepEqual(stages.slice(-3), ['frontend_panels', 'handsontable_updates', 'final_response']);
    const progress = events.map((e) => e.metadata.progress);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progress never goes back');
    assert.deepEqual(events.filter((e) => e.metadata.solver_status).map((e) => e.metadata.solver_status!.working_status), ['success']);
    const last = events.at(-1)!;
    assert.equal(last.finished, true);
    assert.equal(last.metadata.workflow_complete, true);
    assert.equal(last.metadata.response?.success, true);
    assert.equal(last.metadata.response?.handsontable_data?.spreadsheet_data.rows.length, 12);
    assert.equal(events.slice(0, -1).every((e) => !e.finished), true);
  });

  test('P2 over SSE: retrying 1, 2, 3 in order, then failed with retry_exceeded, the spec message and the numbers', async () => {
    const events = await service.api.stream({ problem: P2, enable_ai_generation: true });
    const statuses = events.filter((e) => e.metadata.solver_status).map((e) => e.metadata.solver_status!);
    assert.deepEqual(statuses, [
      { working_status: 'retrying', retry_count: 1, max_retries: 3 },
      { working_status: 'retrying', retry_count: 2, max_retries: 3 },
      { working_status: 'retrying', retry_count: 3, max_retries: 3 },
      { working_status: 'failed', retry_count: 3, max_retries: 3 },
    ]);
    assert.match(events.find((e) => e.metadata.solver_status?.retry_count === 1)!.text, /attempt 1 of 3/);
    const last = events.at(-1)!;
    assert.equal(last.metadata.stage, 'final_response');
    const response = last.metadata.response!;
    assert.equal(response.success, false);
    assert.equal(response.status, 'failed');
    assert.equal(response.retry_exceeded, true);
    assert.equal(response.message, solverFailedMessage(3));
    assert.equal(response.langchain_result.message, solverFailedMessage(3));
    assert.equal(last.error, solverFailedMessage(3));
    const actions = (response.suggested_actions ?? []).join('\n');
    assert.match(actions, /\b56\b/);
    assert.match(actions, /\b24\b/);
    assert.equal(response.rollback_option?.available, true);
    assert.equal(response.has_grid, false);
    assert.equal(response.schedule?.attempts.length, 4);
  });

  test('parameters.optimization: P2 at relaxation level 4 with manual_retry (Retry with Simpler Requirements) solves, nights left uncovered; no code needed', async () => {
    const response = await service.api.json({
      enable_ai_generation: false,
      parameters: { optimization: { kind: 'schedule', problem: P2_PROBLEM, relaxation_level: 4, manual_retry: true } },
    });
    assert.equal(response.success, true, response.message);
    assert.equal(response.mode, 'agent-direct');
    assert.equal(response.provider, undefined);
    assert.equal(response.schedule?.manual_retry, true);
    assert.equal(response.schedule?.relaxation_level, 4);
    assert.equal(response.schedule?.attempts.length, 1);
    const uncovered = response.backend_solver?.schedule_formatted_json?.uncovered ?? [];
    // 56 doctor-nights needed; 3 doctors can work at most 30 even with the limits raised.
    assert.ok(uncovered.reduce((sum, u) => sum + u.missing, 0) >= 26, JSON.stringify(uncovered));
    assert.ok(uncovered.every((u) => u.shift === 'N'));
    assert.deepEqual(response.handsontable_data?.spreadsheet_data.headers, ['Doctor ID', 'Doctor Name', ...DAYS_28, 'Total N']);

    // The same in AI Powered: solved as given, with who answers kept.
    const ai = await service.api.json({
      problem: 'Retry with Simpler Requirements',
      enable_ai_generation: true,
      parameters: { optimization: { kind: 'schedule', problem: P2_PROBLEM, relaxation_level: 4, manual_retry: true } },
    });
    assert.equal(ai.success, true);
    assert.equal(ai.mode, 'agent-ai');
    assert.equal(ai.provider, 'builtin');
    assert.equal(ai.echo_prompt, 'Retry with Simpler Requirements');
  });

  test('a bad parameters.optimization → 400 naming the zod path; nothing is solved', async () => {
    const res = await service.api.post({
      enable_ai_generation: false,
      parameters: { optimization: { kind: 'schedule', problem: { ...P2_PROBLEM, horizon: { days: 0 } } } },
    });
    assert.equal(res.status, 400);
    const body = ErrorBodySchema.parse(await res.json());
    assert.match(body.error.message, /parameters\.optimization\.problem\.horizon\.days/);
    const unknownShift = await service.api.post({
      enable_ai_generation: true,
      parameters: { optimization: { kind: 'schedule', problem: { ...P2_PROBLEM, coverage: { default: { X: 1 } } } } },
    });
    assert.equal(unknownShift.status, 400);
    assert.match(ErrorBodySchema.parse(await unknownShift.json()).error.message, /parameters\.optimization\.problem\.coverage\.default\.X: unknown shift code X/);
  });

  test('P3 with a staff list on the sheet: the sheet\'s people, their unavailable days and max shifts, in the grid', async () => {
    const response = await service.api.json({ ...STAFF_SHEET, problem: P3, enable_ai_generation: true });
    assert.equal(response.success, true, response.message);
    const grid = response.handsontable_data!.spreadsheet_data;
    assert.deepEqual(grid.rows.map((row) => [row[0], row[1]]), [
      ['A1', 'Ada Lovelace'],
      ['G2', 'Grace Hopper'],
      ['T3', 'Alan Turing'],
      ['K4', 'Katherine Johnson'],
    ]);
    assert.equal(grid.headers.length, 2 + 14 + 2);
    const ada = grid.rows[0]!;
    assert.equal(ada[grid.headers.indexOf('3')] ?? null, null, 'Ada is off on day 3');
    assert.equal(ada[grid.headers.indexOf('4')] ?? null, null, 'Ada is off on day 4');
    const turing = grid.rows[2]!;
    for (const day of ['5', '6', '7']) assert.ok(!turing[grid.headers.indexOf(day)], `Alan is off on day ${day}`);
    const formatted = response.backend_solver!.schedule_formatted_json!;
    assert.ok(formatted.staff.find((s) => s.id === 'K4')!.shifts.filter(Boolean).length <= 8);
    for (const counts of perDay(response)) assert.deepEqual(counts, { D: 1, N: 1 });
  });

  test('a staff sheet with a bad Max shifts cell → a failed reply naming the row and the column; a sheet with no staff and no count → how to say it', async () => {
    const rows = STAFF_SHEET.handsontable_data.spreadsheet_data.rows.map((row) => [...row]);
    rows[3]![3] = 'nine';
    const bad = await service.api.json({ ...STAFF_SHEET, handsontable_data: { spreadsheet_data: { ...STAFF_SHEET.handsontable_data.spreadsheet_data, rows } }, problem: P3, enable_ai_generation: true });
    assert.equal(bad.success, false);
    assert.equal(bad.message, 'The staff list on the sheet: Row 4, column "Max shifts": "nine" is not a whole number of shifts from 0 to 99');
    assert.equal(bad.langchain_result.message, bad.message);
    assert.equal(bad.schedule, undefined);

    const none = await service.api.json({ problem: P3, enable_ai_generation: true, handsontable_data: { spreadsheet_data: { headers: ['Region'], rows: [['North']] } } });
    assert.equal(none.success, false);
    assert.match(none.message, /^no staff count: say "schedule 12 doctors \.\.\."/);
  });
});

/** A reply whose text is this JSON in a ```schedule-json block. */
function scheduleReply(json: string): FakeReply {
  return { chunks: ['Here is the problem:\n```schedule-json\n', json, '\n```\n'] };
}

describe('schedule requests with a model (openai provider, fake OpenAI-compatible server)', () => {
  let fake: FakeOpenAi;
  before(async () => {
    fake = await startFakeOpenAi();
  });
  after(async () => {
    await fake?.close();
  });
  const service = useHybridApp(() => ({ provider: 'openai', openai: { baseUrl: fake.baseUrl, model: 'fake-planner-1', apiKey: 'sk-fake' }, runner: RUNNER }));

  test('the model answers a schedule-json block → validated and solved; the model was shown the schema', async () => {
    const problem = {
      staff: Array.from({ length: 6 }, (_, i) => ({ id: `N${i + 1}`, name: `Nurse ${i + 1}` })),
      horizon: { days: 14, start_date: '2026-12-07' },
      shift_types: [
        { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
        { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true },
      ],
      coverage: { default: { D: 1, N: 1 } },
      rules: { max_consecutive_days: 5 },
    };
    fake.reply(scheduleReply(JSON.stringify(problem, null, 2)));
    const before = fake.requests.length;
    const events = await service.api.stream({ problem: 'roster 6 nurses for two weeks from 7 December, one on days and one on nights', enable_ai_generation: true });
    const response = events.at(-1)!.metadata.response!;
    assert.equal(response.success, true, response.message);
    assert.equal(response.provider, 'openai');
    assert.equal(response.model, 'fake-planner-1');
    assert.equal(response.handsontable_data?.spreadsheet_data.rows.length, 6);
    assert.deepEqual(response.attempts?.map((a) => a.error), [undefined]);
    assert.equal(response.schedule?.problem.horizon.start_date, '2026-12-07');
    assert.equal(fake.requests.length, before + 1);
    const system = fake.requests.at(-1)!.body.messages[0]!.content;
    assert.match(system, /```schedule-json/);
    assert.match(system, /"shift_types"/);
  });

  test('invalid JSON first, then a problem that breaks the schema, then a valid one → solved after two fixes, each error sent back', async () => {
    const valid = { ...P2_PROBLEM, staff: Array.from({ length: 8 }, (_, i) => ({ id: `DR${i + 1}`, name: `Doctor ${i + 1}` })) };
    fake.reply(scheduleReply('{"staff": [,]}'), scheduleReply(JSON.stringify({ ...valid, horizon: { days: 120 } })), scheduleReply(JSON.stringify(valid)));
    const before = fake.requests.length;
    const response = await service.api.json({ problem: 'schedule 8 doctors over 28 days with 2 on nights', enable_ai_generation: true });
    assert.equal(response.success, true, response.message);
    assert.equal(fake.requests.length, before + 3);
    assert.equal(response.attempts?.length, 3);
    assert.match(response.attempts![0]!.error!, /not valid JSON/);
    assert.match(response.attempts![1]!.error!, /horizon\.days/);
    assert.equal(response.attempts![2]!.error, undefined);
    const secondAsk = fake.requests[before + 1]!.body.messages.at(-1)!.content;
    assert.match(secondAsk, /not valid JSON/);
    assert.match(secondAsk, /```schedule-json/);
    const thirdAsk = fake.requests[before + 2]!.body.messages.at(-1)!.content;
    assert.match(thirdAsk, /- horizon\.days: /);
  });

  test('"staff" left out with a staff list on the sheet → the sheet\'s people are scheduled', async () => {
    fake.reply(scheduleReply(JSON.stringify({ horizon: { days: 14 }, shift_types: [{ code: 'D', name: 'Day', start_hour: 7, hours: 8 }], coverage: { default: { D: 1 } } })));
    const response = await service.api.json({ ...STAFF_SHEET, problem: 'schedule the people on this sheet, one a day for 14 days', enable_ai_generation: true });
    assert.equal(response.success, true, response.message);
    assert.deepEqual(response.handsontable_data?.spreadsheet_data.rows.map((row) => row[1]), ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson']);
  });

  test('a problem still invalid after 3 fixes → failed, naming the attempts and the last issues', async () => {
    const bad = scheduleReply('{"horizon": {"days": 7}}');
    fake.reply(bad, bad, bad, bad);
    const response = await service.api.json({ problem: 'schedule something', enable_ai_generation: true });
    assert.equal(response.success, false);
    assert.match(response.message, /^The schedule problem was still invalid after 4 attempts: /);
    assert.equal(response.attempts?.length, 4);
    assert.equal(response.code, undefined);
  });
});
