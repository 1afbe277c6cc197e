import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOB_QUEUE_FULL_MESSAGE } from '@tessera/contracts';
import { type Job, JobQueueFullError, JobScheduler } from './job-scheduler.js';

const limits = { perUser: 2, solvesPerUser: 1, queueMax: 3, capacity: { code: 4, solve: 2 } };
const settled = async (job: Job): Promise<'started' | 'waiting' | 'rejected'> => {
  const marker = Symbol('waiting');
  try {
    const outcome = await Promise.race([job.started.then(() => 'started' as const), new Promise<symbol>((resolve) => setImmediate(() => resolve(marker)))]);
    return outcome === marker ? 'waiting' : 'started';
  } catch {
    return 'rejected';
  }
};

test("a user's third job waits for one of the first two, told its place; another user's job does not wait", async () => {
  const jobs = new JobScheduler(limits);
  const a1 = jobs.submit('a', 'code');
  const a2 = jobs.submit('a', 'code');
  const places: number[] = [];
  const a3 = jobs.submit('a', 'code', { onQueued: (p) => places.push(p) });
  const b1 = jobs.submit('b', 'code');
  assert.deepEqual([await settled(a1), await settled(a2), await settled(a3), await settled(b1)], ['started', 'started', 'waiting', 'started']);
  assert.equal(a3.position, 1);
  assert.deepEqual(jobs.stats(), { running: { code: 3, solve: 0 }, queued: 1 });
  a1.release();
  assert.equal(await settled(a3), 'started');
  assert.equal(a3.position, 0);
  assert.deepEqual(places, []);
  for (const job of [a2, a3, b1]) job.release();
  assert.deepEqual(jobs.stats(), { running: { code: 0, solve: 0 }, queued: 0 });
});

test('one solve per user: a second solve waits while a code job of the same user runs', async () => {
  const jobs = new JobScheduler(limits);
  const s1 = jobs.submit('a', 'solve');
  const s2 = jobs.submit('a', 'solve');
  const c1 = jobs.submit('a', 'code');
  assert.deepEqual([await settled(s1), await settled(s2), await settled(c1)], ['started', 'waiting', 'started']);
  // s2 waits for a's first solve, not for a slot: a runs two jobs and the instance has room.
  assert.equal(jobs.stats().running.solve, 1);
  s1.release();
  assert.equal(await settled(s2), 'started');
  // Now a runs two jobs (c1 and s2): its cap, whatever the kind.
  assert.equal(await settled(jobs.submit('a', 'code')), 'waiting');
  s2.release();
  c1.release();
});

test('the instance capacity of a kind queues jobs of every user; places move as the queue moves', async () => {
  const jobs = new JobScheduler({ ...limits, capacity: { code: 1, solve: 1 } });
  const first = jobs.submit('a', 'code');
  const places: Record<string, number[]> = { b: [], c: [] };
  const b = jobs.submit('b', 'code', { onQueued: (p) => places.b.push(p) });
  const c = jobs.submit('c', 'code', { onQueued: (p) => places.c.push(p) });
  assert.deepEqual([b.position, c.position], [1, 2]);
  first.release();
  assert.equal(await settled(b), 'started');
  assert.deepEqual(places, { b: [], c: [1] });
  b.release();
  c.release();
});

test('a full queue refuses the next job that would wait, with the text; one that can start still starts', async () => {
  const jobs = new JobScheduler({ ...limits, queueMax: 1 });
  const running = [jobs.submit('a', 'code'), jobs.submit('a', 'code')];
  const waiting = jobs.submit('a', 'code');
  assert.throws(
    () => jobs.submit('a', 'code'),
    (err: unknown) => err instanceof JobQueueFullError && err.message === JOB_QUEUE_FULL_MESSAGE,
  );
  assert.equal(await settled(jobs.submit('b', 'code')), 'started');
  assert.equal(jobs.stats().queued, 1);
  for (const job of [...running, waiting]) job.release();
});

test('a job aborted while it waits leaves the queue and never starts; the next one moves up', async () => {
  const jobs = new JobScheduler({ ...limits, capacity: { code: 1, solve: 1 } });
  const first = jobs.submit('a', 'code');
  const stop = new AbortController();
  const gone = jobs.submit('b', 'code', { signal: stop.signal });
  const places: number[] = [];
  const next = jobs.submit('c', 'code', { onQueued: (p) => places.push(p) });
  stop.abort(new Error('client gone'));
  await assert.rejects(gone.started, /client gone/);
  assert.deepEqual(places, [1]);
  first.release();
  assert.equal(await settled(next), 'started');
  assert.equal(await settled(gone), 'rejected');
  assert.deepEqual(jobs.stats(), { running: { code: 1, solve: 0 }, queued: 0 });
  next.release();
  gone.release();
  assert.deepEqual(jobs.stats(), { running: { code: 0, solve: 0 }, queued: 0 });
});

test('a code job that turns into a solve takes a solve slot, ahead of new jobs, within the one-solve-per-user rule', async () => {
  const jobs = new JobScheduler({ ...limits, capacity: { code: 4, solve: 1 } });
  const solving = jobs.submit('b', 'solve');
  const code = jobs.submit('a', 'code');
  await code.started;
  const slot = code.solveSlot();
  const later = jobs.submit('c', 'solve');
  assert.equal(jobs.stats().queued, 1); // the upgrade is not a queued job
  solving.release();
  const release = await slot;
  assert.equal(await settled(later), 'waiting');
  release();
  assert.equal(await settled(later), 'started');
  later.release();
  const own = jobs.submit('d', 'solve');
  await own.started;
  assert.equal(await own.solveSlot().then(() => 'held'), 'held'); // a solve job already holds its slot
  for (const job of [code, own]) job.release();
  assert.deepEqual(jobs.stats(), { running: { code: 0, solve: 0 }, queued: 0 });
});
