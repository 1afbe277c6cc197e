import { LIVE_SOURCE } from '../grid-link.js';
import { formulaInputs } from './formula-inputs.js';

test('the formula worker is told every changed cell, other users’ too, but not a reload of all the rows', () => {
  const changes: [number, number, unknown, unknown][] = [
    [0, 1, 1, 2],
    [1, 0, 'same', 'same'],
    [2, 2, null, '=A1*2'],
    [3, 0, 5, undefined],
  ];
  const expected = [
    [0, 1, 2],
    [2, 2, '=A1*2'],
    [3, 0, null],
  ];
  expect(formulaInputs(changes, 'edit')).toEqual(expected);
  expect(formulaInputs(changes, LIVE_SOURCE)).toEqual(expected);
  expect(formulaInputs(changes, 'UndoRedo.undo')).toEqual(expected);
  expect(formulaInputs(changes, 'updateData')).toEqual([]);
  expect(formulaInputs(changes, 'loadData')).toEqual([]);
  expect(formulaInputs(null, 'edit')).toEqual([]);
});
