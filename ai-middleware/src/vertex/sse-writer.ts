import type { FastifyReply } from 'fastify';

/**
 * A Server-Sent Events reply (`data: <json>` blocks) that stops writing once the client has
 * gone (the routes' requestAbort signal tells the work itself to stop). The chat calls and
 * the hybrid streams (HybridStream) write through it.
 */
export class SseWriter<E> {
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

  /** True once the stream is closed: by the client (Stop), or ended. */
  get clientGone(): boolean {
    return this.closed || this.reply.raw.destroyed || this.reply.raw.writableEnded;
  }

  write(event: E): void {
    if (this.clientGone) return;
    this.reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
  }

  end(): void {
    if (!this.clientGone) this.reply.raw.end();
  }
}
