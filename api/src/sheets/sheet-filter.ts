import { type CellValue, ERROR_CODES, SHEET_ROWS_WINDOW_MAX } from '@tessera/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { readWindowChunks } from './row-window.js';
import { rowsOfText } from './window-text.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A filter scan's pass over a sheet of `rowCount` rows (POST /sheets/:id/filter and its values: a
 * windowed sheet's rows are not in the browser), as find's (sheet-find.ts): the chunks of a window
 * of SHEET_ROWS_WINDOW_MAX rows at a time in row order, each parsed, fed to `feed` (contracts'
 * RowFilterScan or FilterValuesScan) and let go before the next is read: the memory held is one
 * window's and the scan's own. Between windows the event loop is let go (setImmediate), so a
 * 1,000,000-row scan holds it for one window's read and test at a time, never seconds (bench
 * row-filter-windowed.mjs). False when `closed()` (the client went): the scan stopped.
 */
export async function scanSheetRows(db: Db, sheetId: string, rowCount: number, feed: (rows: CellValue[][], first: number) => void, closed: () => boolean): Promise<boolean> {
  for (let start = 0; start < rowCount; start += SHEET_ROWS_WINDOW_MAX) {
    if (closed()) return false;
    const end = Math.min(rowCount, start + SHEET_ROWS_WINDOW_MAX);
    for (const chunk of await readWindowChunks(db, sheetId, start, end - start)) {
      // A chunk may straddle two windows (row ops leave chunks of any size): each window takes its own rows of it.
      const from = Math.max(start, chunk.first);
      feed(rowsOfText(chunk.text, from - chunk.first, end - chunk.first), from);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return !closed();
}

/** Every filtered column (and the one whose values are asked) must be one of the sheet's `colCount` columns. */
export function requireColumnsInSheet(columns: readonly number[], colCount: number): void {
  const outside = columns.find((c) => c >= colCount);
  if (outside !== undefined) throw new HttpError(400, ERROR_CODES.validation, `column ${outside} is not in the sheet (it has ${colCount} ${colCount === 1 ? 'column' : 'columns'})`);
}
