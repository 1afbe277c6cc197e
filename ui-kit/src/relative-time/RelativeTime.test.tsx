import { render, screen } from '@testing-library/react';
import { RelativeTime } from './RelativeTime.js';

const now = Date.parse('2026-03-10T12:00:00.000Z');

test.each([
  ['2026-03-10T11:55:00.000Z', '5m ago'],
  ['2026-03-10T09:00:00.000Z', '3h ago'],
  ['2026-03-08T12:00:00.000Z', '2d ago'],
  ['2026-03-10T12:30:00.000Z', '0m ago'],
])('%s reads %s, as a <time> with the exact time on hover', (iso, text) => {
  render(<RelativeTime iso={iso} now={now} />);
  const label = screen.getByText(text);
  expect(label.tagName).toBe('TIME');
  expect(label).toHaveAttribute('datetime', iso);
  expect(label).toHaveAttribute('title', iso);
});
