import type { SheetReport } from '@tessera/contracts';
import { createCurrentSheetStore, currentSheet, type CurrentSheetStore } from './current-sheet.store.js';

const report = (id: string, version = 3): SheetReport => ({
  id,
  name: `Sheet ${id}`,
  headers: ['A', 'B'],
  size: { rows: 2, cols: 2 },
  version,
  getData: () => [[1, 2], [3, 4]],
});

const sheetOf = (store: CurrentSheetStore, id: string | null) => currentSheet(store, store.getState(), id, () => {});

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

test('before a report the sheet has only its id; a report fills name, headers, size, version and getData', () => {
  const store = createCurrentSheetStore();
  const before = sheetOf(store, 's1');
  expect(before).toMatchObject({ id: 's1', name: null, headers: [], size: { rows: 0, cols: 0 }, version: null, selection: null });
  expect(before.getData()).toBeNull();

  before.report(report('s1'));
  const after = sheetOf(store, 's1');
  expect(after).toMatchObject({ name: 'Sheet s1', headers: ['A', 'B'], size: { rows: 2, cols: 2 }, version: 3 });
  expect(after.getData()).toEqual([[1, 2], [3, 4]]);

  after.report(null);
  expect(sheetOf(store, 's1').name).toBeNull();
});

test("loadData() forwards the report's (a windowed sheet's cells, issue 23); a report without one (an older mfe-sheets) is read through getData()", async () => {
  const store = createCurrentSheetStore();
  expect(await sheetOf(store, 's1').loadData!()).toBeNull();
  const asked: unknown[] = [];
  sheetOf(store, 's1').report({
    ...report('s1'),
    getData: () => null,
    loadData: async (rows) => {
      asked.push(rows);
      return [[5, 6]];
    },
  });
  expect(await sheetOf(store, 's1').loadData!({ start: 7, count: 1 })).toEqual([[5, 6]]);
  expect(asked).toEqual([{ start: 7, count: 1 }]);

  sheetOf(store, 's1').report(report('s1'));
  expect(await sheetOf(store, 's1').loadData!()).toEqual([[1, 2], [3, 4]]);
  expect(await sheetOf(store, 's1').loadData!({ start: 1, count: 5 })).toEqual([[3, 4]]);
});

test('a report or a selection for another sheet than the current one does not count', () => {
  const store = createCurrentSheetStore();
  sheetOf(store, 's1').report(report('s2'));
  expect(sheetOf(store, 's1').name).toBeNull();

  // Sheet s1 reported and selected, then the route moves to s2: nothing carries over.
  sheetOf(store, 's1').report(report('s1'));
  sheetOf(store, 's1').select(1, 1);
  const s2 = sheetOf(store, 's2');
  expect(s2.name).toBeNull();
  expect(s2.selection).toBeNull();
  // ...and a late report(null) from s1's Workspace does not clear s2's report.
  s2.report(report('s2'));
  sheetOf(store, 's1').report(null);
  expect(sheetOf(store, 's2').name).toBe('Sheet s2');
});

test('selection follows the §4 rules: non-negative numbers only (warned), the same cell again changes nothing', () => {
  const store = createCurrentSheetStore();
  const changes = jest.fn();
  store.subscribe(changes);

  sheetOf(store, 's1').select(2, 3);
  expect(sheetOf(store, 's1').selection).toEqual({ row: 2, col: 3 });
  expect(changes).toHaveBeenCalledTimes(1);

  sheetOf(store, 's1').select(2, 3);
  expect(changes).toHaveBeenCalledTimes(1);

  for (const [row, col] of [[-1, 0], [0, Number.NaN], [1.5, 0], ['2' as unknown as number, 1]]) {
    sheetOf(store, 's1').select(row, col);
  }
  expect(warn).toHaveBeenCalledTimes(4);
  expect(warn.mock.calls[0][0]).toMatch(/non-negative/);
  expect(changes).toHaveBeenCalledTimes(1);
  expect(sheetOf(store, 's1').selection).toEqual({ row: 2, col: 3 });

  sheetOf(store, 's1').select(0, 0);
  expect(sheetOf(store, 's1').selection).toEqual({ row: 0, col: 0 });
});

test('with no sheet selected, select does nothing', () => {
  const store = createCurrentSheetStore();
  sheetOf(store, null).select(0, 0);
  expect(store.getState().selection).toBeNull();
});
