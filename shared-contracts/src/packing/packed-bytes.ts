/**
 * The byte level of the packed texts (a sort's order, live/order-pack.ts; a filter's rows shown,
 * find/row-runs.ts): unsigned varints (7 bits a byte, low first) and base64 of byte arrays of any size.
 */

/** Appends `value` (a whole number ≥ 0) as a varint. */
export function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** Reads varints from `bytes` in turn: next() is the next one, or -1 when the bytes end within one or it passes 2^35. */
export class VarintReader {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  next(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.bytes.length || scale > 2 ** 28) return -1;
      const b = this.bytes[this.at++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  }
}

export function toBase64(bytes: Uint8Array | readonly number[]): string {
  let text = '';
  // In slices: String.fromCharCode of a whole MB-size array would pass the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.slice(i, i + 0x8000));
  return btoa(text);
}

/** The bytes of a base64 text, or null when it is none. */
export function fromBase64(text: string): Uint8Array | null {
  let raw: string;
  try {
    raw = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
