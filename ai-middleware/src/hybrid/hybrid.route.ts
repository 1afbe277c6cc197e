import { DirectExecRequestSchema, ERROR_CODES, HYBRID_BODY_LIMIT_BYTES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { sendError } from '../http/errors.js';
import type { CodeRunner } from '../runner/code-runner.js';
import { runDirectExec, toHybridResponse } from './direct-exec.service.js';
import { HybridStream } from './hybrid-stream.js';

export const CODE_RUNNER_UNAVAILABLE_CODE = 'code_runner_unavailable';

/** "path: message; path: message", so the user sees every problem of the body at once. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/**
 * POST /hybrid/forward (spec 02 §7), protected like every route. Agent • Direct Exec only:
 * SSE through the stages with `Accept: text/event-stream`, else one JSON hybrid response.
 */
export function registerHybridRoutes(app: FastifyInstance, getRunner: () => CodeRunner): void {
  app.post('/hybrid/forward', { bodyLimit: HYBRID_BODY_LIMIT_BYTES }, async (request, reply) => {
    const parsed = DirectExecRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendError(reply, 400, ERROR_CODES.validation, describeIssues(parsed.error));
    const runner = getRunner();
    const status = runner.status();
    if (status.state === 'refused' || status.state === 'closed') {
      return sendError(reply, 503, CODE_RUNNER_UNAVAILABLE_CODE, status.reason ?? 'The code runner is not available');
    }
    const body = parsed.data;
    if (!(request.headers.accept ?? '').includes('text/event-stream')) {
      return reply.send(await runDirectExec(runner, body));
    }
    const stream = new HybridStream(reply);
    try {
      stream.finish(await runDirectExec(runner, body, (stage, text) => stream.stage(stage, text)));
    } catch (err) {
      // Headers are gone: the failure can only be told as the stream's last event.
      request.log.error({ err }, 'hybrid: direct exec failed');
      stream.finish(toHybridResponse({ execution_output: '', result: null, error: 'Internal server error' }));
    }
    return reply;
  });
}
