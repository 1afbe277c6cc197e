import { fileSizeLabel } from './file-size.js';

test('bytes, then one decimal below 10 of a unit, whole units from 10, up to GB', () => {
  expect(fileSizeLabel(0)).toBe('0 B');
  expect(fileSizeLabel(1023)).toBe('1023 B');
  expect(fileSizeLabel(1024)).toBe('1.0 KB');
  expect(fileSizeLabel(1536)).toBe('1.5 KB');
  expect(fileSizeLabel(10 * 1024 - 1)).toBe('10 KB');
  expect(fileSizeLabel(12_345)).toBe('12 KB');
  expect(fileSizeLabel(1024 * 1024 - 10)).toBe('1.0 MB');
  expect(fileSizeLabel(3.45 * 1024 * 1024)).toBe('3.5 MB');
  expect(fileSizeLabel(5 * 1024 ** 4)).toBe('5120 GB');
});
