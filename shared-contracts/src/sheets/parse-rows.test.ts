import { parseSheetRows, parseVersionRows } from './parse-rows.js';

const window = { id: 's', version: 3, row_count: 2, column_count: 2, start: 0, data: [['a', 1], [null, true]] };

test('a window answer parses with its rows as they are; a bad one is refused as the schema refuses it', () => {
  expect(parseSheetRows(window)).toEqual(window);
  expect(parseVersionRows({ version_id: '3', row_count: 2, column_count: 2, start: 0, data: window.data })).toEqual({ version_id: '3', row_count: 2, column_count: 2, start: 0, data: window.data });
  expect(() => parseSheetRows({ ...window, data: [[{ x: 1 }]] })).toThrow();
  expect(() => parseSheetRows({ ...window, version: 'three' })).toThrow();
  expect(() => parseSheetRows([window])).toThrow();
  expect(() => parseVersionRows({ row_count: 2, column_count: 2, start: 0, data: [] })).toThrow();
});
