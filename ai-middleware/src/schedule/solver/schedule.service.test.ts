import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_SOLVER_RETRIES,
  SCHEDULE_GRID_SOURCE,
  SCHEDULE_RELAXATIONS,
  ScheduleRunSchema,
  solverFailedMessage,
  type SolverStatus,
} from '@tessera/contracts';
import { checkSchedule } from '../check/schedule-checker.js';
import { liveSolveWorkers } from './highs-runner.js';
import { coverageIsSoft, relaxProblem } from './relaxation.js';
import { solveSchedule } from './schedule.service.js';
import { largeRoster, optimization, threeDoctorsOneANight, threeDoctorsTwoANight, tenByFourteen } from './solver-test-problems.js';

/** The schedule a reply carries, as the checker reads it (assignment[s][d − 1]). */
function assignmentOf(reply: Awaited<ReturnType<typeof solveSchedule>>): (string | null)[][] {
  const formatted = reply.backend_solver?.schedule_formatted_json;
  assert.ok(formatted, 'the reply carries the formatted schedule');
  return formatted.staff.map((member) => member.shifts);
}

test('10 doctors × 14 days × D/N with every rule on: optimal at once, a grid of 10 rows, and the checker finds nothing wrong', async () => {
  const request = optimization(tenByFourteen());
  const statuses: SolverStatus[] = [];
  const reply = await solveSchedule(request, { onStatus: (status) => statuses.push(status) });
  assert.equal(reply.success, true, reply.message);
  assert.equal(reply.status, 'success');
  assert.deepEqual(statuses, [], 'no retry was needed');
  assert.deepEqual(reply.solver_status, { working_status: 'success', retry_count: 0, max_retries: MAX_SOLVER_RETRIES });
  assert.equal(reply.backend_solver?.result.status, 'optimal');
  assert.equal(reply.backend_solver?.result.success, true);
  assert.match(reply.message, /optimal/);
  assert.deepEqual(checkSchedule(request.problem, assignmentOf(reply)), []);

  assert.equal(reply.has_grid, true);
  const grid = reply.grid_update!;
  assert.equal(grid.source, SCHEDULE_GRID_SOURCE);
  assert.equal(grid.rows.length, 10);
  assert.deepEqual(grid.headers.slice(0, 2), ['Doctor ID', 'Doctor Name']);
  assert.deepEqual(grid.headers.slice(2, 16), Array.from({ length: 14 }, (_, i) => String(i + 1)));
  assert.deepEqual(reply.handsontable_data?.spreadsheet_data, { headers: grid.headers, rows: grid.rows });
  // Every day has its headcount: 2 D (1 on Sundays) and 1 N.
  const assignment = assignmentOf(reply);
  for (let day = 1; day <= 14; day++) {
    const worked = assignment.map((shifts) => shifts[day - 1]);
    assert.equal(worked.filter((code) => code === 'D').length, day % 7 === 0 ? 1 : 2, `day ${day} D`);
    assert.equal(worked.filter((code) => code === 'N').length, 1, `day ${day} N`);
  }
  const run = ScheduleRunSchema.parse(reply.schedule);
  assert.equal(run.relaxation_level, 0);
  assert.deepEqual(run.relaxed, []);
  assert.equal(run.attempts.length, 1);
  assert.equal(run.manual_retry, false);
});

test('3 doctors, 2 a night for 28 nights, at most 8 each: three retries told in order, then failed with the spec message, suggested actions and rollback', async () => {
  const request = optimization(threeDoctorsTwoANight());
  const told: [SolverStatus, string][] = [];
  const reply = await solveSchedule(request, { onStatus: (status, text) => told.push([status, text]) });
  assert.deepEqual(
    told.map(([status]) => status),
    [1, 2, 3].map((n) => ({ working_status: 'retrying', retry_count: n, max_retries: 3 })),
  );
  told.forEach(([, text], i) => assert.equal(text, `Infeasible: retrying (attempt ${i + 1} of 3) with ${SCHEDULE_RELAXATIONS[i].text}`));
  assert.equal(reply.success, false);
  assert.equal(reply.status, 'failed');
  assert.equal(reply.retry_exceeded, true);
  assert.deepEqual(reply.solver_status, { working_status: 'failed', retry_count: 3, max_retries: 3 });
  const message = solverFailedMessage(3);
  assert.equal(message, 'Math model requirements update cannot be fulfilled. Solver could not solve the problem after 3 attempts.');
  assert.equal(reply.message, message);
  assert.equal(reply.error, message);
  assert.deepEqual(reply.langchain_result, { status: 'failed', message });
  assert.equal(reply.has_grid, false);
  assert.equal(reply.rollback_option?.available, true);
  // The suggested actions name the conflict with its numbers: 56 doctor-nights needed, 3 × 8 = 24.
  const actions = (reply.suggested_actions ?? []).join('\n');
  assert.match(actions, /56/);
  assert.match(actions, /24/);
  const run = ScheduleRunSchema.parse(reply.schedule);
  assert.deepEqual(
    run.attempts.map((a) => [a.attempt, a.relaxation_level, a.status]),
    [0, 1, 2, 3].map((n) => [n, n, 'infeasible']),
  );
  assert.equal(run.relaxation_level, 3);
  assert.deepEqual(run.relaxed, SCHEDULE_RELAXATIONS.slice(0, 3).map((r) => r.text));
});

