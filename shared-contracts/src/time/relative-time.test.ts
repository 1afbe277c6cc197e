import { relativeTime } from './relative-time.js';

const now = Date.parse('2026-01-10T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

test('minutes below 60, hours below 24, then days', () => {
  expect(relativeTime(ago(0), now)).toBe('0m ago');
  expect(relativeTime(ago(59 * 60_000 + 59_000), now)).toBe('59m ago');
  expect(relativeTime(ago(60 * 60_000), now)).toBe('1h ago');
  expect(relativeTime(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe('23h ago');
  expect(relativeTime(ago(24 * 3_600_000), now)).toBe('1d ago');
  expect(relativeTime(ago(45 * 86_400_000), now)).toBe('45d ago');
  expect(relativeTime(new Date(now + 60_000).toISOString(), now)).toBe('0m ago');
});
