import { escapeHtml, typedValue, hasFormula, headerLabel, isFormula, PAD_SLICE_ROWS, padRows, padRowsInSlices, sizeAfterEdits, sizeAfterStructure, storedCells, storedSize } from './grid-shape.js';

test("a formula is text starting with '='; the engine is needed only when some cell holds one", () => {
  expect(isFormula('=SUM(A1:A3)')).toBe(true);
  expect(isFormula(' =1')).toBe(false);
  expect(isFormula(3)).toBe(false);
  expect(hasFormula([[1, 'a'], [null, true]])).toBe(false);
  expect(hasFormula([[1, 'a'], [null, '=A1*2']])).toBe(true);
  expect(hasFormula([])).toBe(false);
});

test('headers show the sheet header, else the letter label', () => {
  expect(headerLabel(['Name', ''], 0)).toBe('Name');
  expect(headerLabel(['Name', ''], 1)).toBe('B');
  expect(headerLabel([], 26)).toBe('AA');
});

test('the stored size is the metadata or the data, whichever is larger', () => {
  expect(storedSize([[1, 2]], 10, 10)).toEqual({ rows: 10, cols: 10 });
  expect(storedSize([[1, 2, 3], [1]], 1, 2)).toEqual({ rows: 2, cols: 3 });
});

test('typing into the spare cells beyond the stored grid extends it; clearing does not', () => {
  const size = { rows: 10, cols: 10 };
  expect(sizeAfterEdits(size, [{ row: 2, col: 2, value: 'x' }])).toEqual(size);
  expect(sizeAfterEdits(size, [{ row: 49, col: 25, value: 1 }])).toEqual({ rows: 50, cols: 26 });
  expect(sizeAfterEdits(size, [{ row: 49, col: 25, value: null }, { row: 30, col: 0, value: '' }])).toEqual(size);
});

test('inserted and removed rows and columns change the stored size only where they touch it', () => {
  const size = { rows: 10, cols: 4 };
  expect(sizeAfterStructure(size, 'row', 3, 2)).toEqual({ rows: 12, cols: 4 });
  expect(sizeAfterStructure(size, 'row', 10, 1)).toEqual({ rows: 11, cols: 4 });
  expect(sizeAfterStructure(size, 'row', 30, 1)).toEqual(size);
  expect(sizeAfterStructure(size, 'col', 0, -1)).toEqual({ rows: 10, cols: 3 });
  expect(sizeAfterStructure(size, 'row', 8, -5)).toEqual({ rows: 8, cols: 4 });
  expect(sizeAfterStructure(size, 'row', 20, -5)).toEqual(size);
});

test('getData returns the stored part of the grid, not the spare cells the editor shows', () => {
  const shown = [
    ['a', 1, null, null],
    ['b', 2, null, null],
    [null, null, null, null],
  ];
  expect(storedCells(shown, { rows: 2, cols: 2 })).toEqual([['a', 1], ['b', 2]]);
  expect(storedCells([['a']], { rows: 2, cols: 2 })).toEqual([['a'], []]);
});

test('typed text that reads as a number becomes a number; codes with leading zeros and other text stay text', () => {
  expect(typedValue('42')).toBe(42);
  expect(typedValue(' -3.5 ')).toBe(-3.5);
  expect(typedValue('1e3')).toBe(1000);
  expect(typedValue('0.25')).toBe(0.25);
  expect(typedValue('007')).toBe('007');
  expect(typedValue('12 apples')).toBe('12 apples');
  expect(typedValue('=A1')).toBe('=A1');
  expect(typedValue('')).toBe('');
  expect(typedValue(null)).toBeNull();
  expect(typedValue(true)).toBe(true);
});

test('padRows: short stored rows get empty cells up to the sheet width, in place (the grid reads its width from the first row)', () => {
  const rows = [[], ['Groceries', 1200], ['a', 'b', 'c']];
  expect(padRows(rows, 2)).toBe(rows);
  expect(rows).toEqual([[null, null], ['Groceries', 1200], ['a', 'b', 'c']]);
});

test('padRowsInSlices: every row padded to the width, a slice per task; a sheet no longer wanted is left as it is', async () => {
  const data = Array.from({ length: PAD_SLICE_ROWS * 2 + 1 }, (_, r) => [r]);
  await expect(padRowsInSlices(data, 3, () => true)).resolves.toBe(true);
  expect(data.every((row) => row.length === 3)).toBe(true);
  expect(data[PAD_SLICE_ROWS * 2]).toEqual([PAD_SLICE_ROWS * 2, null, null]);

  // Another sheet was opened after the first slice: the rest stays unpadded, nothing more is done.
  const other = Array.from({ length: PAD_SLICE_ROWS * 2 }, () => ['x']);
  let wanted = true;
  const padding = padRowsInSlices(other, 2, () => wanted);
  wanted = false;
  await expect(padding).resolves.toBe(false);
  expect(other[0]).toEqual(['x', null]);
  expect(other[PAD_SLICE_ROWS]).toEqual(['x']);
});

test('escapeHtml: markup becomes the text it spells', () => {
  expect(escapeHtml('<img src=x onerror="a()">')).toBe('&lt;img src=x onerror=&quot;a()&quot;&gt;');
  expect(escapeHtml("Tom & 'Jerry'")).toBe('Tom &amp; &#39;Jerry&#39;');
  expect(escapeHtml('Plain')).toBe('Plain');
});
