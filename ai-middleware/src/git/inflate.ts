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
 */
export function inflateExact(input: Uint8Array, size: number): Buffer {
  if (engine === undefined) engine = newEngine();
  if (!engine) return checked(zlib.inflateSync(input, { chunkSize: size + 64 }), size);
  // One byte more than announced: a stream that fills it is longer than its header says.
  const out = Buffer.allocUnsafe(size + 1);
  const current = engine;
  current.handle.reset();
  current.handle.writeSync(zlib.constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
  if (current.failure) {
    // A failed engine is not reused: the next call makes a new one.
    engine = undefined;
    throw current.failure;
  }
  return checked(out.subarray(0, out.length - current.state[0]), size);
}

function checked(out: Buffer, size: number): Buffer {
  if (out.length > size) throw new Error(`the entry inflates to more than the ${size} bytes its header says`);
  if (out.length < size) throw new Error(`the entry inflates to ${out.length} bytes, its header says ${size}`);
  return out;
}
