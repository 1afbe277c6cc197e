import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shiftFormulaRows } from './formula-rows.js';

test('references, ranges and absolute rows move down; names, numbers, functions and text do not', () => {
  assert.equal(shiftFormulaRows('SUM(A1:A2)', 1), 'SUM(A2:A3)');
  assert.equal(shiftFormulaRows('$B$7*c3+Sheet1!D10', 1), '$B$8*c4+Sheet1!D11');
  assert.equal(shiftFormulaRows('LOG10(A1)+1E5+ATAN2(B2,2)', 1), 'LOG10(A2)+1E5+ATAN2(B3,2)');
  assert.equal(shiftFormulaRows('IF(A1>0,"A1 ok",VLOOKUP(A1,$A$1:$C$9,2))', 1), 'IF(A2>0,"A1 ok",VLOOKUP(A2,$A$2:$C$10,2))');
  assert.equal(shiftFormulaRows('SUM(A:A)', 1), 'SUM(A:A)');
});
