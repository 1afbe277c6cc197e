import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScheduleProblemSchema } from '@tessera/contracts';
import { MAX_CONCURRENT_SOLVES, liveSolveWorkers, runHighs } from './highs-runner.js';
import { buildScheduleModel } from './lp-model.js';
import { largeRoster } from './solver-test-problems.js';

const untilNoWorkers = async () => {
  while (liveSolveWorkers() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
};

test('a small MILP: optimal, its objective, a gap of 0 and every column by name', async () => {
  const text = ['Minimize', ' obj: a + 2 b + 3 c', 'Subject To', ' r0: a + b + c >= 2', ' r1: a + c <= 1', 'Binary', ' a b c', 'End'].join('\n');
  const run = await runHighs(text, { timeLimitSeconds: 10 });
  assert.equal(run.status, 'optimal');
  assert.equal(run.solverStatus, 'Optimal');
  assert.equal(run.objective, 3);
  assert.equal(run.gap, 0);
  assert.deepEqual(Object.fromEntries(run.values!), { a: 1, b: 1, c: 0 });
  await untilNoWorkers();
});

test('an infeasible MILP says so, with no values', async () => {
  const text = ['Minimize', ' obj: a + b', 'Subject To', ' r0: a + b >= 3', 'Binary', ' a b', 'End'].join('\n');
  const run = await runHighs(text, { timeLimitSeconds: 10 });
  assert.equal(run.status, 'infeasible');
  assert.equal(run.solverStatus, 'Infeasible');
  assert.equal(run.values, null);
  assert.equal(run.objective, null);
});

test('a model HiGHS cannot read is an error, and the next solve still works', async () => {
  const broken = await runHighs('Minimize\n obj: a +\nSubject To\n r0: 2 <= a + b <= 5\nEnd\n', { timeLimitSeconds: 10 });
  assert.equal(broken.status, 'error');
  assert.ok(broken.error);
  const fine = await runHighs('Minimize\n obj: a\nSubject To\n r0: a >= 1\nBinary\n a\nEnd\n', { timeLimitSeconds: 10 });
  assert.equal(fine.status, 'optimal');
});

test('a solve that has not answered by its time limit plus the grace period is cut off: its worker is terminated', async () => {
  const model = buildScheduleModel(ScheduleProblemSchema.parse(largeRoster(150, 56)), { coverageSoft: false });
  const run = await runHighs(model.text, { timeLimitSeconds: 0.01, graceSeconds: 0 });
  assert.equal(run.status, 'time_limit');
  assert.equal(run.values, null);
  await untilNoWorkers();
});

test('solves beyond MAX_CONCURRENT_SOLVES wait their turn; one stopped while waiting leaves the queue', async () => {
  const model = buildScheduleModel(ScheduleProblemSchema.parse(largeRoster(60, 28)), { coverageSoft: false });
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, liveSolveWorkers())), 5);
  const stop = new AbortController();
  const runs = Array.from({ length: MAX_CONCURRENT_SOLVES + 2 }, () => runHighs(model.text, { timeLimitSeconds: 1 }));
  const stopped = runHighs(model.text, { timeLimitSeconds: 1, signal: stop.signal });
  stop.abort(new Error('Stopped'));
  await assert.rejects(stopped, /Stopped/);
  const done = await Promise.all(runs);
  clearInterval(sampler);
  assert.ok(done.every((run) => run.status !== 'error'));
  assert.ok(most >= 1 && most <= MAX_CONCURRENT_SOLVES, `at most ${MAX_CONCURRENT_SOLVES} workers at once, saw ${most}`);
  await untilNoWorkers();
});
