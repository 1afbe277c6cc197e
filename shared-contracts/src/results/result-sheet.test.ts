import { chatSheetName, chatSheetSize, looksLikeSchedule } from './result-sheet.js';

const at = new Date(2026, 10, 23, 9, 5, 7);

test('names: AI Generated Sheet or Schedule with the HH-MM-SS suffix', () => {
  expect(chatSheetName({ headers: ['Region', 'Total'], rows: [] }, at)).toBe('AI Generated Sheet 09-05-07');
  expect(chatSheetName({ headers: ['Doctor Name', '1', '2'], rows: [] }, at)).toBe('Schedule 09-05-07');
  expect(looksLikeSchedule(['doctor_id', 'Mon'])).toBe(true);
});

test("a manual retry's schedule ends in '-retry'; other grids are not suffixed", () => {
  expect(chatSheetName({ headers: ['Doctor ID', 'Doctor Name', '1'], rows: [] }, at, { manualRetry: true })).toBe('Schedule 09-05-07-retry');
  expect(chatSheetName({ headers: ['Region', 'Total'], rows: [] }, at, { manualRetry: true })).toBe('AI Generated Sheet 09-05-07');
});

test('sizes: result rows + 5 (at least 20) and its columns (at least 10)', () => {
  expect(chatSheetSize({ headers: ['A', 'B'], rows: [[1, 2]] })).toEqual({ rows: 20, columns: 10 });
  const wide = Array.from({ length: 12 }, (_, i) => `C${i}`);
  const rows = Array.from({ length: 30 }, () => wide.map(() => 1));
  expect(chatSheetSize({ headers: wide, rows })).toEqual({ rows: 35, columns: 12 });
});
