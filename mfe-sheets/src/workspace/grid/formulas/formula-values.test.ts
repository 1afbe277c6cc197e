import type { GridData } from '@tessera/contracts';
import { waitFor } from '@testing-library/react';
import { formulasSettled, startedFormulaValues } from '../../testing/started-formula-values.js';
import type { ToFormulaWorker } from './formula-messages.js';
import { FORMULA_MAX_CELLS, FormulaValues, LOAD_SLICE_ROWS } from './formula-values.js';
import type { FormulaPort } from './start-formula-worker.js';

// The formula worker's code (formula-worker-core.ts with HyperFormula) behind the grid's side
// of it, messages delivered in later tasks as a worker's are (jsdom has no Worker).

test('formula cells get their values from the worker; an error shows as its code', async () => {
  const data: GridData = [
    [1, 2, '=A1+B1'],
    ['=SUM(A1:C1)', '=1/0', '=UNKNOWNFN(1)'],
  ];
  const { values, changes } = startedFormulaValues(data);
  expect(values.value(0, 2)).toBeUndefined();
  await formulasSettled(values);
  expect(values.state).toBe('ready');
  expect(values.value(0, 2)).toBe(3);
  expect(values.value(1, 0)).toBe(6);
  expect(values.value(1, 1)).toBe('#DIV/0!');
  expect(values.value(1, 2)).toBe('#NAME?');
  expect(changes()).toBeGreaterThan(0);
  values.dispose();
});

test('edited cells reach the worker and the values that depend on them come back', async () => {
  const data: GridData = [[1, 2, '=A1+B1'], ['=C1*10']];
  const { values } = startedFormulaValues(data);
  await formulasSettled(values);
  data[0][0] = 5;
  values.cells([[0, 0, 5]]);
  await waitFor(() => expect(values.value(0, 2)).toBe(7));
  expect(values.value(1, 0)).toBe(70);
  // A value becomes a formula.
  data[1][1] = '=A2+1';
  values.cells([[1, 1, '=A2+1']]);
  await waitFor(() => expect(values.value(1, 1)).toBe(71));
  values.dispose();
});

test('inserted and removed rows and columns move the values and the references with their cells', async () => {
  const data: GridData = [[1], [2], ['=SUM(A1:A2)', '=A1*2']];
  const { values } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.value(2, 0)).toBe(3);

  // A row inserted inside the SUM's range (empty, as the grid inserts it), then typed into: the
  // formulas move down a row, the SUM's range grows with it.
  data.splice(1, 0, [null]);
  values.structure('row', 1, 1);
  expect(values.value(3, 0)).toBe(3); // moved at once, before the worker answers
  data[1][0] = 10;
  values.cells([[1, 0, 10]]);
  await waitFor(() => expect(values.value(3, 0)).toBe(13));
  expect(values.value(3, 1)).toBe(2);

  // The first row removed: the SUM loses it, =A1*2 loses the cell it read.
  data.splice(0, 1);
  values.structure('row', 0, -1);
  await waitFor(() => expect(values.value(2, 0)).toBe(12));
  expect(values.value(2, 1)).toBe('#REF!');

  // A column inserted before A: the formulas move right and keep reading their cells.
  for (const row of data) row.splice(0, 0, null);
  values.structure('col', 0, 1);
  expect(values.value(2, 1)).toBe(12);
  // A new formula reads the moved cells where they are now.
  data[0][2] = '=B1+B2';
  values.cells([[0, 2, '=B1+B2']]);
  await waitFor(() => expect(values.value(0, 2)).toBe(12));
  expect(values.value(2, 1)).toBe(12);
  values.dispose();
});

test('200,000 rows inserted above a formula (more than the engine takes in one insert): it moves down and keeps computing', async () => {
  const data: GridData = [[1], [2], ['=SUM(A1:A2)']];
  const { values } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.value(2, 0)).toBe(3);
  // As the grid inserts them: empty rows at 1, without spreading them into arguments.
  const count = 200_000;
  const below = data.splice(1);
  for (let r = 0; r < count; r++) data.push([]);
  for (const row of below) data.push(row);
  values.structure('row', 1, count);
  expect(values.value(count + 2, 0)).toBe(3);
  // Typed into the first inserted row, inside the SUM's range: its value follows.
  data[1][0] = 10;
  values.cells([[1, 0, 10]]);
  await waitFor(() => expect(values.value(count + 2, 0)).toBe(13));
  expect(values.state).toBe('ready');
  values.dispose();
});

