import { importNameOf, isImportable } from './import-name.js';

test('the name is the file name without its csv, xlsx or xls extension', () => {
  expect(importNameOf('Sales 2026.csv')).toBe('Sales 2026');
  expect(importNameOf('Budget.XLSX')).toBe('Budget');
  expect(importNameOf('old.report.xls')).toBe('old.report');
  // Only those three extensions are removed.
  expect(importNameOf('notes.txt')).toBe('notes.txt');
});

test("nothing left gives 'Imported Sheet'; a name the §5 rule refuses is left to the server", () => {
  expect(importNameOf('.csv')).toBe('Imported Sheet');
  expect(importNameOf('  .xlsx')).toBe('Imported Sheet');
  expect(importNameOf('a:b.csv')).toBeUndefined();
  expect(importNameOf(`${'x'.repeat(101)}.csv`)).toBeUndefined();
});

test('importable files end in .csv, .xlsx or .xls', () => {
  expect(['a.csv', 'b.xlsx', 'c.XLS'].map(isImportable)).toEqual([true, true, true]);
  expect(['a.txt', 'csv', 'b.xlsx.zip'].map(isImportable)).toEqual([false, false, false]);
});
