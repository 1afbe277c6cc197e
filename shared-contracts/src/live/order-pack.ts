/**
 * A sort's order (`order[newRow] = oldRow`, rows-sort.ts) packed into a short text for the op
 * log: 1,000,000 rows as a JSON array of numbers is about 6.9 MB; packed, a random order is about
 * 3.3 MB (fixed-width bits, base64) and a column of few distinct values or an already (reverse)
 * sorted one a few bytes (runs of equal steps). The api writes it and reads it back (versions'
 * catch-up, moves of live ops based before the sort); frames never carry it.
 *
 * Text: one letter, then base64 of the bytes:
 * - 'b': fixed width — a byte holding the width w (1–21 bits), then every entry in w bits, LSB first;
 * - 'r': runs of equal steps — varints: the first entry, then pairs (zigzag step, count) where
 *   each of `count` entries is the previous one plus `step`.
 * The smaller of the two is written.
 */

import { fromBase64, pushVarint, toBase64, VarintReader } from '../packing/packed-bytes.js';

const BITS_MAX = 21;

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** The runs form, or null once it is larger than `limit` bytes (the other form wins). */
function runsBytes(order: ArrayLike<number>, limit: number): Uint8Array | null {
  const out: number[] = [];
  if (order.length === 0) return new Uint8Array(0);
  pushVarint(out, order[0]);
  let i = 1;
  while (i < order.length) {
    const step = order[i] - order[i - 1];
    let count = 1;
    while (i + count < order.length && order[i + count] - order[i + count - 1] === step) count++;
    pushVarint(out, zigzag(step));
    pushVarint(out, count);
    if (out.length > limit) return null;
    i += count;
  }
  return Uint8Array.from(out);
}

function bitsBytes(order: ArrayLike<number>): Uint8Array {
  let width = 1;
  while (width < BITS_MAX && 2 ** width < order.length) width++;
  const out = new Uint8Array(1 + Math.ceil((order.length * width) / 8));
  out[0] = width;
  let bit = 8;
  for (let i = 0; i < order.length; i++) {
    let v = order[i];
    for (let k = 0; k < width; k++, bit++, v >>>= 1) if (v & 1) out[bit >> 3] |= 1 << (bit & 7);
  }
  return out;
}

/** `order` (a permutation of 0 … n-1, n ≤ 2^21) as its packed text. */
export function packOrder(order: ArrayLike<number>): string {
  const bits = bitsBytes(order);
  const runs = runsBytes(order, bits.length);
  return runs !== null && runs.length < bits.length ? `r${toBase64(runs)}` : `b${toBase64(bits)}`;
}

/** The order of `rows` entries packed in `text`, or null when it is not one (wrong size, form, or not a permutation). */
export function unpackOrder(text: string, rows: number): Int32Array | null {
  if (!Number.isInteger(rows) || rows < 0 || rows > 2 ** BITS_MAX) return null;
  const bytes = fromBase64(text.slice(1));
  if (bytes === null) return null;
  const order = new Int32Array(rows);
  if (text[0] === 'b') {
    const width = bytes[0];
    if (rows > 0 && (width === undefined || width < 1 || width > BITS_MAX || bytes.length !== 1 + Math.ceil((rows * width) / 8))) return null;
    let bit = 8;
    for (let i = 0; i < rows; i++) {
      let v = 0;
      for (let k = 0; k < width; k++, bit++) if (bytes[bit >> 3] & (1 << (bit & 7))) v |= 1 << k;
      order[i] = v;
    }
  } else if (text[0] === 'r') {
    const reader = new VarintReader(bytes);
    const varint = () => reader.next();
    let i = 0;
    if (rows > 0) {
      const first = varint();
      if (first < 0) return null;
      order[i++] = first;
    }
    while (i < rows) {
      const step = varint();
      const count = varint();
      if (step < 0 || count < 1 || i + count > rows) return null;
      const d = unzigzag(step);
      for (let k = 0; k < count; k++, i++) order[i] = order[i - 1] + d;
    }
    if (!reader.done) return null;
  } else {
    return null;
  }
  const seen = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = order[i];
    if (v < 0 || v >= rows || seen[v]) return null;
    seen[v] = 1;
  }
  return order;
}
