import { saveStatus } from './save-status.js';

test('Error if there is an error, else Saved if a last-saved time exists, else Unsaved; waiting edits are Unsaved', () => {
  const at = '2026-01-01T00:00:00.000Z';
  expect(saveStatus({ saveError: 'Failed to save sheet: 500', lastSavedAt: at, pending: false })).toBe('error');
  expect(saveStatus({ saveError: null, lastSavedAt: at, pending: false })).toBe('saved');
  expect(saveStatus({ saveError: null, lastSavedAt: null, pending: false })).toBe('unsaved');
  expect(saveStatus({ saveError: null, lastSavedAt: at, pending: true })).toBe('unsaved');
});
