import { type ColumnFilterBody, filterRowTest, type FindQuery, type FindResult, FindScan, findNeedle, type GridData, SHEET_ROWS_WINDOW_MAX } from '@tessera/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { readWindowChunks } from './row-window.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A find whose rows moved while it scanned starts again, this many scans at most (then answers what it found). */
export const FIND_ATTEMPTS = 3;

/** Whether rows or columns may have moved after `version`: an op other than cell edits (and charts, names) since. */
export async function rowsMovedSince(db: Db, sheetId: string, version: number): Promise<boolean> {
  const moved = await db
    .selectFrom('sheet_ops')
    .select('version')
    .where('sheet_id', '=', sheetId)
    .where('version', '>', version)
    .where('kind', 'not in', ['cells', 'chart', 'meta'])
    .limit(1)
    .executeTakeFirst();
  return moved !== undefined;
}

/**
 * A test on a chunk's lower-cased stored text that says it holds no match (it is then not parsed),
 * or null when no such test is sure for this needle. Never may it pass over a match (cellMatches on
 * each cell's shown text). A string cell's text is in the JSON as itself but for `"`, `\` and
 * control characters (escaped) and lone surrogates (JSON.stringify escapes them): a needle with
 * none of these that is in a cell's text is in the chunk's text. A boolean is stored as it shows.
 * A number is written by JSON.stringify (its shown text, String(n)) and kept by PostgreSQL's jsonb
 * digit for digit, but for the exponent forms: 1e+21 is read back as 1000000000000000000000 and
 * 1e-7 as 0.0000001. So a needle with a character no number shows (anything but digits, '.', '-',
 * '+', 'e') matches no number: its absence from the text is enough; a needle of number characters
 * is absent only if the text also holds no number that may show in an exponent form.
 */
export function chunkHoldsNoMatch(needle: string): ((lowerText: string) => boolean) | null {
  if (/["\\\u0000-\u001f\ud800-\udfff]/.test(needle)) return null;
  if (/[^0-9.e+-]/.test(needle)) return (text) => !text.includes(needle);
  return (text) => !text.includes(needle) && !mayShowExponent(text);
}

/**
 * May the text hold a number whose shown text has an exponent: 22 digits in a row or more
 * (≥ 1e21), '0.000000' (< 1e-6), or a digit, 'e', then a sign or digit (a number spelled with
 * its exponent)? One pass over the characters: a regular expression tried at each digit cost
 * seconds on a 1,000,000-row sheet of numbers.
 */
function mayShowExponent(text: string): boolean {
  if (text.includes('0.000000')) return true;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++run >= 22) return true;
    } else {
      // 'e' after a digit, before a digit or a sign.
      if (code === 101 && run > 0) {
        const next = text.charCodeAt(i + 1);
        if ((next >= 48 && next <= 57) || next === 43 || next === 45) return true;
      }
      run = 0;
    }
  }
  return false;
}

/**
 * GET /sheets/:id/find's scan of a sheet of `rowCount` rows (a windowed sheet's: its rows are not
 * in the browser): the chunks of a window of SHEET_ROWS_WINDOW_MAX rows at a time, in row order
 * (readWindowChunks, the read of GET /sheets/:id/rows), each matched (contracts FindScan:
 * cellMatches on the cells' text, formulas by their text as a windowed grid shows them) and let go
 * before the next is read, so the memory held is one window's, never the sheet's. A chunk whose
 * text cannot hold a match (chunkHoldsNoMatch) is not parsed. The scan stops once the answer is
 * settled (the matches asked for found and more than FIND_COUNT_CAP counted), or when `closed()`
 * (the client went). Each window is read by its own statement (SheetsService.find says why).
 * With `filters` (POST /sheets/:id/find: the user's row filter on), a row they hide is passed over
 * (filterRowTest, /filter's judging), its matches neither answered nor counted.
 */
export async function findInSheet(db: Db, sheetId: string, rowCount: number, query: FindQuery, closed: () => boolean, filters?: readonly ColumnFilterBody[]): Promise<Pick<FindResult, 'matches' | 'total' | 'complete' | 'wrapped'>> {
  const scan = new FindScan(query, filters && filters.length > 0 ? filterRowTest(filters) : undefined);
  const needle = findNeedle(query.q);
  const holdsNoMatch = chunkHoldsNoMatch(needle);
  for (let start = 0; start < rowCount; start += SHEET_ROWS_WINDOW_MAX) {
    if (closed()) return scan.result(false);
    const end = Math.min(rowCount, start + SHEET_ROWS_WINDOW_MAX);
    for (const chunk of await readWindowChunks(db, sheetId, start, end - start)) {
      // A chunk may straddle two windows (row ops leave chunks of any size): each window takes its own rows of it.
      const from = Math.max(start, chunk.first);
      const more = holdsNoMatch?.(chunk.text.toLowerCase())
        ? scan.skip(from, Math.min(end, chunk.first + chunk.rows) - from)
        : scan.feed((JSON.parse(chunk.text) as GridData).slice(from - chunk.first, end - chunk.first), from);
      if (!more) return scan.result(end >= rowCount);
    }
    // The event loop let go between windows, as a filter's scan (sheet-filter.ts): with a filter on, a needle in
    // every chunk has each one parsed and judged (a sparse filter: the whole sheet, ~2 s on 1,000,000 rows).
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return scan.result(true);
}
