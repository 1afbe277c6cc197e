import { STREAM_TIMEOUT_MS, STREAM_TIMED_OUT } from '@tessera/contracts';
import type { FastifyReply } from 'fastify';

/** The client went away (Stop, a closed tab): nobody is left to answer. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
  constructor() {
    super('The client closed the request');
  }
}

/** The stream ran past its limit (spec 02 §9: 600,000 ms). */
export class StreamTimeoutError extends Error {
  override readonly name = 'StreamTimeoutError';
  constructor(timeoutMs: number) {
    super(timeoutMs === STREAM_TIMEOUT_MS ? STREAM_TIMED_OUT : `Stream timed out after ${timeoutMs} ms`);
  }
}

/**
 * One signal for a model request: aborted when the client closes the connection (so Stop
 * cancels the provider's HTTP request) or when the stream timeout passes.
 */
export function requestAbort(reply: FastifyReply, timeoutMs: number = STREAM_TIMEOUT_MS): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onClose = () => {
    // 'close' also follows a normal end: only an unfinished reply means the client left.
    if (!reply.raw.writableFinished) controller.abort(new ClientGoneError());
  };
  reply.raw.on('close', onClose);
  const timer = setTimeout(() => controller.abort(new StreamTimeoutError(timeoutMs)), timeoutMs);
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}
