import { ERROR_CODES, HYBRID_BODY_LIMIT_BYTES, type HybridForwardRequest, HybridForwardBodySchema, type HybridResponse } from '@tessera/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from '../http/errors.js';
import type { AiProvider } from '../providers/provider.js';
import { type CodeRunner, runnerUnavailableReason } from '../runner/code-runner.js';
import { runAiPowered } from './ai-powered.service.js';
import { type StageListener, runDirectExec, toHybridResponse } from './direct-exec.service.js';
import type { GitFileText } from './git-files.js';
import { HybridStream } from './hybrid-stream.js';
import { ClientGoneError, StreamTimeoutError, requestAbort } from './request-abort.js';
import { withSnapshot } from './merge-timeline.js';
import { withChart } from './ai-chart.js';
import { hybridConversation, recordHybridTurn } from '../sessions/hybrid-turns.js';
import type { SessionService } from '../sessions/session.service.js';
import { describeIssues } from '../http/validate-input.js';
import { runOptimization } from '../schedule/input/optimization.service.js';
import type { SolverStatusListener } from '../schedule/input/schedule-solve.js';
import type { JobScheduler } from '../jobs/job-scheduler.js';
import { runInJob } from '../jobs/job-context.js';
import { admitJob, waitForTurn } from '../jobs/hybrid-job.js';
import { sendSessionQuotaError } from '../sessions/session-quota.js';

export const CODE_RUNNER_UNAVAILABLE_CODE = 'code_runner_unavailable';

export interface HybridRouteOptions {
  /** The model provider of AI_PROVIDER (AI Powered). */
  provider: AiProvider;
  /** The selected git files' text, from the code repository. */
  readGitFiles: (paths: string[]) => Promise<GitFileText[]>;
  /** The whole request's limit; default STREAM_TIMEOUT_MS (10 minutes). */
  streamTimeoutMs?: number;
  /** The api (API_URL): merge_timeline makes the proposal there with the user's token. */
  apiUrl: string;
  /** The chat sessions: a call naming one gets its last messages and is stored in it. */
  sessions: SessionService;
  /** Every call is a job: at most JOBS_PER_USER running per user (one solve), the rest queued (src/jobs/). */
  jobs: JobScheduler;
}

/**
 * POST /hybrid/forward (spec 02 §7), protected like every route: Agent • Direct Exec
 * (enable_ai_generation false) or Agent • AI Powered (true). SSE through the stages with
 * `Accept: text/event-stream`, else one JSON hybrid response. Stop (the client closing the
 * request) cancels the model's request; the whole request is bounded by the stream timeout.
 * A schedule problem in parameters.optimization is solved as it is, in either mode (no code,
 * no model, no code runner); a schedule request in AI Powered is solved too (ai-powered.service.ts).
 */
export function registerHybridRoutes(app: FastifyInstance, getRunner: () => CodeRunner, options: HybridRouteOptions): void {
  app.post('/hybrid/forward', { bodyLimit: HYBRID_BODY_LIMIT_BYTES }, async (request, reply) => {
    const parsed = HybridForwardBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendError(reply, 400, ERROR_CODES.validation, describeIssues(parsed.error));
    const optimization = parsed.data.parameters?.optimization;
    const runner = getRunner();
    // Only Direct Exec always runs code. A schedule (parameters.optimization, or a request typed
    // in AI Powered) needs no runner; AI Powered fails with the runner's reason only if it comes
    // to run code (ai-powered.service.ts).
    const unavailable = optimization || parsed.data.enable_ai_generation ? undefined : runnerUnavailableReason(runner);
    if (unavailable) return sendError(reply, 503, CODE_RUNNER_UNAVAILABLE_CODE, unavailable);
    const userId = request.user?.id ?? '';
    // A full session is refused before anything runs: the turn could not be stored.
    if (parsed.data.session_id && (await sendSessionQuotaError(options.sessions, reply, userId, parsed.data.session_id))) return reply;
    const body = { ...parsed.data, conversation_context: await hybridConversation(options.sessions, userId, parsed.data) };
    const abort = requestAbort(reply, options.streamTimeoutMs);
    let stream: HybridStream | undefined;
    // A schedule problem given as JSON is a solve from the start; AI Powered takes a solve slot if it turns into one.
    const job = admitJob(options.jobs, reply, { userId, kind: optimization ? 'solve' : 'code', signal: abort.signal, onQueued: (position) => stream?.queued(position) });
    if (!job) {
      abort.dispose();
      return reply;
    }
    // merge_timeline, then the session's record, once the response is known (merge-timeline.ts, sessions/hybrid-turns.ts).
    const settle = async (response: HybridResponse): Promise<HybridResponse> => {
      // A schedule's grid (Doctor ID, Doctor Name, 1..N, totals) is a new sheet, never the active sheet's next version.
      const call = { apiUrl: options.apiUrl, authorization: request.headers.authorization ?? '', body };
      const done = response.schedule ? response : await withChart(await withSnapshot(response, call), call);
      await recordHybridTurn(options.sessions, userId, body, done, 'hybrid/forward').catch((err: unknown) => {
        request.log.error({ err }, 'hybrid: the turn could not be stored in its session');
      });
      return done;
    };
    const work = (onStage: StageListener = () => {}, onSolverStatus: SolverStatusListener = () => {}): Promise<HybridResponse> =>
      runInJob(job, async () => {
        if (optimization) return runOptimization(body, optimization, options.provider, { signal: abort.signal, onStage, onSolverStatus });
        return body.enable_ai_generation
          ? runAiPowered({ provider: options.provider, runner, readGitFiles: options.readGitFiles }, body, abort.signal, onStage, onSolverStatus)
          : runDirectExec(runner, body, onStage, abort.signal);
      });
    try {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        const notRun = await waitForTurn(job);
        // A job that never ran answers its reason (the client gone: nobody reads it) and stores nothing.
        if (notRun) return reply.send(await respond(Promise.reject(notRun), body, request.log));
        return reply.send(await settle(await respond(work(), body, request.log)));
      }
      stream = new HybridStream(reply);
      if (job.position > 0) stream.queued(job.position);
      const notRun = await waitForTurn(job);
      if (notRun) {
        stream.finish(await respond(Promise.reject(notRun), body, request.log));
        return reply;
      }
      const open = stream;
      const working = work(
        (stage, text) => open.stage(stage, text),
        (solverStatus, text) => open.solverStatus(solverStatus, text),
      );
      stream.finish(await settle(await respond(working, body, request.log)));
      return reply;
    } finally {
      job.release();
      abort.dispose();
    }
  });
}

/**
 * The response, or the failure to tell in its place: the stream timeout's text, or an internal
 * error. A client that has gone gets nothing (whatever is written is dropped).
 */
async function respond(work: Promise<HybridResponse>, body: HybridForwardRequest, log: FastifyReply['log']): Promise<HybridResponse> {
  try {
    return await work;
  } catch (err) {
    const mode = body.enable_ai_generation ? ('agent-ai' as const) : ('agent-direct' as const);
    if (err instanceof StreamTimeoutError || err instanceof ClientGoneError) {
      return { ...toHybridResponse({ execution_output: '', result: null, error: err.message }), mode };
    }
    log.error({ err }, 'hybrid: request failed');
    return { ...toHybridResponse({ execution_output: '', result: null, error: 'Internal server error' }), mode };
  }
}
