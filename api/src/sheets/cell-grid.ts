import type { CellValue, GridData } from '@tessera/contracts';

/** Rows per stored chunk: an edit rewrites at most this many rows per touched chunk. */
export const CHUNK_ROWS = 500;

export const chunkOf = (row: number) => Math.floor(row / CHUNK_ROWS);
export const chunkCount = (rowCount: number) => Math.ceil(rowCount / CHUNK_ROWS);

/** Empty cells compare equal whether absent, null or ''. */
export function sameCell(a: CellValue | undefined, b: CellValue | undefined): boolean {
  const x = a === undefined || a === null ? '' : a;
  const y = b === undefined || b === null ? '' : b;
  return x === y;
}

export const cellAt = (grid: GridData, row: number, col: number): CellValue => grid[row]?.[col] ?? null;

/** Widest row: the sheet's column count. */
export function widthOf(grid: GridData): number {
  let width = 0;
  for (const row of grid) if (row.length > width) width = row.length;
  return width;
}

/**
 * `rows` empty rows. An empty row is stored as [] whatever the sheet's width (the sheet's
 * col_count says the width; readers pad where they need full rows): a 1,000 × 10,000 empty
 * sheet costs 1,000 × 3 bytes, not 10 million cells.
 */
export function emptyRows(rows: number): GridData {
  return Array.from({ length: rows }, () => []);
}

/** One changed cell as the op log keeps it. */
export interface CellDelta {
  row: number;
  col: number;
  old: CellValue;
  new: CellValue;
}
