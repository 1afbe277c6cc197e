import { type CellValue, GRID_DIFF_LIST_MAX, type GridCellDiff, type GridDiff } from '@tessera/contracts';

export interface Grid {
  headers: string[];
  rows: CellValue[][];
}

/** Cells compare as the grid shows them: 10 and "10" are equal, null and "" too, surrounding spaces do not count. */
function shown(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

/**
 * Where the grid the code produces differs from the grid the user has: every cell of the
 * larger of the two (a missing row or column reads as empty), in row order; headers are
 * compared by their text. The first GRID_DIFF_LIST_MAX cells are listed, all are counted.
 */
export function diffGrids(code: Grid, sheet: Grid): GridDiff {
  // A loop, not Math.max(...rows): a 100,000-row spread overflows the call stack.
  let width = Math.max(code.headers.length, sheet.headers.length);
  for (const row of code.rows) width = Math.max(width, row.length);
  for (const row of sheet.rows) width = Math.max(width, row.length);
  const height = Math.max(code.rows.length, sheet.rows.length);
  const headersChanged =
    Math.max(code.headers.length, sheet.headers.length) > 0 &&
    Array.from({ length: width }, (_, c) => shown(code.headers[c]) !== shown(sheet.headers[c])).some(Boolean);
  const cells: GridCellDiff[] = [];
  let count = 0;
  for (let r = 0; r < height; r++) {
    const a = code.rows[r] ?? [];
    const b = sheet.rows[r] ?? [];
    for (let c = 0; c < width; c++) {
      if (shown(a[c]) === shown(b[c])) continue;
      count++;
      if (cells.length < GRID_DIFF_LIST_MAX) {
        cells.push({ row: r, col: c, header: sheet.headers[c] ?? code.headers[c] ?? '', code: a[c] ?? null, sheet: b[c] ?? null });
      }
    }
  }
  return { count, headers_changed: headersChanged, code_headers: code.headers, code_rows: code.rows.length, sheet_rows: sheet.rows.length, cells };
}
