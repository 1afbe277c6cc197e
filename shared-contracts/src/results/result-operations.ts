import { chunkChanges } from '../live/frame-size.js';
import { type CellChange, type CellValue, type GridData } from '../sheets/sheet.schema.js';
import type { LiveOperationInput } from '../shell/shell-context.js';

let counter = 0;
/** Unique in this page (the acks carry it back); crypto.randomUUID exists only on secure pages. */
const resultOperationId = () => `result-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${(counter++).toString(36)}`;

/**
 * The live operations that turn the active sheet's `current` grid into an AI or code result
 * `target` of the same columns (DESIGN.md § Where an AI result goes): rows added at the
 * end first, then the changed cells in chunks the server takes (CELL_PATCH_MAX_CHANGES cells and
 * under the socket's frame bound a cells_update), then the rows past the target's end removed.
 * Unchanged cells are not sent.
 */
export function gridToOperations(current: GridData, target: CellValue[][], width: number, newId: () => string = resultOperationId): LiveOperationInput[] {
  const ops: LiveOperationInput[] = [];
  if (target.length > current.length) {
    ops.push({ id: newId(), type: 'rows_insert', index: current.length, count: target.length - current.length });
  }
  const changes: CellChange[] = [];
  for (let row = 0; row < target.length; row++) {
    for (let col = 0; col < width; col++) {
      const next = target[row][col] ?? null;
      const before = current[row]?.[col] ?? null;
      if (next !== before) changes.push({ row, col, value: next });
    }
  }
  // Cut as the grid cuts a paste: CELL_PATCH_MAX_CHANGES cells and under the frame bound each.
  for (const chunk of chunkChanges(changes)) ops.push({ id: newId(), type: 'cells_update', changes: chunk, source: 'ai' });
  if (target.length < current.length) {
    ops.push({ id: newId(), type: 'rows_remove', index: target.length, count: current.length - target.length });
  }
  return ops;
}

/** How many cells the operations change (for the reply's note). */
export const changedCells = (ops: LiveOperationInput[]): number =>
  ops.reduce((n, op) => n + (op.type === 'cells_update' ? op.changes.length : op.type === 'cell_update' ? 1 : 0), 0);
