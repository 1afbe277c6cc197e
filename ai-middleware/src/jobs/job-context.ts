import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { type Job, JobScheduler } from './job-scheduler.js';

/**
 * Solves that run at once on an instance; the others wait their turn. HiGHS's time limit is
 * wall-clock: solves sharing a core would each stop with a worse schedule, and the service's own
 * thread needs a core.
 */
export const MAX_CONCURRENT_SOLVES = Math.max(1, availableParallelism() - 1);

/** The job a /hybrid call runs in, so the solver deep below takes its slot from that job's scheduler. */
const current = new AsyncLocalStorage<Job>();

export function runInJob<T>(job: Job, work: () => Promise<T>): Promise<T> {
  return current.run(job, work);
}

// A solve outside any job (the solver's own tests, the bench) still waits for a free solve slot.
const standalone = new JobScheduler({
  perUser: Number.POSITIVE_INFINITY,
  solvesPerUser: Number.POSITIVE_INFINITY,
  queueMax: Number.POSITIVE_INFINITY,
  capacity: { code: 0, solve: MAX_CONCURRENT_SOLVES },
});

/** Waits for a solve slot (or the signal: then throws its reason); the function returned frees it. */
export async function takeSolveSlot(signal?: AbortSignal): Promise<() => void> {
  const job = current.getStore();
  if (job) return job.solveSlot(signal);
  const solve = standalone.submit('', 'solve', signal ? { signal } : {});
  await solve.started;
  return () => solve.release();
}
