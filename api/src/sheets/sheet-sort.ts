import { fileURLToPath } from 'node:url';
import type { SortDirection } from '@tessera/contracts';
import { WorkerLane } from '../worker-threads/worker-answer.js';

// Plain .mjs in src/ (tsc does not copy it to dist/): from src/sheets/ and dist/sheets/ alike this resolves to src/sheets/sort-worker.mjs.
const SORT_WORKER_SCRIPT = fileURLToPath(new URL('../../src/sheets/sort-worker.mjs', import.meta.url));

/**
 * Sheets of up to this many rows are sorted on the api's thread, in the transaction, as before the
 * worker; larger ones in a worker thread (sortInWorker), which costs its start and copying the
 * chunks' text to it and back, and reads and writes them a few per statement. bench/sort.mjs,
 * 100,000 × 5 by text, alternated (load 4.2-5.3): in the thread send → ack 0.88-1.42 s, holding the
 * event loop as long at once; through the worker (this bound at 10,000) 1.63-2.17 s, holding it
 * 149-270 ms at most. The ack must not get slower: sheets up to here stay in the thread.
 */
export const SORT_IN_PROCESS_MAX_ROWS = 100_000;
/**
 * The worker's heap limit: 1,000,000 × 10 short cells parsed and sorted take about 400-500 MB; the
 * largest sheet (SHEET_MAX_CELLS of long text) may not fit, and then the sort fails with an error
 * instead of taking the api's memory.
 */
const SORT_WORKER_HEAP_MB = 1_024;
/** Past this the machine is too busy for it: the sort fails (nothing written). */
const SORT_WORKER_TIME_LIMIT_MS = 120_000;

export interface WorkerSort {
  /** `order[newRow] = oldRow`. */
  order: Int32Array;
  /** Positions (in the layout the texts were read in) of the chunks holding a row that moved, their new text and held cells. */
  changed: number[];
  written: string[];
  held: number[];
}

// One sort in a worker at a time per process: each holds a whole sheet in a worker's heap.
const lane = new WorkerLane('sorting');

/** The rows of the chunks `texts` (row counts `sizes`) sorted by a column, or put in a given order (an undo), in a worker thread. */
export function sortInWorker(texts: string[], sizes: number[], how: { column: number; direction: SortDirection } | { order: readonly number[] }): Promise<WorkerSort> {
  return lane.run<WorkerSort>(SORT_WORKER_SCRIPT, { workerData: { texts, sizes, ...how }, resourceLimits: { maxOldGenerationSizeMb: SORT_WORKER_HEAP_MB } }, SORT_WORKER_TIME_LIMIT_MS);
}

/** Chunks read or written per statement by a large sort: a few MB, so that no one statement holds the api's thread long (PGlite runs in it). */
export const SORT_WRITE_CHUNKS = 8;
