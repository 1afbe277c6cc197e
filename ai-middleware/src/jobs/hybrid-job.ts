import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyReply } from 'fastify';
import { sendError } from '../http/errors.js';
import { type Job, type JobKind, JobQueueFullError, type JobScheduler } from './job-scheduler.js';

/** What a client refused with 429 is told to wait before it tries again, in seconds. */
export const JOB_RETRY_AFTER_SECONDS = 5;

/**
 * Admits one /hybrid call to the scheduler before its stream opens: a full queue is a 429 with
 * JOB_QUEUE_FULL_MESSAGE (and Retry-After), sent here, and then undefined comes back and nothing
 * runs. `onQueued` hears each later place in the queue; the first is the job's `position`.
 */
export function admitJob(
  scheduler: JobScheduler,
  reply: FastifyReply,
  job: { userId: string; kind: JobKind; signal: AbortSignal; onQueued: (position: number) => void },
): Job | undefined {
  try {
    return scheduler.submit(job.userId, job.kind, { signal: job.signal, onQueued: job.onQueued });
  } catch (err) {
    if (!(err instanceof JobQueueFullError)) throw err;
    reply.header('retry-after', String(JOB_RETRY_AFTER_SECONDS));
    sendError(reply, 429, ERROR_CODES.tooManyRequests, err.message);
    return undefined;
  }
}

/** Waits for the job's turn: undefined once it runs, else why it never will (the client went away, the stream timed out). */
export async function waitForTurn(job: Job): Promise<unknown> {
  try {
    await job.started;
    return undefined;
  } catch (err) {
    return err ?? new Error('The job did not start');
  }
}
