import type { CellValue } from '@tessera/contracts';
import type { CellDelta } from './cell-grid.js';
import { diffGrids } from './merge.js';

/** A whole grid as stored text: one JSON array of rows per chunk, `sizes[p]` rows in chunk p (a rebuilt version). */
export interface GridChunks {
  chunks: string[];
  sizes: number[];
  colCount: number;
}

/**
 * The cells that differ between the live grid's chunks and `next`, both in the same layout (the
 * same rows per chunk), and the live chunks holding them, parsed (to apply the changes to). Only
 * chunks whose texts differ are parsed: a version made live again differs from the live grid in
 * a few chunks, and parsing both whole (10M cells at the cap) cost seconds and about a gigabyte.
 */
export function chunkChanges(live: readonly string[], next: GridChunks): { changes: CellDelta[]; loaded: Map<number, CellValue[][]> } {
  const changes: CellDelta[] = [];
  const loaded = new Map<number, CellValue[][]>();
  let first = 0;
  for (let p = 0; p < next.sizes.length; p++) {
    if (live[p] !== next.chunks[p]) {
      const before = JSON.parse(live[p]) as CellValue[][];
      const deltas = diffGrids(before, JSON.parse(next.chunks[p]) as CellValue[][]);
      if (deltas.length > 0) loaded.set(p, before);
      for (const d of deltas) changes.push({ ...d, row: first + d.row });
    }
    first += next.sizes[p];
  }
  return { changes, loaded };
}

/** Whether `next` is in `layout`'s rows per chunk (then chunkChanges can compare them chunk by chunk). */
export const sameChunkSizes = (sizes: readonly number[], next: GridChunks) => sizes.length === next.sizes.length && sizes.every((n, p) => n === next.sizes[p]);
