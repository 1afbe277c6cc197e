import { CELL_PATCH_MAX_CHANGES, type CellChange } from '../sheets/sheet.schema.js';
import { LIVE_MAX_FRAME_BYTES } from './live.schema.js';

/** Room for the changes in one operation frame; the rest of LIVE_MAX_FRAME_BYTES is the envelope (type, ids, sheet id, timestamp). */
export const FRAME_CHANGES_BUDGET = Math.floor(LIVE_MAX_FRAME_BYTES * 0.9);

/** UTF-8 bytes of a JSON text (JSON.stringify escapes lone surrogates, so every surrogate here is half of a pair: 4 bytes a pair). */
export function encodedLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Cell changes cut, in order, into runs the server takes as one operation each: at most
 * CELL_PATCH_MAX_CHANGES cells, and at most FRAME_CHANGES_BUDGET bytes of changes counted
 * exactly as they go in the frame (JSON escapes included: a control character is 6 bytes as
 * \u0001, a quote or backslash 2), so no frame passes the socket's bound.
 */
export function chunkChanges<C extends CellChange>(changes: readonly C[]): C[][] {
  const chunks: C[][] = [];
  let chunk: C[] = [];
  let bytes = 0;
  for (const change of changes) {
    const size = encodedLength(JSON.stringify(change)) + 1;
    if (chunk.length === CELL_PATCH_MAX_CHANGES || (chunk.length > 0 && bytes + size > FRAME_CHANGES_BUDGET)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(change);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
