// The grid's values of a sheet's formulas, computed off the api's event loop (see
// formula-values.ts): HyperFormula holds the whole sheet, so it runs here, in a worker thread
// with its own heap limit. In: the chunks' stored text (in row order, of any size), the engine's
// settings, the most cells it may hold (maxHeld). Out: { over } (the held cells counted past
// maxHeld: nothing built), or the values of every cell whose text starts with '=', in row order,
// as transferable columns (see FormulaColumns in formula-values.ts).
//
// The engine is built as the grid's worker builds it (mfe-sheets formula-worker-core): one
// buildFromArray of the rows cut at their last non-empty cell (heldLength), '' kept as the value
// it is. Filling an empty engine with setCellContents, as this file did, cost 3-4 times the time
// and twice the heap for the same sheet (each call records its undo entry and re-sizes the sheet):
// measured in api/README.md § Export.
import { parentPort, workerData } from 'node:worker_threads';
import { heldLength, isFormula } from '@tessera/contracts';

/** A value's kind, as formula-values.ts reads it (FormulaKind). */
const KIND = { number: 0, text: 1, true: 2, false: 3, empty: 4, error: 5, unparsed: 6 };

async function evaluate({ chunks, settings, maxHeld }) {
  const rows = [];
  const formulaRows = [];
  const formulaCols = [];
  let held = 0;
  for (let i = 0; i < chunks.length; i++) {
    const parsed = JSON.parse(chunks[i]);
    // The text is not needed once parsed: the heap holds one copy of the sheet, not two.
    chunks[i] = null;
    for (const row of parsed) {
      const length = heldLength(row);
      held += length;
      if (held > maxHeld) return { over: held };
      if (length !== row.length) row.length = length;
      for (let c = 0; c < length; c++) {
        if (isFormula(row[c])) {
          formulaRows.push(rows.length);
          formulaCols.push(c);
        }
      }
      rows.push(row);
    }
  }
  const count = formulaRows.length;
  const columns = { rows: new Int32Array(count), cols: new Int32Array(count), kinds: new Uint8Array(count), numbers: new Float64Array(count), texts: [] };
  if (count === 0) return columns;
  // Imported only now: a sheet without formulas (or past the bound) does not pay for it.
  const { DetailedCellError, ErrorType, HyperFormula } = await import('hyperformula');
  const hf = HyperFormula.buildFromArray(rows, settings);
  rows.length = 0;
  for (let i = 0; i < count; i++) {
    const row = formulaRows[i];
    const col = formulaCols[i];
    columns.rows[i] = row;
    columns.cols[i] = col;
    const value = hf.getCellValue({ sheet: 0, row, col });
    let kind;
    if (value instanceof DetailedCellError) {
      kind = value.type === ErrorType.ERROR ? KIND.unparsed : KIND.error;
      columns.numbers[i] = columns.texts.push(value.value) - 1;
    } else if (typeof value === 'number') {
      kind = KIND.number;
      columns.numbers[i] = value;
    } else if (typeof value === 'string') {
      kind = KIND.text;
      columns.numbers[i] = columns.texts.push(value) - 1;
    } else if (typeof value === 'boolean') {
      kind = value ? KIND.true : KIND.false;
    } else {
      kind = KIND.empty;
    }
    columns.kinds[i] = kind;
  }
  return columns;
}

if (parentPort) {
  const result = await evaluate(workerData);
  parentPort.postMessage(result, result.over === undefined ? [result.rows.buffer, result.cols.buffer, result.kinds.buffer, result.numbers.buffer] : []);
}
