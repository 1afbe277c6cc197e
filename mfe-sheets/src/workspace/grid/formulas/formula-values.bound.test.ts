import type { GridData } from '@tessera/contracts';
import { formulasSettled, startedFormulaValues } from '../../testing/started-formula-values.js';
import { FORMULA_MAX_CELLS } from './formula-values.js';

// The engine's bound (FORMULA_MAX_CELLS = HYBRID_MAX_CELLS) lowered, so that a few hundred cells cross it.
jest.mock('@tessera/contracts', () => ({ ...jest.requireActual('@tessera/contracts'), HYBRID_MAX_CELLS: 1_000 }));

const COLUMNS = 10;
/** `rows` rows filled to their COLUMNS-th cell, with =SUM(B1:B3) in A1 (B1..B3 hold 2, 3, 4: 9). */
const filled = (rows: number): GridData =>
  Array.from({ length: rows }, (_, r) => Array.from({ length: COLUMNS }, (_, c) => (r === 0 && c === 0 ? '=SUM(B1:B3)' : r + c + 1)));

let error: jest.SpyInstance;
beforeEach(() => {
  error = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => error.mockRestore());

test('an edit that takes a computed sheet past the bound stops its engine: the formulas show as text, the count is told, the worker that held the sheet is replaced', async () => {
  expect(FORMULA_MAX_CELLS).toBe(1_000);
  const data = filled(FORMULA_MAX_CELLS / COLUMNS); // exactly the bound: computed
  const { values, posted, changes, workers } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.state).toBe('ready');
  expect(values.value(0, 0)).toBe(9);

  // A paste one cell wider than the sheet in row 3.
  data[3][COLUMNS] = 'wider';
  const told = changes();
  const before = posted.length;
  values.cells([[3, COLUMNS, 'wider']]);
  expect(values.state).toBe('off');
  expect(values.overLimit).toBe(FORMULA_MAX_CELLS + 1);
  expect(values.value(0, 0)).toBeUndefined();
  expect(changes()).toBe(told + 1);
  expect(posted.length).toBe(before);
  expect(workers()).toBe(2);
  values.dispose();
});

test('a sheet past the bound brought back under it, by clearing cells or removing rows, computes its formulas again and the count goes', async () => {
  const data = filled(FORMULA_MAX_CELLS / COLUMNS + 2); // 20 cells past
  const { values } = startedFormulaValues(data);
  await formulasSettled(values);
  expect(values.state).toBe('off');
  expect(values.overLimit).toBe(FORMULA_MAX_CELLS + 2 * COLUMNS);

  // Clearing the last cell of ten rows: 10 cells fewer, still past; the count follows.
  for (let r = 10; r < 20; r++) data[r][COLUMNS - 1] = null;
  values.cells(Array.from({ length: 10 }, (_, k) => [10 + k, COLUMNS - 1, null] as [number, number, null]));
  expect(values.overLimit).toBe(FORMULA_MAX_CELLS + COLUMNS);
  expect(values.state).toBe('off');

  // Removing the last row (the grid's rows first, then the engine told): back under the bound.
  data.splice(data.length - 1, 1);
  values.structure('row', data.length, -1);
  await formulasSettled(values);
  expect(values.state).toBe('ready');
  expect(values.overLimit).toBeNull();
  expect(values.value(0, 0)).toBe(9);

  // A column inserted at A pushes every row one cell wider: past the bound again, counted at once.
  for (const row of data) row.unshift(null);
  values.structure('col', 0, 1);
  expect(values.state).toBe('off');
  expect(values.overLimit).toBe(FORMULA_MAX_CELLS + data.length);
  values.dispose();
});
