import zlib from 'node:zlib';

/**
 * zlib's inflate of one whole stream, `size` bytes out, with one zlib engine kept
 * for every call. `zlib.inflateSync` builds a stream object (a Transform, its
 * state, a native handle with its 32 KB window) per call and closes it after:
 * about three quarters of the cost of inflating a small git object, and most of
 * the garbage of a history walk (~12,000 objects on a cold /git/tree). The kept
 * engine's native handle is reset between calls instead. That handle is Node's
 * own (`_handle.writeSync`/`reset`, what inflateSync runs underneath): when it is
 * not there as expected, every call goes through inflateSync.
 */

interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

interface Engine {
  handle: NativeHandle;
  /** [avail_out, avail_in] after each write. */
  state: Uint32Array;
  failure: Error | null;
}

let engine: Engine | null | undefined;

function newEngine(): Engine | null {
  const stream = new zlib.Inflate() as unknown as { _handle?: Partial<NativeHandle>; _writeState?: unknown };
  const handle = stream._handle;
  const state = stream._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) return null;
  const made: Engine = { handle: handle as NativeHandle, state, failure: null };
  // zlib reports a bad stream through this callback, during writeSync; the stream's own one would destroy the stream.
  made.handle.onerror = (message, errno, code) => {
    made.failure = Object.assign(new Error(message), { errno, code });
  };
  return made;
}

/**
 * The zlib stream at the start of `input` inflated, when it inflates to exactly `size`
 * bytes; an Error when it is not a valid stream (zlib's message) or has another size.
 * With `into`, the bytes are written there from `at` (it must have `size + 1` bytes of
 * room: the one over catches a longer stream) and the result is a view of them: a cache
 * can keep objects in a few large buffers instead of one buffer each. `from`: where the stream
 * starts in `input` (a pack entry's offset: no view of the pack made per object).
 */
export function inflateExact(input: Uint8Array, size: number, into?: Buffer, at = 0, from = 0): Buffer {
  if (engine === undefined) engine = newEngine();
  if (!engine) {
    const whole = checked(zlib.inflateSync(from ? input.subarray(from) : input, { chunkSize: size + 64 }), size);
    if (!into) return whole;
    whole.copy(into, at);
    return into.subarray(at, at + size);
  }
  // One byte more than announced: a stream that fills it is longer than its header says.
  const out = into ?? Buffer.allocUnsafe(size + 1);
  const room = into ? size + 1 : out.length;
  if (into && at + room > into.length) throw new RangeError('inflateExact: no room for the object and one byte');
  const current = engine;
  current.handle.reset();
  current.handle.writeSync(zlib.constants.Z_FINISH, input, from, input.length - from, out, at, room);
  if (current.failure) {
    // A failed engine is not reused: the next call makes a new one.
    engine = undefined;
    throw current.failure;
  }
  return checked(out.subarray(at, at + room - current.state[0]), size);
}

/** Bytes enough for a loose object's `<type> <size>\0` (the longest type, 6, and a size of 20 digits). */
const LOOSE_HEAD_BYTES = 32;
/** Deflate expands at most about 1,032 to 1: a loose object announcing more is corrupt. */
const DEFLATE_BOUND = 1032;
/**
 * A loose object's content buffer starts at most this large and doubles as content comes
 * out: a header may announce up to 1,032 times the file's size, and a file of a megabyte
 * announcing a gigabyte is not given one before its stream shows what it holds.
 */
const LOOSE_FIRST_CHUNK = 1024 * 1024;
const SPACE = 0x20;

interface LooseHead {
  type: string;
  size: number;
  /** The header's bytes as inflated, with maybe the content's first ones after the NUL. */
  head: Buffer;
  nul: number;
  produced: number;
  /** File bytes zlib has taken so far. */
  consumed: number;
}

/** A loose header's size, when it is one a file of `fileLength` bytes can inflate to. */
function announced(digits: string, fileLength: number): number | null {
  const size = Number(digits);
  return Number.isSafeInteger(size) && size >= 0 && size <= fileLength * DEFLATE_BOUND ? size : null;
}

