// A sheet's rows sorted off the api's event loop (see sheet-sort.ts): parsing a million rows'
// chunks (~0.8 s for 1,000,000 × 10), ordering them (0.1-0.3 s, more for varied text: the
// collator) and writing the moved chunks' text (~0.2 s) would each hold every other sheet's live
// operations on the api's thread. In: the chunks' stored text in row order, their row counts, the
// column and direction. Out: the order (Int32Array, transferred), the positions of the chunks
// holding a row that moved, those chunks' new text and their held cells (contracts heldCells: given,
// the database's trigger does not count them, which on PGlite took seconds of the api's thread). One comparator for every size: contracts'
// sortOrder and applyOrder (formulas move with their rows).
import { parentPort, workerData } from 'node:worker_threads';
import { applyOrder, heldCells, sortOrder } from '@tessera/contracts';

// `order` given: an undo's (the logged sort's inverted), applied as it is.
const { texts, sizes, column, direction, order: given } = workerData;
const grid = [];
for (const text of texts) for (const row of JSON.parse(text)) grid.push(row);
const order = given ? Array.from(given) : sortOrder(grid, column, direction);
const sorted = applyOrder(grid, order);
const changed = [];
const written = [];
const held = [];
let start = 0;
for (let p = 0; p < sizes.length; p++) {
  const end = start + sizes[p];
  let moved = false;
  for (let r = start; r < end && !moved; r++) moved = order[r] !== r;
  if (moved) {
    const rows = sorted.slice(start, end);
    changed.push(p);
    written.push(JSON.stringify(rows));
    held.push(heldCells(rows));
  }
  start = end;
}
const packedOrder = Int32Array.from(order);
parentPort.postMessage({ order: packedOrder, changed, written, held }, [packedOrder.buffer]);
