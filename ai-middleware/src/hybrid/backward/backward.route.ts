import { ERROR_CODES, HYBRID_BODY_LIMIT_BYTES, HybridBackwardRequestSchema, type HybridResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors.js';
import type { AiProvider } from '../../providers/provider.js';
import { type CodeRunner, runnerUnavailableReason } from '../../runner/code-runner.js';
import { recordHybridTurn } from '../../sessions/hybrid-turns.js';
import type { SessionService } from '../../sessions/session.service.js';
import { describeIssues } from '../../http/validate-input.js';
import { toHybridResponse } from '../direct-exec.service.js';
import { CODE_RUNNER_UNAVAILABLE_CODE } from '../hybrid.route.js';
import { HybridStream } from '../hybrid-stream.js';
import { ClientGoneError, StreamTimeoutError, requestAbort } from '../request-abort.js';
import { runBackward } from './backward.service.js';
import type { JobScheduler } from '../../jobs/job-scheduler.js';
import { runInJob } from '../../jobs/job-context.js';
import { admitJob, waitForTurn } from '../../jobs/hybrid-job.js';
import { sendSessionQuotaError } from '../../sessions/session-quota.js';

export interface BackwardRouteOptions {
  provider: AiProvider;
  sessions: SessionService;
  streamTimeoutMs?: number;
  /** The job scheduler forward shares: a backward call is a code job. */
  jobs: JobScheduler;
}

/**
 * POST /hybrid/backward (spec 02 §7: "streaming, similar body"; our reading is in
 * backward.schema.ts and the README): from an edited grid back to the code that produced it.
 * SSE through the same stages as /hybrid/forward with `Accept: text/event-stream`, else one
 * JSON hybrid response; Stop and the stream timeout as forward.
 */
export function registerBackwardRoute(app: FastifyInstance, getRunner: () => CodeRunner, options: BackwardRouteOptions): void {
  app.post('/hybrid/backward', { bodyLimit: HYBRID_BODY_LIMIT_BYTES }, async (request, reply) => {
    const parsed = HybridBackwardRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendError(reply, 400, ERROR_CODES.validation, describeIssues(parsed.error));
    const runner = getRunner();
    const unavailable = runnerUnavailableReason(runner);
    if (unavailable) return sendError(reply, 503, CODE_RUNNER_UNAVAILABLE_CODE, unavailable);
    const body = parsed.data;
    const userId = request.user?.id ?? '';
    if (body.session_id && (await sendSessionQuotaError(options.sessions, reply, userId, body.session_id))) return reply;
    const abort = requestAbort(reply, options.streamTimeoutMs);
    let stream: HybridStream | undefined;
    const job = admitJob(options.jobs, reply, { userId, kind: 'code', signal: abort.signal, onQueued: (position) => stream?.queued(position) });
    if (!job) {
      abort.dispose();
      return reply;
    }
    const failed = (err: unknown): HybridResponse => {
      const mode = body.enable_ai_generation ? ('agent-ai' as const) : ('agent-direct' as const);
      const known = err instanceof StreamTimeoutError || err instanceof ClientGoneError;
      if (!known) request.log.error({ err }, 'hybrid backward: request failed');
      return { ...toHybridResponse({ execution_output: '', result: null, error: known ? err.message : 'Internal server error' }), mode };
    };
    const respond = async (work: Promise<HybridResponse>): Promise<HybridResponse> => {
      let response: HybridResponse;
      try {
        response = await work;
      } catch (err) {
        return failed(err);
      }
      await recordHybridTurn(options.sessions, userId, body, response, 'hybrid/backward').catch((err: unknown) => {
        request.log.error({ err }, 'hybrid backward: the turn could not be stored in its session');
      });
      return response;
    };
    const deps = { provider: options.provider, runner };
    try {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        // A job that never ran answers why (nobody reads it when the client went) and stores nothing.
        const notRun = await waitForTurn(job);
        if (notRun) return reply.send(failed(notRun));
        return reply.send(await respond(runInJob(job, () => runBackward(deps, body, abort.signal))));
      }
      stream = new HybridStream(reply);
      if (job.position > 0) stream.queued(job.position);
      const notRun = await waitForTurn(job);
      if (notRun) {
        stream.finish(failed(notRun));
        return reply;
      }
      const open = stream;
      stream.finish(await respond(runInJob(job, () => runBackward(deps, body, abort.signal, (stage, text) => open.stage(stage, text)))));
      return reply;
    } finally {
      job.release();
      abort.dispose();
    }
  });
}
