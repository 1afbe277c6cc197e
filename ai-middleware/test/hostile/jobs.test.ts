// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the job queue (in memory) and its refusals.
// Issue 17 §1, Python jobs and solves: a user's jobs past JOBS_PER_USER queue and stream their
// place; a full queue is a 429 with the exact text and runs nothing; a client that leaves while
// its job waits leaves the queue, and one that leaves while it runs gets its child killed. On the
// real service with real confined children (root needed, as in the test run) and real solves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODES, JOB_QUEUE_FULL_MESSAGE, type HybridStreamEvent, jobQueuedText } from '@tessera/contracts';
import { liveSolveWorkers } from '../../src/schedule/solver/highs-runner.js';
import { largeRoster, tenByFourteen } from '../../src/schedule/solver/solver-test-problems.js';
import { type TestIssuer, startTestIssuer } from '../helpers/jwks-server.js';
import { type TestApp, startTestApp } from '../helpers/test-app.js';
import { type LiveStream, eventually, metricValue, openStream } from '../support/live-stream.js';

const sheet = { handsontable_data: { spreadsheet_data: { headers: ['A'], rows: [[1]] } } };
/** Runs until it is killed (the runner's time limit below is far away). */
const forever = { enable_ai_generation: false, code: 'while True:\n    pass', ...sheet };
const quick = (name: string) => ({ enable_ai_generation: false, code: `print('${name} ran')\nresult = '${name}'`, ...sheet });
const solve = (problem: unknown) => ({ enable_ai_generation: false, parameters: { optimization: { kind: 'schedule', problem, time_limit_seconds: 120 } } });

const outcome = (base: string, name: string) => metricValue(base, 'code_runner_job_duration_seconds_count', { outcome: name });
const running = (base: string, kind: string) => metricValue(base, 'jobs_running', { kind });
const isStage = (stage: string) => (e: HybridStreamEvent) => e.metadata.stage === stage;
const final = (events: HybridStreamEvent[]) => events.find((e) => e.metadata.workflow_complete)?.metadata.response;