test('a large sheet is sent in slices of rows; a reload starts a new engine and drops the old one’s answers', async () => {
  const rows = LOAD_SLICE_ROWS * 2 + 1;
  const data: GridData = Array.from({ length: rows }, (_, r) => [r + 1]);
  data[0][1] = `=SUM(A1:A${rows})`;
  const { values, posted } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(posted.filter((m) => m.type === 'rows').map((m) => (m.type === 'rows' ? m.rows.length : 0))).toEqual([LOAD_SLICE_ROWS, LOAD_SLICE_ROWS, 1]);
  expect(values.value(0, 1)).toBe((rows * (rows + 1)) / 2);

  // The rows replaced (a sync): read again, under a new generation.
  data.length = 0;
  data.push([4, '=A1*A1']);
  void values.reload();
  expect(values.value(0, 1)).toBeUndefined();
  await formulasSettled(values);
  expect(values.value(0, 1)).toBe(16);
  const generations = new Set(posted.map((m) => m.generation));
  expect(generations.size).toBe(2);
  values.dispose();
});

test('edits made while the rows are still being sent are applied once the engine is built', async () => {
  const data: GridData = Array.from({ length: LOAD_SLICE_ROWS + 1 }, () => [1]);
  data[0][1] = '=A1+A2';
  const { values } = startedFormulaValues(data);
  // The first slice is on its way; an edit of a cell in it follows before the engine is built.
  data[1][0] = 41;
  values.cells([[1, 0, 41]]);
  await formulasSettled(values);
  await waitFor(() => expect(values.value(0, 1)).toBe(42));
  values.dispose();
});

/** Rows padded to the editor's 26 columns (grid-shape padRows): one more than FORMULA_MAX_CELLS allows padded. */
const PADDED_COLUMNS = 26;
const PAST_THE_BOUND_ROWS = Math.floor(FORMULA_MAX_CELLS / PADDED_COLUMNS) + 1;
const paddedRows = (rows: number, fill: (row: number) => GridData[number]): GridData =>
  Array.from({ length: rows }, (_, r) => {
    const row = fill(r);
    while (row.length < PADDED_COLUMNS) row.push(null);
    return row;
  });
const cellsPosted = (posted: ToFormulaWorker[]) => posted.reduce((n, m) => n + (m.type === 'rows' ? m.rows.reduce((k, row) => k + row.length, 0) : 0), 0);

test('a grid padded with spare columns past the bound, with few cells filled, computes its formulas; a spare column reads as empty, an edit there reaches the worker', async () => {
  const rows = PAST_THE_BOUND_ROWS;
  expect(rows * PADDED_COLUMNS).toBeGreaterThan(FORMULA_MAX_CELLS);
  const data = paddedRows(rows, (r) => (r === 0 ? [1, '=A1*2+Z1'] : r === rows - 1 ? [2, `=SUM(A1:A${rows})`] : []));
  const { values, posted } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.state).toBe('ready');
  expect(values.overLimit).toBeNull();
  expect(values.value(0, 1)).toBe(2);
  expect(values.value(rows - 1, 1)).toBe(3);
  // The worker got the filled cells, not the padding.
  expect(cellsPosted(posted)).toBe(4);

  data[0][25] = 5;
  values.cells([[0, 25, 5]]);
  await waitFor(() => expect(values.value(0, 1)).toBe(7));
  values.dispose();
});

test('a grid with more cells than the bound up to its rows’ last filled ones sends the worker nothing: its formulas stay text', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  const data = paddedRows(PAST_THE_BOUND_ROWS, (r) => {
    const row: GridData[number] = new Array(PADDED_COLUMNS).fill(null);
    row[0] = r === 0 ? '=1+1' : r;
    row[PADDED_COLUMNS - 1] = 1;
    return row;
  });
  const { values, posted, changes } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.state).toBe('off');
  expect(values.overLimit).toBe(PAST_THE_BOUND_ROWS * PADDED_COLUMNS);
  expect(values.value(0, 0)).toBeUndefined();
  expect(posted).toEqual([]);
  expect(changes()).toBe(1);
  error.mockRestore();
  values.dispose();
});

test('a worker that fails leaves the formulas as their text (state off)', async () => {
  let port: FormulaPort | null = null;
  const values = new FormulaValues(
    () => {
      port = { post: () => {}, onMessage: null, terminate: () => {} };
      return port;
    },
    [['=1+1']],
    () => {},
  );
  values.start();
  expect(values.state).toBe('computing');
  port!.onMessage?.(null);
  expect(values.state).toBe('off');
  expect(values.value(0, 0)).toBeUndefined();
});
