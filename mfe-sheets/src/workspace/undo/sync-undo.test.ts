import { syncKeepsUndo } from './sync-undo.js';

const none = () => false;

test('a sync keeps the undo steps only when every cell is as shown: empty however held, the spare columns aside', () => {
  // The grid's rows carry its spare columns (null) and a cell cleared to ''; the server trims both.
  expect(syncKeepsUndo([['Rent', 1200, null, null], ['Food', '', null, null], [null, null]], [['Rent', 1200], ['Food']], none)).toBe(true);
  // A value changed, a row inserted above, a row gone, a type changed: dropped.
  expect(syncKeepsUndo([['Rent', 1200]], [['Rent', 1300]], none)).toBe(false);
  expect(syncKeepsUndo([['Rent', 1200]], [['Rates', 50], ['Rent', 1200]], none)).toBe(false);
  expect(syncKeepsUndo([['Rent', 1200], ['Food', 300]], [['Rent', 1200]], none)).toBe(false);
  expect(syncKeepsUndo([['Rent', 1200]], [['Rent', '1200']], none)).toBe(false);
});

test("own edits still pending are not compared (shown again on top); an own row or column op pending drops the steps", () => {
  expect(syncKeepsUndo([['Rent', 1250]], [['Rent', 1200]], (row, col) => row === 0 && col === 1)).toBe(true);
  expect(syncKeepsUndo([['Rent', 1250]], [['Rent', 1200]], (row, col) => row === 0 && col === 0)).toBe(false);
  expect(syncKeepsUndo([['Rent', 1200]], [['Rent', 1200]], null)).toBe(false);
});