describe('hostile: Python jobs and solves', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let alice: string;
  let bob: string;
  const opened: LiveStream[] = [];
  const forward = async (token: string, body: unknown) => {
    const stream = await openStream(`${base}/hybrid/forward`, token, body);
    opened.push(stream);
    return stream;
  };
  const health = async () => assert.equal((await fetch(`${base}/health`)).status, 200);
  /** A job that is running its code (its stream reached code_generation). */
  const runningJob = async (token: string) => {
    const stream = await forward(token, forever);
    await stream.next(isStage('code_generation'));
    return stream;
  };

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl, {
      jobs: { perUser: 2, solvesPerUser: 1, queueMax: 2, maxRunning: 4 },
      runner: { engine: 'pyodide', timeoutMs: 300_000, memoryMb: 256, poolSize: 2 },
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    alice = await issuer.sign({ sub: 'user-alice', username: 'alice', role: 'user' });
    bob = await issuer.sign({ sub: 'user-bob', username: 'bob', role: 'user' });
  });
  after(async () => {
    // A failed test leaves endless jobs: their clients leave, so the service can close.
    for (const stream of opened) stream.close();
    await t?.close();
    await issuer?.close();
  });

  test("a user's jobs past the cap wait and stream their place; another user's job does not wait; a job whose client leaves while it runs is killed and frees its slot", async () => {
    const [stopped0, ok0] = [await outcome(base, 'stopped'), await outcome(base, 'ok')];
    const first = await runningJob(alice);
    const second = await runningJob(alice);
    const third = await forward(alice, quick('third'));
    const fourth = await forward(alice, quick('fourth'));
    assert.equal(third.status, 200);
    const placeOfThird = await third.next(() => true);
    assert.equal(placeOfThird.metadata.stage, 'queued');
    assert.equal(placeOfThird.text, jobQueuedText(1));
    assert.equal(placeOfThird.metadata.queue_position, 1);
    assert.equal((await fourth.next(() => true)).text, 'Waiting in queue (position 2)');

    // Bob has no job running: his does not wait behind Alice's.
    const bobs = await (await forward(bob, quick('bob'))).done;
    assert.equal(bobs[0].metadata.stage, 'analysis');
    assert.equal(final(bobs)?.result, 'bob');

    // Alice closes her first tab: its child is killed, the third job runs, the fourth moves up.
    first.close();
    const thirds = await third.done;
    assert.equal(final(thirds)?.success, true);
    assert.match(final(thirds)?.execution_output ?? '', /third ran/);
    assert.ok(fourth.events.some((e) => e.text === jobQueuedText(1)), 'the fourth job was told it moved up');
    assert.equal(final(await fourth.done)?.result, 'fourth');

    second.close();
    // Both endless jobs ended as stopped (killed), never as timed out: the runner's limit is 5 minutes away.
    await eventually(async () => (await outcome(base, 'stopped')) === stopped0 + 2);
    await eventually(async () => (await running(base, 'code')) === 0);
    assert.equal((await outcome(base, 'ok')) - ok0, 3);
    // The freed slots take Alice's next job at once (not queued).
    const next = await (await forward(alice, quick('next'))).done;
    assert.equal(next[0].metadata.stage, 'analysis');
    await health();
  });

  test('a full queue answers 429 with the exact text before any stream opens; a job whose client leaves while queued never runs; nothing is stored', async () => {
    const created = await fetch(`${base}/vertex/user-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'create', session_name: 'queued work' }),
    });
    const sessionId = ((await created.json()) as { session: { session_id: string } }).session.session_id;
    const [stopped0, ok0, error0] = [await outcome(base, 'stopped'), await outcome(base, 'ok'), await outcome(base, 'error')];
    const first = await runningJob(alice);
    const second = await runningJob(alice);
    const waiting = [await forward(alice, { ...quick('queued 1'), session_id: sessionId }), await forward(alice, { ...quick('queued 2'), session_id: sessionId })];
    for (const stream of waiting) await stream.next(isStage('queued'));

    for (const accept of ['text/event-stream', 'application/json']) {
      const refused = await fetch(`${base}/hybrid/forward`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ ...quick('refused'), session_id: sessionId }),
      });
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.deepEqual(await refused.json(), { error: { code: ERROR_CODES.tooManyRequests, message: JOB_QUEUE_FULL_MESSAGE } });
    }
    // A full queue refuses only jobs that would wait: Bob has room, so his runs at once.
    assert.equal(final(await (await forward(bob, quick('bob'))).done)?.result, 'bob');

    // The queued clients leave, then the running ones.
    for (const stream of waiting) stream.close();
    await eventually(async () => (await metricValue(base, 'jobs_queued')) === 0);
    first.close();
    second.close();
    await eventually(async () => (await outcome(base, 'stopped')) === stopped0 + 2);
    await eventually(async () => (await running(base, 'code')) === 0);
    // Only Bob's job ran to its end: neither the queued ones nor the refused one ever ran.
    assert.equal((await outcome(base, 'ok')) - ok0, 1);
    assert.equal((await outcome(base, 'error')) - error0, 0);
    const list = await fetch(`${base}/vertex/user-sessions`, { headers: { authorization: `Bearer ${alice}` } });
    const sessions = ((await list.json()) as { sessions: Array<{ session_id: string; message_count: number }> }).sessions;
    assert.equal(sessions.find((s) => s.session_id === sessionId)?.message_count, 0);
    await health();
  });

  test('one solve per user: the second waits its turn while the user still runs code; Stop on the first terminates its worker', async () => {
    const big = await forward(alice, solve(largeRoster(100, 56)));
    await big.next((e) => e.metadata.stage === 'code_generation');
    const small = await forward(alice, solve(tenByFourteen()));
    assert.equal((await small.next(() => true)).text, jobQueuedText(1));
    // A code job of Alice's is not held up by her solve: she has one job running.
    assert.equal(final(await (await forward(alice, quick('code'))).done)?.result, 'code');
    assert.ok(!small.events.some((e) => e.metadata.stage === 'analysis'), 'the second solve is still waiting');

    big.close();
    const solved = final(await small.done);
    assert.equal(solved?.success, true);
    assert.ok(solved?.schedule);
    await eventually(async () => liveSolveWorkers() === 0 && (await running(base, 'solve')) === 0);
    await health();
  });
});
