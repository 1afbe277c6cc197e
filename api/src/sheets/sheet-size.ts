import { ERROR_CODES, SHEET_MAX_COLUMNS, sheetSizeError, tooManyColumnsMessage } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';

/**
 * The cell cap (SHEET_MAX_CELLS) and the column limit, as 413s. Every path that can grow a sheet
 * computes the rows × columns it would have and calls requireSheetSize before it allocates or
 * stores anything.
 */

export const sheetTooLarge = (message: string) => new HttpError(413, ERROR_CODES.payloadTooLarge, message);

/**
 * 413 when a sheet of rows × columns would be beyond the cap or wider than 16,384 columns. With
 * `current` (the sheet's size now), only growth is refused: a sheet left beyond a cap that was
 * lowered since can still be edited inside, and shrunk, but not grown.
 */
export function requireSheetSize(rows: number, columns: number, maxCells: number, current?: { rows: number; columns: number }): void {
  const refused = sheetSizeError(rows, columns, maxCells);
  if (!refused) return;
  if (current && rows * columns <= current.rows * current.columns && columns <= Math.max(current.columns, SHEET_MAX_COLUMNS)) return;
  throw sheetTooLarge(refused);
}

/** The rows and columns cell changes make a sheet of rows × columns grow to (a far cell grows both). */
export function grownSize(rows: number, columns: number, changes: Iterable<{ row: number; col: number }>): { rows: number; columns: number } {
  let r = rows;
  let c = columns;
  for (const change of changes) {
    if (change.row + 1 > r) r = change.row + 1;
    if (change.col + 1 > c) c = change.col + 1;
  }
  return { rows: r, columns: c };
}

const widest = (value: unknown): number => {
  if (!Array.isArray(value)) return 0;
  let width = 0;
  for (const row of value) if (Array.isArray(row) && row.length > width) width = row.length;
  return width;
};

/**
 * The column limit checked on a request body before its schema: a header list, a row or
 * `metadata.columns` wider than 16,384 is a 413 that names the limit, not a schema error.
 */
export function requireColumnsOfBody(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const { headers, data, metadata } = body as Record<string, unknown>;
  const declared = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).columns : undefined;
  const columns = Math.max(Array.isArray(headers) ? headers.length : 0, widest(data), typeof declared === 'number' && Number.isFinite(declared) ? declared : 0);
  if (columns > SHEET_MAX_COLUMNS) throw sheetTooLarge(tooManyColumnsMessage(columns));
}

/** The size a structural operation leaves; inserting rows or columns beyond the cap is a 413. */
export function requireStructureSize(op: { type: string; count: number }, rows: number, columns: number, maxCells: number): void {
  if (op.type === 'rows_insert') requireSheetSize(rows + op.count, columns, maxCells, { rows, columns });
  else if (op.type === 'columns_insert') requireSheetSize(rows, columns + op.count, maxCells, { rows, columns });
}
