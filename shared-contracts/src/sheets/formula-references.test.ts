import { shiftFormula } from './formula-references.js';

test('a formula’s relative references move with it; absolute parts, text and function names stay', () => {
  expect(shiftFormula('=A1*2+D1', 1, 0)).toBe('=A2*2+D2');
  expect(shiftFormula('=SUM(A1:B3)', 2, 1)).toBe('=SUM(B3:C5)');
  expect(shiftFormula('=$A$1+A$1+$A1', 3, 2)).toBe('=$A$1+C$1+$A4');
  expect(shiftFormula('=LOG10(A1)&"B2"', 1, 0)).toBe('=LOG10(A2)&"B2"');
  expect(shiftFormula('=Z9+AA10', 0, 1)).toBe('=AA9+AB10');
  expect(shiftFormula('=A1', -1, 0)).toBe('=#REF!');
  expect(shiftFormula('=1.5E3+A1', 1, 0)).toBe('=1.5E3+A2');
});
