import { fillFormulas } from './fill-formulas.js';

const range = (row: number, col: number, row2: number, col2: number) => ({
  getTopStartCorner: () => ({ row, col }),
  getBottomEndCorner: () => ({ row: row2, col: col2 }),
});

test('a fill down, up or right repeats the source and moves each formula by its distance from the cell it repeats', () => {
  // A3 holds =A1+A2 and B3 a value; filled down to rows 4–5.
  expect(fillFormulas([['=A1+A2', 7]], range(2, 0, 2, 1), range(3, 0, 4, 1))).toEqual([
    ['=A2+A3', 7],
    ['=A3+A4', 7],
  ]);
  // Filled up from A3 to rows 1–2.
  expect(fillFormulas([['=B3*2']], range(2, 0, 2, 0), range(0, 0, 1, 0))).toEqual([['=B1*2'], ['=B2*2']]);
  // Two source rows repeated over three target rows.
  expect(fillFormulas([['=B1'], ['=B2']], range(0, 0, 1, 0), range(2, 0, 4, 0))).toEqual([['=B3'], ['=B4'], ['=B5']]);
  // Right.
  expect(fillFormulas([['=A1*2']], range(0, 1, 0, 1), range(0, 2, 0, 3))).toEqual([['=B1*2', '=C1*2']]);
  // No formula: the grid's own fill.
  expect(fillFormulas([[1, 'x']], range(0, 0, 0, 1), range(1, 0, 2, 1))).toBeUndefined();
});
