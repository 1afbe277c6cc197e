import { type CellValue, type ClearBlock, type ClearedPlaces, heldCells, isFormula, shiftFormula, type Span } from '@tessera/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { type ChunkLayout, CHUNK_ROWS } from './cell-grid.js';
import { CHUNKS_PER_ROUND } from './clear-block.js';
import { chunkRowsAt, loadChunks, writeChunkRows } from './sheet-store.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Rows [start, end) of a version as stored text per chunk ('' for chunks outside them), as version-rebuild.ts rebuildChunks gives them. */
export type ReadBefore = (span: { start: number; end: number }) => Promise<{ chunks: string[]; sizes: number[] }>;

/** What a clear put back wrote: how many cells, and the block (in the grid now) holding them (null: none). */
export interface PutBack {
  cells: number;
  rows: Span | null;
  columns: Span | null;
}

const isEmpty = (v: CellValue | undefined) => v === null || v === undefined || v === '';

/** Cells to put back into one stored chunk: row within the chunk, column, value (parallel arrays: no object per cell). */
interface Bucket {
  rows: number[];
  cols: number[];
  values: CellValue[];
}

/**
 * The cells of a cleared block put back (a live cells_clear_undo): the block's rows of the version
 * before the clear read `CHUNKS_PER_ROUND` chunks at a time (`readBefore`), each cell that held a
 * value taken to where its row and column are now (`places`: contracts clearedPlacesThrough) and
 * written there if that cell is empty now (a cell typed into since keeps what was typed; a formula
 * shifted as the sorts since moved its row). The
 * stored chunks now are written in rounds of CHUNKS_PER_ROUND too, as soon as no later row of the
 * old version can land in them: rows that kept their order (no sort since) fill the chunks in
 * order, so only a window's cells are held; after a sort a chunk may get its last cell from the
 * last window, and the cells wait until then (what a sort's permutation costs). The event loop is
 * let go between rounds (PGlite runs in the api's thread: clear-block.ts). The layout is unchanged.
 * An insert undoing a remove fills its new rows or columns the same way: `clear` is then the block
 * the remove took and `places` where it goes (structure-undo.ts removedPlaces).
 */
export async function putBackInChunks(
  db: Db,
  sheetId: string,
  layout: ChunkLayout,
  clear: ClearBlock,
  places: ClearedPlaces,
  readBefore: ReadBefore,
  version: number,
): Promise<PutBack> {
  const starts = layout.starts;
  const out: PutBack & { low: number; high: number; left: number; right: number } = { cells: 0, rows: null, columns: null, low: Infinity, high: -1, left: Infinity, right: -1 };
  // Per chunk now: the last row of the block (its index in the block) that lands in it; -1: none.
  const lastLanding = new Int32Array(layout.length).fill(-1);
  const chunkOf = new Int32Array(places.rows.length);
  for (let i = 0; i < places.rows.length; i++) {
    const row = places.rows[i];
    if (row < 0) continue;
    chunkOf[i] = layout.positionOf(row);
    lastLanding[chunkOf[i]] = i;
  }
  const columns: number[] = [];
  for (let j = 0; j < places.columns.length; j++) if (places.columns[j] >= 0) columns.push(j);

  const buckets = new Map<number, Bucket>();
  const flush = async (positions: number[]) => {
    for (let k = 0; k < positions.length; k += CHUNKS_PER_ROUND) {
      const round = positions.slice(k, k + CHUNKS_PER_ROUND);
      const loaded = await loadChunks(db, sheetId, layout, round.map((p) => starts[p]));
      const changed: number[] = [];
      for (const p of round) {
        const bucket = buckets.get(p)!;
        buckets.delete(p);
        const chunk = loaded.get(p)!;
        let touched = false;
        for (let n = 0; n < bucket.values.length; n++) {
          // A chunk may hold fewer rows than its size says (rows of a sheet sized by metadata are stored empty).
          while (chunk.length <= bucket.rows[n]) chunk.push([]);
          const row = chunk[bucket.rows[n]] as CellValue[];
          const col = bucket.cols[n];
          if (!isEmpty(row[col])) continue;
          while (row.length < col) row.push('');
          row[col] = bucket.values[n];
          touched = true;
          out.cells++;
          const at = starts[p] + bucket.rows[n];
          out.low = Math.min(out.low, at);
          out.high = Math.max(out.high, at);
          out.left = Math.min(out.left, col);
          out.right = Math.max(out.right, col);
        }
        if (touched) changed.push(p);
      }
      if (changed.length > 0) {
        const texts = new Map(changed.map((p) => [p, JSON.stringify(loaded.get(p))]));
        await writeChunkRows(db, chunkRowsAt(sheetId, layout, changed, version, (p) => texts.get(p)!, (p) => heldCells(loaded.get(p)!)));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const end = clear.rows.start + clear.rows.count;
  // The old version's chunk borders, once its first read told them: later windows end on one (no chunk read twice).
  let borders: number[] | undefined;
  for (let from = clear.rows.start; from < end; ) {
    let to = Math.min(end, from + CHUNKS_PER_ROUND * CHUNK_ROWS);
    if (borders) {
      const at = borders.findIndex((b) => b > from);
      if (at >= 0) to = Math.min(end, borders[Math.min(at + CHUNKS_PER_ROUND - 1, borders.length - 1)]);
    }
    const before = await readBefore({ start: from, end: to });
    if (!borders) {
      borders = [];
      let at = 0;
      for (const n of before.sizes) borders.push((at += n));
    }
    let first = 0;
    for (const [c, size] of before.sizes.entries()) {
      const last = first + size;
      if (last > from && first < to && before.chunks[c] !== '') {
        const rows = JSON.parse(before.chunks[c]) as CellValue[][];
        for (let r = Math.max(first, from); r < Math.min(last, to); r++) {
          const i = r - clear.rows.start;
          if (places.rows[i] < 0) continue;
          const values = rows[r - first] ?? [];
          const p = chunkOf[i];
          for (const j of columns) {
            const value = values[clear.columns.start + j];
            if (isEmpty(value)) continue;
            let bucket = buckets.get(p);
            if (!bucket) buckets.set(p, (bucket = { rows: [], cols: [], values: [] }));
            bucket.rows.push(places.rows[i] - starts[p]);
            bucket.cols.push(places.columns[j]);
            // A formula moves with its row through a sort (contracts ClearedPlaces.sorted): as it would read had it stayed.
            bucket.values.push(places.sorted && isFormula(value) ? shiftFormula(value as string, places.sorted[i], 0) : (value as CellValue));
          }
        }
      }
      first = last;
    }
    from = to;
    // The chunks no later row of the block lands in are complete: written now, their cells let go.
    const done = [...buckets.keys()].filter((p) => lastLanding[p] < from - clear.rows.start).sort((a, b) => a - b);
    if (done.length > 0) await flush(done);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  await flush([...buckets.keys()].sort((a, b) => a - b));
  if (out.cells > 0) {
    out.rows = { start: out.low, count: out.high - out.low + 1 };
    out.columns = { start: out.left, count: out.right - out.left + 1 };
  }
  return { cells: out.cells, rows: out.rows, columns: out.columns };
}
