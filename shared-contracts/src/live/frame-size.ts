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
 * The encoded size of a change `{"row":R,"col":C,"value":V}` whose value JSON writes as it is (null,
 * a boolean, a number: no escapes), counted without building its text (a million cells cleared are
 * a million nulls); null for a text or a change carrying more keys (JSON.stringify counts those).
 */
function plainChangeSize(change: CellChange): number | null {
  const { value } = change;
  let valueBytes: number;
  if (value === null) valueBytes = 4;
  else if (typeof value === 'number') valueBytes = Number.isFinite(value) ? String(value).length : 4;
  else if (typeof value === 'boolean') valueBytes = value ? 4 : 5;
  else return null;
  if (Object.keys(change).length !== 3) return null;
  // {"row": ,"col": ,"value": } around the three.
  return 24 + String(change.row).length + String(change.col).length + valueBytes;
}

/**
 * Cell changes cut, in order, into runs the server takes as one operation each: at most
 * CELL_PATCH_MAX_CHANGES cells, and at most FRAME_CHANGES_BUDGET bytes of changes counted
 * exactly as they go in the frame (JSON escapes included: a control character is 6 bytes as
 * \u0001, a quote or backslash 2), so no frame passes the socket's bound (`budget`: another, for a test).
 */
export function chunkChanges<C extends CellChange>(changes: readonly C[], budget = FRAME_CHANGES_BUDGET): C[][] {
  const chunks: C[][] = [];
  let chunk: C[] = [];
  let bytes = 0;
  for (const change of changes) {
    const size = (plainChangeSize(change) ?? encodedLength(JSON.stringify(change))) + 1;
    if (chunk.length === CELL_PATCH_MAX_CHANGES || (chunk.length > 0 && bytes + size > budget)) {
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
