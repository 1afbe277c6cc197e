/**
 * Coalesces the frames a socket gets in one turn of the event loop into one WebSocket message:
 * a lone frame goes as itself (`{type, data}`), several as a JSON array of frames in order
 * (`[{type, data}, ...]`). A group commit delivers hundreds of versions at once; one write per
 * socket instead of one per frame is what keeps 200 sockets affordable. The frames are already
 * JSON text: the array is spliced, not re-serialised.
 */
export class FrameOutbox<C> {
  readonly #queued = new Map<C, string[]>();
  #scheduled = false;

  constructor(private readonly write: (conn: C, text: string) => void) {}

  send(conn: C, text: string): void {
    const queued = this.#queued.get(conn);
    if (queued) queued.push(text);
    else this.#queued.set(conn, [text]);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is queued now (for every socket, or one that is about to be closed). */
  flush(only?: C): void {
    if (only === undefined) this.#scheduled = false;
    const conns = only === undefined ? [...this.#queued.keys()] : this.#queued.has(only) ? [only] : [];
    for (const conn of conns) {
      const texts = this.#queued.get(conn)!;
      this.#queued.delete(conn);
      this.write(conn, texts.length === 1 ? texts[0] : `[${texts.join(',')}]`);
    }
  }
}

/** The part of a `ws` socket a bounded send needs. */
export interface BoundedSocket {
  readonly readyState: number;
  /** Bytes written and not yet taken by the client (ws's queue plus the TCP socket's). */
  readonly bufferedAmount: number;
  send(text: string): void;
}

const OPEN = 1;

/**
 * Outbound backpressure: sends `text` unless the socket is no longer open ('closed') or already
 * holds more than `maxBuffered` unread bytes ('behind': the caller closes it with
 * LIVE_CLOSE.tooFarBehind). The check is on what is already waiting, so one big message (the
 * whole sheet, on an idle socket) still goes; what a socket holds stays under `maxBuffered` plus
 * one event-loop turn's frames, never an unbounded backlog.
 */
export function sendBounded(socket: BoundedSocket, text: string, maxBuffered: number): 'sent' | 'closed' | 'behind' {
  if (socket.readyState !== OPEN) return 'closed';
  if (socket.bufferedAmount > maxBuffered) return 'behind';
  socket.send(text);
  return 'sent';
}
