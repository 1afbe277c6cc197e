import {
  HYBRID_STAGE_PROGRESS,
  type HybridResponse,
  type HybridStage,
  type HybridStreamEvent,
} from '@tessera/contracts';
import type { FastifyReply } from 'fastify';

/** Server-Sent Events of one /hybrid/forward reply; writes stop once the client has gone. */
export class HybridStream {
  private closed = false;

  constructor(private readonly reply: FastifyReply) {
    // Headers set by hooks (the request id) are kept: hijack bypasses Fastify's send.
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies (nginx) must pass each event on at once.
      'x-accel-buffering': 'no',
    });
    reply.raw.on('close', () => {
      this.closed = true;
    });
  }

  /** True once the client closed the stream (Stop): the job may still finish in the runner. */
  get clientGone(): boolean {
    return this.closed || this.reply.raw.destroyed;
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

  finish(response: HybridResponse): void {
    this.write({
      text: response.message,
      metadata: {
        stage: 'final_response',
        progress: HYBRID_STAGE_PROGRESS.final_response,
        ui: { text: response.message, replace_last: false },
        workflow_complete: true,
        response,
      },
      error: response.error ?? null,
      finished: true,
    });
    this.end();
  }

  end(): void {
    if (!this.clientGone) this.reply.raw.end();
  }

  private write(event: HybridStreamEvent): void {
    if (this.clientGone) return;
    this.reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
  }
}
