import { HYBRID_MAX_CELLS } from '../ai/hybrid.schema.js';
import { hybridSheetRows } from '../ai/hybrid-sheet.js';
import { createDevShellContext } from './dev-shell-context.js';
import { sheetCells } from './sheet-cells.js';

const grid = [['a', 1], ['b', 2], ['c', 3]];

test('sheetCells reads loadData() when the shell has it, else getData() (an older shell), cut to the rows asked', async () => {
  const asked: unknown[] = [];
  const loading = { getData: () => null, loadData: async (rows?: { start: number; count: number }) => (asked.push(rows), grid) };
  expect(await sheetCells(loading)).toBe(grid);
  expect(await sheetCells(loading, { start: 1, count: 1 })).toBe(grid);
  expect(asked).toEqual([undefined, { start: 1, count: 1 }]);

  const older = { getData: () => grid };
  expect(await sheetCells(older)).toBe(grid);
  expect(await sheetCells(older, { start: 1, count: 5 })).toEqual([['b', 2], ['c', 3]]);
  expect(await sheetCells({ getData: () => null }, { start: 0, count: 1 })).toBeNull();
});

test("the dev shell forwards the report's loadData(); a report without one is read through getData()", async () => {
  const { sheet } = createDevShellContext({ sheetId: 's1', onAction: () => {} });
  expect(await sheet.loadData!()).toBeNull();
  sheet.report({ id: 's1', name: 'Big', headers: ['A', 'B'], size: { rows: 3, cols: 2 }, version: 4, getData: () => null, loadData: async () => grid });
  expect(await sheet.loadData!()).toBe(grid);
  sheet.report({ id: 's1', name: 'Old', headers: ['A', 'B'], size: { rows: 3, cols: 2 }, version: 4, getData: () => grid });
  expect(await sheet.loadData!({ start: 2, count: 1 })).toEqual([['c', 3]]);
});

test('hybridSheetRows refuses a sheet past HYBRID_MAX_CELLS with the route\'s text without reading it', async () => {
  let reads = 0;
  const sheet = (rows: number) => ({ size: { rows, cols: 10 }, headers: [], getData: () => null, loadData: async () => (reads++, grid) });
  await expect(hybridSheetRows(sheet(1_000_000))).rejects.toThrow(`the sheet has 10000000 cells (rows × columns); at most ${HYBRID_MAX_CELLS} can be sent`);
  expect(reads).toBe(0);
  expect(await hybridSheetRows(sheet(3))).toBe(grid);
  expect(await hybridSheetRows({ size: { rows: 0, cols: 0 }, headers: [], getData: () => null })).toEqual([]);
});
