import {
  type HybridResponse,
  type HybridStage,
  type HybridStreamEvent,
  type SolverStatus,
  finalResponseEvent,
  hybridStageEvent,
  jobQueuedEvent,
  solverStatusEvent,
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
    this.write(hybridStageEvent(stage, text));
  }

  /** The job waits for a slot: its place in the queue. */
  queued(position: number): void {
    this.write(jobQueuedEvent(position));
  }

  /** A schedule solve's status as it goes (retrying n of max, then success or failed), for the panel's solver badge. */
  solverStatus(status: SolverStatus, text: string): void {
    this.write(solverStatusEvent(status, text));
  }

  finish(response: HybridResponse): void {
    this.write(finalResponseEvent(response));
    this.end();
  }

  end(): void {
    this.sse.end();
  }

  private write(event: HybridStreamEvent): void {
    this.sse.write(event);
  }
}
