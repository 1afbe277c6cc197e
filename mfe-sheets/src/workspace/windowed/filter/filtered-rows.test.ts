import { packRuns, unpackRuns } from '@tessera/contracts';
import { FilteredRows } from './filtered-rows.js';

/** The rows shown, one by one. */
const shownRows = (rows: FilteredRows) => Array.from({ length: rows.length }, (_, p) => rows.rowAt(p));
const of = (flat: number[], rowCount: number) => new FilteredRows(unpackRuns(packRuns(flat), rowCount)!, rowCount);

test("maps the grid's shown positions to the sheet's rows and back; a hidden row has no position, a jump to it lands on the next shown", () => {
  // Rows 2-4, 7, 10-11 of 12 shown.
  const rows = of([2, 3, 7, 1, 10, 2], 12);
  expect(rows.length).toBe(6);
  expect(shownRows(rows)).toEqual([2, 3, 4, 7, 10, 11]);
  expect([rows.rowAt(-1), rows.rowAt(6)]).toEqual([-1, -1]);
  expect([0, 2, 3, 4, 5, 7, 9, 11].map((r) => rows.positionOf(r))).toEqual([-1, 0, 1, 2, -1, 3, -1, 5]);
  expect([0, 5, 7, 8, 11, 12].map((r) => rows.positionAtOrAfter(r))).toEqual([0, 3, 3, 4, 5, 6]);
  expect(of([], 5).length).toBe(0);
  expect(of([], 5).positionAtOrAfter(0)).toBe(0);
});

test('follows rows inserted (shown) and removed, and rows judged again, as a model of the rows does', () => {
  // A model: each row's identity and whether it is shown.
  let model = Array.from({ length: 20 }, (_, r) => ({ id: r, shown: r % 3 !== 0 }));
  const flat: number[] = [];
  model.forEach((m, r) => m.shown && (flat.length >= 2 && flat[flat.length - 2] + flat[flat.length - 1] === r ? flat[flat.length - 1]++ : flat.push(r, 1)));
  const rows = of(flat, model.length);
  let next = 100;
  const check = (label: string) => {
    expect([label, shownRows(rows)]).toEqual([label, model.flatMap((m, r) => (m.shown ? [r] : []))]);
    expect(rows.rowCount).toBe(model.length);
  };
  check('as answered');
  for (const [index, count] of [[0, 2], [5, 1], [7, 3], [26, 2]]) {
    rows.rowsInserted(index, count);
    model.splice(index, 0, ...Array.from({ length: count }, () => ({ id: next++, shown: true })));
    check(`insert ${index}+${count}`);
  }
  for (const [index, count] of [[0, 1], [4, 6], [18, 3], [3, 1]]) {
    rows.rowsRemoved(index, count);
    model = [...model.slice(0, index), ...model.slice(index + count)];
    check(`remove ${index}+${count}`);
  }
  for (const [row, shown] of [[0, false], [0, true], [1, true], [5, false], [model.length - 1, false], [model.length - 1, true]] as const) {
    rows.setShown(row, shown);
    model[row].shown = shown;
    check(`row ${row} ${shown ? 'shown' : 'hidden'}`);
  }
});
