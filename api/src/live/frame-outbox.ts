/**
 * Coalesces the frames a socket gets in one turn of the event loop into one WebSocket message:
 * a lone frame goes as itself (`{type, data}`), several as a JSON array of frames in order
 * (`[{type, data}, ...]`). A group commit delivers hundreds of versions at once; one write per
 * socket instead of one per frame is what keeps 200 sockets affordable. The frames are already
 * JSON text: the array is spliced, not re-serialised.
 *
 * A message is UTF-8 bytes built once per flush for every socket that gets the same frames:
 * the sockets of a sheet mostly do (only a sender's ack differs), so 200 sockets cost one
 * encoding and share one Buffer (the server does not mask, so `ws` writes it as it is). Joining
 * and encoding the text per socket was most of the api's CPU once a backlog formed.
 */
export class FrameOutbox<C> {
  readonly #queued = new Map<C, string[]>();
  #scheduled = false;

  constructor(private readonly write: (conn: C, data: Buffer) => void) {}

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
    // Per flush: each distinct frame encoded once; a socket whose frames are those of the message
    // most sockets got (or of the last one built) gets that very message. The frames a room
    // delivers are the same strings for every socket, so the check is mostly pointer compares.
    const encoded = new Map<string, Buffer>();
    const encode = (text: string) => {
      let data = encoded.get(text);
      if (!data) encoded.set(text, (data = Buffer.from(text, 'utf8')));
      return data;
    };
    let last: Built | undefined;
    let common: Built | undefined;
    for (const conn of conns) {
      const texts = this.#queued.get(conn)!;
      this.#queued.delete(conn);
      let message = common && sameFrames(common.texts, texts) ? common : last && sameFrames(last.texts, texts) ? last : undefined;
      if (!message) {
        message = { texts, data: texts.length === 1 ? encode(texts[0]) : arrayMessage(texts.map(encode)), uses: 0 };
        last = message;
      }
      message.uses += 1;
      if (message !== common && message.uses > (common?.uses ?? 0)) common = message;
      this.write(conn, message.data);
    }
  }
}

interface Built {
  texts: string[];
  data: Buffer;
  /** Sockets it was written to in this flush. */
  uses: number;
}

function sameFrames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const OPEN_BRACKET = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE_BRACKET = Buffer.from(']');

/** `[frame,frame,...]` from the frames' UTF-8 bytes. */
function arrayMessage(frames: Buffer[]): Buffer {
  const parts: Buffer[] = [OPEN_BRACKET];
  for (const [i, frame] of frames.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(frame);
  }
  parts.push(CLOSE_BRACKET);
  return Buffer.concat(parts);
}

/** The part of a `ws` socket a bounded send needs. */
export interface BoundedSocket {
  readonly readyState: number;
  /** Bytes written and not yet taken by the client (ws's queue plus the TCP socket's). */
  readonly bufferedAmount: number;
  /** A Buffer goes as a text message too (`binary: false`): it holds UTF-8 JSON. */
  send(data: string | Buffer, options: { binary: boolean }): void;
}

const OPEN = 1;

/**
 * Outbound backpressure: sends `data` unless the socket is no longer open ('closed') or already
 * holds more than `maxBuffered` unread bytes ('behind': the caller closes it with
 * LIVE_CLOSE.tooFarBehind). The check is on what is already waiting, so one big message (the
 * whole sheet, on an idle socket) still goes; what a socket holds stays under `maxBuffered` plus
 * one event-loop turn's frames, never an unbounded backlog.
 */
export function sendBounded(socket: BoundedSocket, data: string | Buffer, maxBuffered: number): 'sent' | 'closed' | 'behind' {
  if (socket.readyState !== OPEN) return 'closed';
  if (socket.bufferedAmount > maxBuffered) return 'behind';
  socket.send(data, { binary: false });
  return 'sent';
}
