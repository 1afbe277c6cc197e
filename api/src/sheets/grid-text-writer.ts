import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { ChunkLayout, CHUNK_ROWS } from './cell-grid.js';
import { chunkRowsAt } from './sheet-store.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A new sheet's rows as the JSON text of its chunks (CHUNK_ROWS rows each, the last one
 * shorter), as an import builds them (import/delimited-text.ts): written as they are, never
 * parsed or serialised again.
 */
export interface GridText {
  /** UTF-8 bytes, sent as they are (no decoding to strings and encoding again). */
  chunks: Uint8Array[];
  /** Each chunk's cells the formula engine would be given (contracts heldCells): stored as given, not counted again by the database. */
  held?: number[];
  rows: number;
}

/** Chunks per INSERT, and the text one INSERT carries at most: a few statements for a big import, none of them huge. */
const MAX_CHUNKS_PER_INSERT = 100;
const MAX_BYTES_PER_INSERT = 4 * 1024 * 1024;

/**
 * Writes the chunks of a sheet that has none yet (its layout is ChunkLayout.fresh), in a few
 * multi-row INSERTs; `onStored(rows)` is told the rows stored so far after each one.
 */
export async function writeGridText(db: Db, sheetId: string, grid: GridText, version: number, onStored?: (rows: number) => void): Promise<ChunkLayout> {
  const layout = ChunkLayout.fresh(grid.rows);
  if (layout.length !== grid.chunks.length) throw new Error(`${grid.chunks.length} chunks for ${grid.rows} rows`);
  let stored = 0;
  for (let from = 0; from < grid.chunks.length; ) {
    let to = from;
    let bytes = 0;
    while (to < grid.chunks.length && to - from < MAX_CHUNKS_PER_INSERT && (to === from || bytes + grid.chunks[to].length <= MAX_BYTES_PER_INSERT)) {
      bytes += grid.chunks[to].length;
      to++;
    }
    const positions = Array.from({ length: to - from }, (_, i) => from + i);
    await db.insertInto('sheet_chunks').values(chunkRowsAt(sheetId, layout, positions, version, (p) => grid.chunks[p], grid.held && ((p) => grid.held![p]))).execute();
    stored += (to - from) * CHUNK_ROWS;
    onStored?.(Math.min(stored, grid.rows));
    from = to;
  }
  return layout;
}
