import { exportFileName } from './export-file-name.js';

test('the toolbar names a download {sheet name}_{YYYY-MM-DD}.{ext} with the local date', () => {
  const date = new Date(2026, 0, 5, 23, 59);
  expect(exportFileName('Budget 2026', 'csv', date)).toBe('Budget 2026_2026-01-05.csv');
  expect(exportFileName('Q4 (Copy)', 'xlsx', date)).toBe('Q4 (Copy)_2026-01-05.xlsx');
  expect(exportFileName('Plan', 'json', new Date(2026, 10, 23))).toBe('Plan_2026-11-23.json');
});
