import { ERROR_CODES, HYBRID_BODY_LIMIT_BYTES, HybridBackwardRequestSchema, type HybridResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors.js';
import type { AiProvider } from '../../providers/provider.js';
import type { CodeRunner } from '../../runner/code-runner.js';
import { recordHybridTurn } from '../../sessions/hybrid-turns.js';
import type { SessionService } from '../../sessions/session.service.js';
import { describeIssues } from '../../http/validate-input.js';
import { toHybridResponse } from '../direct-exec.service.js';
import { CODE_RUNNER_UNAVAILABLE_CODE } from '../hybrid.route.js';
import { HybridStream } from '../hybrid-stream.js';
import { ClientGoneError, StreamTimeoutError, requestAbort } from '../request-abort.js';
import { runBackward } from './backward.service.js';

export interface BackwardRouteOptions {
  provider: AiProvider;
  sessions: SessionService;
  streamTimeoutMs?: number;
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
    const status = runner.status();
    if (status.state === 'refused' || status.state === 'closed') {
      return sendError(reply, 503, CODE_RUNNER_UNAVAILABLE_CODE, status.reason ?? 'The code runner is not available');
    }
    const body = parsed.data;
    const userId = request.user?.id ?? '';
    const abort = requestAbort(reply, options.streamTimeoutMs);
    const respond = async (work: Promise<HybridResponse>): Promise<HybridResponse> => {
      let response: HybridResponse;
      try {
        response = await work;
      } catch (err) {
        const mode = body.enable_ai_generation ? ('agent-ai' as const) : ('agent-direct' as const);
        const known = err instanceof StreamTimeoutError || err instanceof ClientGoneError;
        if (!known) request.log.error({ err }, 'hybrid backward: request failed');
        return { ...toHybridResponse({ execution_output: '', result: null, error: known ? err.message : 'Internal server error' }), mode };
      }
      await recordHybridTurn(options.sessions, userId, body, response, 'hybrid/backward').catch((err: unknown) => {
        request.log.error({ err }, 'hybrid backward: the turn could not be stored in its session');
      });
      return response;
    };
    const deps = { provider: options.provider, runner };
    try {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        return reply.send(await respond(runBackward(deps, body, abort.signal)));
      }
      const stream = new HybridStream(reply);
      stream.finish(await respond(runBackward(deps, body, abort.signal, (stage, text) => stream.stage(stage, text))));
      return reply;
    } finally {
      abort.dispose();
    }
  });
}
