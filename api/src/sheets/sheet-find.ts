import { type FindQuery, type FindResult, FindScan, SHEET_ROWS_WINDOW_MAX } from '@tessera/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { readRowWindow } from './row-window.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * GET /sheets/:id/find's scan of a sheet of `rowCount` rows (a windowed sheet's: its rows are not
 * in the browser): read through readRowWindow a window of SHEET_ROWS_WINDOW_MAX rows at a time,
 * in row order, each window parsed, matched (contracts FindScan: cellMatches on the cells' text,
 * formulas by their text as a windowed grid shows them) and let go before the next is read, so the
 * memory held is one window's, never the sheet's. It stops once the answer is settled (the
 * matches asked for found and more than FIND_COUNT_CAP counted), or when `closed()` (the client
 * went: nobody waits for the rest). Call it in the snapshot that read `rowCount` and the version.
 */
export async function findInSheet(db: Db, sheetId: string, rowCount: number, query: FindQuery, closed: () => boolean): Promise<Pick<FindResult, 'matches' | 'total' | 'complete' | 'wrapped'>> {
  const scan = new FindScan(query);
  for (let start = 0; start < rowCount; start += SHEET_ROWS_WINDOW_MAX) {
    if (closed()) return scan.result(false);
    const rows = await readRowWindow(db, sheetId, start, Math.min(SHEET_ROWS_WINDOW_MAX, rowCount - start));
    if (!scan.feed(rows, start)) return scan.result(start + SHEET_ROWS_WINDOW_MAX >= rowCount);
  }
  return scan.result(true);
}
