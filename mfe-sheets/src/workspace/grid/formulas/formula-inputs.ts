import type Handsontable from 'handsontable/base';
import { toCellValue } from '../grid-shape.js';
import type { CellInput } from './formula-messages.js';

// Sources that replace all the rows: the formula worker reads them again (afterLoadData /
// afterUpdateData) rather than cell by cell.
const RELOADS = new Set<string>(['loadData', 'updateData']);

/**
 * afterChange: the cells whose contents the formula worker must be told, from any source but a
 * reload — other users' changes (LIVE_SOURCE), undo and paste too: what formulas show depends on them.
 */
export function formulaInputs(changes: Handsontable.CellChange[] | null, source: string): CellInput[] {
  if (!changes || RELOADS.has(source)) return [];
  const inputs: CellInput[] = [];
  for (const [row, prop, before, after] of changes) if (typeof prop === 'number' && before !== after) inputs.push([row, prop, toCellValue(after)]);
  return inputs;
}
