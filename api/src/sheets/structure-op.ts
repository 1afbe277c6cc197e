import { type CellValue, columnLabel, type GridData, normalizeHeaders, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '@tessera/contracts';
import type { StoredStructureOp } from './sheet-ops.tables.js';

/**
 * Rows or columns inserted or removed (a live structural operation). Pure functions: the
 * bounds check against the sheet's size, and the new grid and headers.
 */

/** Why the operation does not fit the sheet (rows × columns), or null when it does. */
export function structureError(op: StoredStructureOp, rows: number, columns: number): string | null {
  const { index, count } = op;
  switch (op.type) {
    case 'rows_insert':
      if (index > rows) return `Cannot insert rows at row ${index + 1}: the sheet has ${rows} rows`;
      if (rows + count > SHEET_MAX_ROWS) return `Cannot insert ${count} rows: a sheet holds at most ${SHEET_MAX_ROWS} rows`;
      return null;
    case 'rows_remove':
      if (index + count > rows) return `Cannot remove rows ${index + 1} to ${index + count}: the sheet has ${rows} rows`;
      return null;
    case 'columns_insert':
      if (index > columns) return `Cannot insert columns at column ${index + 1}: the sheet has ${columns} columns`;
      if (columns + count > SHEET_MAX_COLUMNS) return `Cannot insert ${count} columns: a sheet holds at most ${SHEET_MAX_COLUMNS} columns`;
      return null;
    case 'columns_remove':
      if (index + count > columns) return `Cannot remove columns ${index + 1} to ${index + count}: the sheet has ${columns} columns`;
      return null;
  }
}

export interface Restructured {
  grid: GridData;
  headers: string[];
  rowCount: number;
  colCount: number;
}

/** Default headers (A, B, C...) are relabelled after a column change; named ones keep their names and move. */
function isDefault(headers: readonly string[]): boolean {
  return headers.every((h, i) => h === columnLabel(i));
}

/** Applies a structural operation that structureError accepted. `grid` is changed in place. */
export function restructure(grid: GridData, headers: readonly string[], columns: number, op: StoredStructureOp): Restructured {
  const { index, count } = op;
  const current = normalizeHeaders(headers, columns);
  switch (op.type) {
    case 'rows_insert': {
      // Not splice(index, 0, ...blank): past ~120,000 arguments a spread overflows the call stack.
      const below = grid.splice(index);
      for (let r = 0; r < count; r++) grid.push(Array<CellValue>(columns).fill(''));
      for (const row of below) grid.push(row);
      return { grid, headers: current, rowCount: grid.length, colCount: columns };
    }
    case 'rows_remove':
      grid.splice(index, count);
      return { grid, headers: current, rowCount: grid.length, colCount: columns };
    case 'columns_insert': {
      const colCount = columns + count;
      // A stored row may be shorter than the sheet: its cells past the end are empty already.
      for (const row of grid) if (row.length > index) row.splice(index, 0, ...Array<CellValue>(count).fill(''));
      const names = isDefault(current)
        ? normalizeHeaders([], colCount)
        : [...current.slice(0, index), ...Array.from({ length: count }, (_, k) => columnLabel(index + k)), ...current.slice(index)];
      return { grid, headers: names, rowCount: grid.length, colCount };
    }
    case 'columns_remove': {
      const colCount = columns - count;
      for (const row of grid) if (row.length > index) row.splice(index, count);
      const names = isDefault(current) ? normalizeHeaders([], colCount) : [...current.slice(0, index), ...current.slice(index + count)];
      return { grid, headers: names, rowCount: grid.length, colCount };
    }
  }
}
