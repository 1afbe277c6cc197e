import { ERROR_CODES, LIVE_CLOSE, LIVE_MAX_FRAME_BYTES } from '@tessera/contracts';
import type { FastifyReply } from 'fastify';

/** The part of a `ws` socket closing needs. */
export interface ClosableSocket {
  readonly readyState: number;
  close(code: number, reason: string): void;
  terminate(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** How long a closed socket may take to finish the close handshake before it is cut (a client that reads nothing never answers). */
export const CLOSE_GRACE_MS = 5_000;

const CLOSING = 2;

/**
 * Closes with `code` and `reason` (the client reads them), and cuts the connection when the close
 * handshake has not finished within CLOSE_GRACE_MS: its buffers are freed either way. From the
 * close on the socket is not OPEN: nothing more is written to it, and what it sends is ignored.
 */
export function closeSocket(socket: ClosableSocket, code: number, reason: string, graceMs = CLOSE_GRACE_MS): void {
  if (socket.readyState >= CLOSING) return;
  socket.close(code, reason);
  const cut = setTimeout(() => socket.terminate(), graceMs);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}

/** Why a socket was closed with 1009 (the WebSocket library closes it before any handler runs). */
export const FRAME_TOO_LARGE_REASON = `Frame too large: the limit is ${LIVE_MAX_FRAME_BYTES / (1024 * 1024)} MiB`;

/**
 * `ws` closes the socket of a frame over maxPayload with a bare 1009; this gives that close its
 * reason, so the client (and its user) can tell what happened.
 */
export function explainOversizeClose(socket: { close(code?: number, reason?: string | Buffer): void }): void {
  const close = socket.close.bind(socket);
  socket.close = (code?: number, reason?: string | Buffer) => close(code, code === LIVE_CLOSE.messageTooBig && !reason ? FRAME_TOO_LARGE_REASON : reason);
}

/** A socket address asked for as a page (a plain GET, no upgrade): 426, told to upgrade. */
export async function notASocketUpgrade(_request: unknown, reply: FastifyReply): Promise<FastifyReply> {
  return reply.code(426).header('upgrade', 'websocket').send({ error: { code: ERROR_CODES.badRequest, message: 'This address is a WebSocket' } });
}
