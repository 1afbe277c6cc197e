import {
  HYBRID_STAGE_PROGRESS,
  type HybridResponse,
  type HybridStage,
  type HybridStreamEvent,
  type SolverStatus,
} from '@tessera/contracts';
import type { FastifyReply } from 'fastify';
import { SseWriter } from '../vertex/sse-writer.js';

/** Server-Sent Events of one /hybrid/forward reply; writes stop once the client has gone. */
export class HybridStream {
  private readonly sse: SseWriter<HybridStreamEvent>;

  constructor(reply: FastifyReply) {
    this.sse = new SseWriter(reply);
  }

  /** True once the client closed the stream (Stop): the job may still finish in the runner. */
  get clientGone(): boolean {
    return this.sse.clientGone;
  }

  stage(stage: Exclude<HybridStage, 'final_response'>, text: string): void {
    this.write({
      text,
      // The first line stays; each later progress line replaces the one before.
      metadata: { stage, progress: HYBRID_STAGE_PROGRESS[stage], ui: { text, replace_last: stage !== 'analysis' } },
      error: null,
      finished: false,
    });
  }

  /**
   * A schedule solve's status as it goes (retrying n of max, then success or failed), for the
   * panel's solver badge: a progress line of the solving stage, with metadata.solver_status.
   */
  solverStatus(status: SolverStatus, text: string): void {
    this.write({
      text,
      metadata: {
        stage: 'code_generation',
        progress: HYBRID_STAGE_PROGRESS.code_generation,
        ui: { text, replace_last: true },
        solver_status: status,
      },
      error: null,
      finished: false,
    });
  }

  finish(response: HybridResponse): void {
    this.write({
      text: response.message,
      metadata: {
        stage: 'final_response',
        progress: HYBRID_STAGE_PROGRESS.final_response,
        ui: { text: response.message, replace_last: false },
        workflow_complete: true,
        response,
        ...(response.snapshot ? { snapshot: response.snapshot } : {}),
      },
      error: response.error ?? null,
      finished: true,
    });
    this.end();
  }

  end(): void {
    this.sse.end();
  }

  private write(event: HybridStreamEvent): void {
    this.sse.write(event);
  }
}
