import { SHEET_MAX_CELLS_DEFAULT, sheetSizeError, tooManyCellsMessage, tooManyColumnsMessage, workbookTooLargeMessage } from './sheet-size.js';

test('texts name the cap and the size asked for, with thousands separators', () => {
  expect(tooManyCellsMessage(SHEET_MAX_CELLS_DEFAULT, 1_048_576 * 16_384)).toBe(
    'A sheet can hold at most 10,000,000 cells (this would be 17,179,869,184)',
  );
  expect(tooManyColumnsMessage(100_001)).toBe('A sheet can hold at most 16,384 columns (this would be 100,001)');
  expect(workbookTooLargeMessage(200)).toBe('The workbook expands beyond 200 MB');
});

test('sheetSizeError: exactly at the cap fits, one cell more does not; columns over 16,384 never fit', () => {
  expect(sheetSizeError(100, 10, 1_000)).toBeNull();
  expect(sheetSizeError(0, 16_384, 1_000)).toBeNull();
  expect(sheetSizeError(1_001, 1, 1_000)).toBe('A sheet can hold at most 1,000 cells (this would be 1,001)');
  expect(sheetSizeError(0, 16_385, 100_000_000)).toBe('A sheet can hold at most 16,384 columns (this would be 16,385)');
});
