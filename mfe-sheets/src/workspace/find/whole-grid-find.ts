import { cellMatches, type CellValue, findNeedle, type GridData } from '@tessera/contracts';
import { shownValue } from '../grid/formulas/formula-renderer.js';
import type { FormulaValues } from '../grid/formulas/formula-values.js';
import { filteredOut } from '../filter/grid-filter.js';

/**
 * Cells looked at per task while a whole grid is searched: 100,000 × 10 cells is some ten tasks
 * of a few milliseconds each, so typing and drawing go on between them (no long task).
 */
export const FIND_SLICE_CELLS = 100_000;

/** Every match of a whole grid, in row order: row i's column is cols[i]. */
export interface WholeMatches {
  rows: number[];
  cols: number[];
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Does stored cell (row, col) of `data` match `needle`, by the text it shows (a formula's value when
 * computed)? A row the user's filter hides holds no match (filteredOut says why).
 */
export function wholeCellMatches(data: GridData, formulas: FormulaValues | null, row: number, col: number, needle: string): boolean {
  if (filteredOut(data)?.(row)) return false;
  return cellMatches(shownValue(formulas, data[row]?.[col], row, col) as CellValue | undefined, needle);
}

/**
 * Every cell of a whole grid whose shown text contains `query` (contracts cellMatches), found in
 * slices of FIND_SLICE_CELLS cells, each in a task of its own; null when `stale()` turned true
 * meanwhile (another query typed, the bar closed). The rows are read as they are at each slice:
 * an edit made during the search is seen or not, by where it falls.
 */
export async function findInGrid(data: GridData, formulas: () => FormulaValues | null, query: string, stale: () => boolean): Promise<WholeMatches | null> {
  const needle = findNeedle(query);
  const found: WholeMatches = { rows: [], cols: [] };
  let row = 0;
  while (row < data.length) {
    await nextTask();
    if (stale()) return null;
    const values = formulas();
    const hidden = filteredOut(data);
    let cells = 0;
    for (; row < data.length && cells < FIND_SLICE_CELLS; row++) {
      const cellsOfRow = data[row];
      if (!cellsOfRow || hidden?.(row)) continue;
      cells += cellsOfRow.length + 1;
      for (let col = 0; col < cellsOfRow.length; col++) {
        if (cellMatches(shownValue(values, cellsOfRow[col], row, col) as CellValue | undefined, needle)) {
          found.rows.push(row);
          found.cols.push(col);
        }
      }
    }
  }
  return stale() ? null : found;
}
