import { type CellValue, type ClearBlock, heldCells } from '@tessera/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChunkLayout } from './cell-grid.js';
import { chunkRowsAt, loadChunks, writeChunkRows } from './sheet-store.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Chunks read, emptied and written per round: a whole column of a million rows is 2,000 chunks;
 * one round holds only these parsed (a few MB), not the sheet, and the event loop about 0.1 s at
 * most (rounds of 40 held it ~0.5 s under load 8: bench/clear-versions.mjs).
 */
export const CHUNKS_PER_ROUND = 20;

/**
 * A block of cells emptied (a live cells_clear, cells-clear.ts) in the stored chunks it touches,
 * as of `version`: each chunk holding rows of the block is read (with its pending column ops
 * applied), its cells in the block's columns set to null (rows shorter than a column are left
 * short: the cell is empty already) and written back with its held-cell count (the byte count is
 * the database trigger's, migration 0011) — only when a cell changed, so clearing an empty
 * column writes nothing. Returns how many chunks were written. The layout is unchanged.
 */
export async function clearBlockInChunks(db: Db, sheetId: string, layout: ChunkLayout, block: ClearBlock, version: number): Promise<number> {
  const { rows, columns } = block;
  if (rows.count === 0 || layout.rowCount === 0) return 0;
  const first = layout.positionOf(rows.start);
  const last = layout.positionOf(Math.min(rows.start + rows.count, layout.rowCount) - 1);
  const starts = layout.starts;
  const colEnd = columns.start + columns.count;
  let written = 0;
  for (let from = first; from <= last; from += CHUNKS_PER_ROUND) {
    const positions = [];
    for (let p = from; p <= Math.min(last, from + CHUNKS_PER_ROUND - 1); p++) positions.push(p);
    const loaded = await loadChunks(db, sheetId, layout, positions.map((p) => starts[p]));
    const changed: number[] = [];
    for (const p of positions) {
      const chunk = loaded.get(p)!;
      const low = Math.max(rows.start, starts[p]) - starts[p];
      const high = Math.min(rows.start + rows.count, starts[p] + layout.sizes[p]) - starts[p];
      let touched = false;
      for (let r = low; r < high; r++) {
        const row = chunk[r] as CellValue[];
        const end = Math.min(colEnd, row.length);
        for (let c = columns.start; c < end; c++) {
          if (row[c] === null) continue;
          row[c] = null;
          touched = true;
        }
      }
      if (touched) changed.push(p);
    }
    if (changed.length > 0) {
      const texts = new Map(changed.map((p) => [p, JSON.stringify(loaded.get(p))]));
      await writeChunkRows(db, chunkRowsAt(sheetId, layout, changed, version, (p) => texts.get(p)!, (p) => heldCells(loaded.get(p)!)));
      written += changed.length;
    }
    // The api's other work (sockets, other sheets) goes on between rounds: PGlite answers in this
    // thread, so awaiting it never let them in, and a whole column of 1,000,000 rows held the event
    // loop 5.8-8.0 s at once (bench/clear-versions.mjs, load 7-8).
    if (from + CHUNKS_PER_ROUND <= last) await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}
