import {
  CELL_PATCH_MAX_CHANGES,
  LIVE_MAX_FRAME_BYTES,
  type CellChange,
  type LiveOperation,
  type SheetSize,
  type StructureOperationType,
} from '@tessera/contracts';
import type { StructureChange } from '../grid/SheetGrid.js';

/**
 * The operations the grid's own edits become (spec 01 §3 "Collaboration operation"): one
 * cell is a cell_update, a paste or a range a cells_update (cut into operations the server
 * takes: at most CELL_PATCH_MAX_CHANGES cells and well under the frame limit each), and
 * rows or columns inserted or removed a structure operation.
 */

// Room left in a frame for the operation's envelope (type, ids, sheet id, timestamp).
const FRAME_BUDGET = Math.floor(LIVE_MAX_FRAME_BYTES * 0.9);

/**
 * A random operation id. crypto.randomUUID exists only in secure contexts (an http page on
 * a LAN address is not one); getRandomValues exists everywhere.
 */
export function operationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const now = () => new Date().toISOString();

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

export function cellOperations(changes: readonly CellChange[], userId: string): LiveOperation[] {
  if (changes.length === 1) {
    const [{ row, col, value }] = changes;
    return [{ id: operationId(), type: 'cell_update', position: { row, column: col }, value, user_id: userId, timestamp: now() }];
  }
  const operations: LiveOperation[] = [];
  let chunk: CellChange[] = [];
  let bytes = 0;
  const cut = () => {
    if (chunk.length === 0) return;
    operations.push({ id: operationId(), type: 'cells_update', changes: chunk, user_id: userId, timestamp: now() });
    chunk = [];
    bytes = 0;
  };
  for (const change of changes) {
    // The change's exact size in the frame: JSON escapes (a control character is 6 bytes as \u0001,
    // a quote or backslash 2) make a text larger than 3 bytes a character.
    const size = encodedLength(JSON.stringify(change)) + 1;
    if (chunk.length === CELL_PATCH_MAX_CHANGES || (chunk.length > 0 && bytes + size > FRAME_BUDGET)) cut();
    chunk.push(change);
    bytes += size;
  }
  cut();
  return operations;
}

/**
 * The structure operation of a change in the grid, in the stored grid's terms: the grid
 * shows spare rows and columns beyond the stored size, and changes among those alone are
 * not the sheet's (nothing to send). A removal reaching into them is cut to the stored part.
 */
export function structureOperation(change: StructureChange, size: SheetSize, userId: string): LiveOperation | null {
  const stored = change.axis === 'row' ? size.rows : size.cols;
  const { index } = change;
  let type: StructureOperationType;
  let count: number;
  if (change.amount > 0) {
    if (index > stored) return null;
    type = change.axis === 'row' ? 'rows_insert' : 'columns_insert';
    count = change.amount;
  } else {
    count = Math.min(stored, index - change.amount) - index;
    if (count <= 0) return null;
    type = change.axis === 'row' ? 'rows_remove' : 'columns_remove';
  }
  return { id: operationId(), type, index, count, user_id: userId, timestamp: now() };
}
