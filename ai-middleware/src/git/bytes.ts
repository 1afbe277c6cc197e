/**
 * Byte loops over the few bytes of a git header or tree entry: cheaper than Buffer#compare and
 * Buffer#indexOf, whose native calls (and, with offsets, argument checks through Node's error
 * helpers) cost more than the loop at these lengths.
 */

/** Whether `length` bytes of `buf` from `at` equal `other`'s from `from`. */
export function sameBytes(buf: Uint8Array, at: number, other: Uint8Array, from = 0, length = other.length): boolean {
  for (let i = 0; i < length; i += 1) if (buf[at + i] !== other[from + i]) return false;
  return true;
}

/** A byte's next offset from `from` (the buffer's length when there is none). */
export function indexOfByte(buf: Uint8Array, byte: number, from: number): number {
  let i = from;
  while (i < buf.length && buf[i] !== byte) i += 1;
  return i;
}
