// The grid's values of a sheet's formulas, computed off the api's event loop (see
// formula-values.ts): HyperFormula holds the whole sheet, so it runs here, in a worker thread
// with its own heap limit. In: the chunks' stored text (in row order, of any size), the engine's settings.
// Out: [row, col, kind, value] for every cell whose text starts with '=': kind 'value' (value
// null, number, string or boolean), 'error' (value: the error text), 'unparsed' (the engine
// cannot parse it: the grid does not evaluate it).
import { parentPort, workerData } from 'node:worker_threads';
import { DetailedCellError, ErrorType, HyperFormula } from 'hyperformula';

const { chunks, settings } = workerData;
const hf = HyperFormula.buildEmpty(settings);
const sheet = hf.getSheetId(hf.addSheet('Sheet1'));
const formulas = [];
hf.batch(() => {
  let first = 0;
  for (const text of chunks) {
    const rows = JSON.parse(text);
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (typeof value === 'string' && value.length > 1 && value.startsWith('=')) formulas.push([first + r, c]);
      }),
    );
    const content = rows.map((row) => row.map((value) => (value === '' ? null : value)));
    if (content.length > 0) hf.setCellContents({ sheet, row: first, col: 0 }, content);
    first += rows.length;
  }
});
parentPort.postMessage(
  formulas.map(([row, col]) => {
    const value = hf.getCellValue({ sheet, row, col });
    if (value instanceof DetailedCellError) return [row, col, value.type === ErrorType.ERROR ? 'unparsed' : 'error', value.value];
    return [row, col, 'value', value];
  }),
);
