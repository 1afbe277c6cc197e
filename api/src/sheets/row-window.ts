import type { GridData } from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { currentText, pendingColumnOps } from './sheet-store.js';
import { type ColumnSpan, rowsOfText } from './window-text.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A stored chunk's text as of the sheet's version, its first row and its row count. */
export interface WindowChunk {
  first: number;
  rows: number;
  text: string;
}

/**
 * Rows [start, start + count) of a sheet, reading the text of only the chunks that overlap them.
 * A chunk's first row is the sum of the sizes of the chunks before it (in `ord` order), computed
 * in the database over the chunks' (id, ord, n) — the index, never the rows' text, which PostgreSQL
 * keeps out of line (TOAST) and reads only for the chunks selected. Each selected chunk's text is
 * brought to the sheet's version (its pending column ops applied, as every read of chunk text is).
 * Call it in the same snapshot as the version read that goes with the answer. With `columns`, each
 * row holds only those columns (GET /sheets/:id/rows' col_start and col_count).
 */
export async function readRowWindow(db: Db, sheetId: string, start: number, count: number, columns?: ColumnSpan): Promise<GridData> {
  const end = start + count;
  const out: GridData = [];
  for (const chunk of await readWindowChunks(db, sheetId, start, count)) {
    // With `columns`, only those columns' cells are parsed out of the text (window-text.ts).
    out.push(...rowsOfText(chunk.text, start - chunk.first, end - chunk.first, columns));
  }
  return out;
}

/** The chunks readRowWindow reads for rows [start, start + count), as text (a find looks into the text before parsing it). */
export async function readWindowChunks(db: Db, sheetId: string, start: number, count: number): Promise<WindowChunk[]> {
  const end = start + count;
  const { rows: chunks } = await sql<{ first: number; n: number; rows: string; pending: string | null }>`
    WITH placed AS (
      SELECT chunk, n, (sum(n) OVER (ORDER BY ord) - n)::int AS first FROM sheet_chunks WHERE sheet_id = ${sheetId}
    )
    SELECT p.first, p.n, c.rows::text AS rows, ${pendingColumnOps(sql.ref('c.sheet_id'), sql.ref('c.version'))} AS pending
    FROM placed p JOIN sheet_chunks c ON c.sheet_id = ${sheetId} AND c.chunk = p.chunk
    WHERE p.first < ${end} AND p.first + p.n > ${start}
    ORDER BY p.first`.execute(db);
  return chunks.map((chunk) => ({ first: Number(chunk.first), rows: Number(chunk.n), text: currentText(chunk.rows, chunk.pending) }));
}