/** The kept engine, reset, inflating a loose file's first bytes: its `<type> <size>\0`, or null when there is none (or a size no deflate of this file reaches). */
function looseHead(current: Engine, file: Uint8Array): LooseHead | null {
  const head = Buffer.allocUnsafe(LOOSE_HEAD_BYTES);
  current.handle.reset();
  current.handle.writeSync(zlib.constants.Z_NO_FLUSH, file, 0, file.length, head, 0, head.length);
  if (current.failure) {
    engine = undefined;
    throw current.failure;
  }
  const produced = head.length - current.state[0];
  const consumed = file.length - current.state[1];
  const space = head.indexOf(SPACE);
  const nul = space < 0 ? -1 : head.indexOf(0, space);
  if (nul < 0 || nul >= produced) return null;
  const size = announced(head.toString('latin1', space + 1, nul), file.length);
  if (size === null) return null;
  return { type: head.toString('latin1', 0, space), size, head, nul, produced, consumed };
}

/**
 * A loose object file's type and announced size, from its first inflated bytes only;
 * null when it has no such header or announces a size its bytes cannot inflate to.
 */
export function looseSize(file: Uint8Array): number | null {
  if (engine === undefined) engine = newEngine();
  if (!engine) {
    // Without the engine (see above): the first bytes through inflateSync, the stream's end not expected.
    const head = zlib.inflateSync(file.subarray(0, 256), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const space = head.indexOf(SPACE);
    const nul = space < 0 ? -1 : head.indexOf(0, space);
    return nul < 0 ? null : announced(head.toString('latin1', space + 1, nul), file.length);
  }
  return looseHead(engine, file)?.size ?? null;
}

/**
 * A loose object file inflated: its type and content. Its `<type> <size>\0` header is
 * inflated first into a few bytes, then the rest of the stream into a buffer that grows
 * (from LOOSE_FIRST_CHUNK, doubling) up to the announced size and one byte over. Null
 * when the file does not start with such a header; an Error when the stream is damaged
 * or its content has another size.
 */
export function inflateLoose(file: Uint8Array): { type: string; content: Buffer } | null {
  if (engine === undefined) engine = newEngine();
  if (!engine) return splitLoose(zlib.inflateSync(file));
  const current = engine;
  const parsed = looseHead(current, file);
  if (!parsed) return null;
  const { type, size, head, nul, produced } = parsed;
  let consumed = parsed.consumed;
  // The content's first bytes may have come out with the header; then the rest, into the same buffer, one byte over.
  let out = Buffer.allocUnsafe(Math.min(size + 1, LOOSE_FIRST_CHUNK));
  let length = head.copy(out, 0, nul + 1, produced);
  for (;;) {
    current.handle.writeSync(zlib.constants.Z_FINISH, file, consumed, file.length - consumed, out, length, out.length - length);
    if (current.failure) {
      engine = undefined;
      throw current.failure;
    }
    length = out.length - current.state[0];
    consumed = file.length - current.state[1];
    // Room left: the stream has ended. Full below the announced size and one: more may come, in a larger buffer.
    if (length < out.length || out.length === size + 1) break;
    const larger = Buffer.allocUnsafe(Math.min(size + 1, out.length * 2));
    out.copy(larger, 0, 0, length);
    out = larger;
  }
  return { type, content: checked(out.subarray(0, length), size) };
}

/** `<type> <size>\0<content>` as inflateSync gives it whole (the engine's absence only). */
function splitLoose(raw: Buffer): { type: string; content: Buffer } | null {
  const space = raw.indexOf(SPACE);
  const nul = space < 0 ? -1 : raw.indexOf(0, space);
  if (nul < 0) return null;
  return { type: raw.toString('latin1', 0, space), content: raw.subarray(nul + 1) };
}

function checked(out: Buffer, size: number): Buffer {
  if (out.length > size) throw new Error(`the object inflates to more than the ${size} bytes its header says`);
  if (out.length < size) throw new Error(`the object inflates to ${out.length} bytes, its header says ${size}`);
  return out;
}