test('a problem only level 2 mends (28 nights, 3 doctors at most 8 each, 10 after level 2) solves at the second retry, saying what was relaxed', async () => {
  const request = optimization(threeDoctorsOneANight());
  const told: SolverStatus[] = [];
  const reply = await solveSchedule(request, { onStatus: (status) => told.push(status) });
  assert.equal(reply.success, true, reply.message);
  assert.deepEqual(told.map((status) => status.retry_count), [1, 2]);
  assert.deepEqual(reply.solver_status, { working_status: 'success', retry_count: 2, max_retries: 3 });
  const run = ScheduleRunSchema.parse(reply.schedule);
  assert.equal(run.relaxation_level, 2);
  assert.deepEqual(run.relaxed, [SCHEDULE_RELAXATIONS[0].text, SCHEDULE_RELAXATIONS[1].text]);
  assert.deepEqual(run.attempts.map((a) => a.status), ['infeasible', 'infeasible', 'optimal']);
  assert.match(reply.message, /Relaxed: one more working day in a row/);
  // Valid against the relaxed problem (at most 10 nights each), and every night covered.
  assert.deepEqual(checkSchedule(relaxProblem(request.problem, 2), assignmentOf(reply)), []);
  const nights = assignmentOf(reply).map((shifts) => shifts.filter((code) => code === 'N').length);
  assert.equal(nights.reduce((a, b) => a + b, 0), 28);
  assert.ok(nights.every((n) => n <= 10));
});

test('Retry with Simpler Requirements at level 4 on the impossible one: one solve, nights left unfilled and reported', async () => {
  const request = optimization(threeDoctorsTwoANight(), { relaxation_level: 4, manual_retry: true });
  const told: SolverStatus[] = [];
  const reply = await solveSchedule(request, { onStatus: (status) => told.push(status) });
  assert.equal(reply.success, true, reply.message);
  assert.deepEqual(told, []);
  const run = ScheduleRunSchema.parse(reply.schedule);
  assert.equal(run.manual_retry, true);
  assert.equal(run.attempts.length, 1);
  assert.equal(run.relaxation_level, 4);
  assert.equal(run.relaxed.length, 4);
  const formatted = reply.backend_solver!.schedule_formatted_json!;
  // 56 doctor-nights needed; 3 doctors × 10 nights (level 2's raised cap) = 30 worked, so 26 unfilled.
  assert.equal(formatted.uncovered.reduce((sum, u) => sum + u.missing, 0), 26);
  assert.match(reply.message, /26 shifts left unfilled/);
  assert.ok(coverageIsSoft(4));
  assert.deepEqual(checkSchedule(relaxProblem(request.problem, 4), assignmentOf(reply), { coverageSoft: true }), []);
});

test('Stop: an aborted signal ends the solve and its worker thread', async () => {
  const controller = new AbortController();
  const request = optimization(largeRoster(120, 56));
  const solving = solveSchedule(request, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stopped by the user')), 300);
  await assert.rejects(solving, /stopped by the user/);
  // Ended: the test would hang here (and the process with it) if the worker kept running.
  while (liveSolveWorkers() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
});

test('a 1-second limit on a large roster: a schedule with its gap, or no schedule in time, and the call comes back', async () => {
  const request = optimization(largeRoster(100, 56), { time_limit_seconds: 1 });
  const reply = await solveSchedule(request);
  const first = reply.schedule!.attempts[0];
  assert.ok(['feasible', 'time_limit', 'optimal'].includes(first.status), first.status);
  if (reply.success) {
    assert.equal(typeof reply.backend_solver?.result.gap, 'number');
    assert.deepEqual(checkSchedule(relaxProblem(request.problem, reply.schedule!.relaxation_level), assignmentOf(reply)), []);
  } else {
    assert.equal(first.status, 'time_limit');
    assert.equal(reply.retry_exceeded, true);
    assert.match(reply.suggested_actions!.join('\n'), /within the 1-second limit/);
  }
  // Every attempt's worker is ended (terminate() completes asynchronously).
  while (liveSolveWorkers() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
});
