import type { CellChange } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { REDO_SOURCE, UNDO_SOURCE } from '../undo/undo-stack.js';
import { LIVE_SOURCE } from './grid-link.js';
import { toCellValue, typedValue } from './grid-shape.js';

// Sources of changes that are not the user's: (re)loading the data, and other users' changes.
const NOT_EDITS = new Set<string>(['loadData', 'updateData', LIVE_SOURCE]);
// Changes that put back values as they were stored: a text '80000' (imported from a CSV) stays a text.
const NOT_TYPED = new Set<string>([...NOT_EDITS, UNDO_SOURCE, REDO_SOURCE]);

/** beforeChange: typed and pasted numbers are stored as numbers, in the grid and on the server alike. */
export function typeCellEdits(changes: (Handsontable.CellChange | null)[], source: string): void {
  if (NOT_TYPED.has(source)) return;
  for (const change of changes) if (change) change[3] = typedValue(change[3]);
}

/**
 * afterChange: the user's edits that changed a cell, as the cells to send. `rowOffset` is the
 * absolute row of the grid's first row (a windowed grid holds a slab of the sheet).
 */
export function cellEdits(changes: Handsontable.CellChange[] | null, source: string, rowOffset = 0): CellChange[] {
  if (!changes || NOT_EDITS.has(source)) return [];
  const cells: CellChange[] = [];
  for (const [row, prop, before, after] of changes) {
    if (typeof prop !== 'number' || before === after) continue;
    cells.push({ row: rowOffset + row, col: prop, value: toCellValue(after) });
  }
  return cells;
}
