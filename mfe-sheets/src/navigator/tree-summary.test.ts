import { countTree, groupBadgeLabel, isRecentlyUpdated, sheetSizeLabel } from './tree-summary.js';
import { group, sheet } from './navigator-test-api.js';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-11-20T12:00:00.000Z');

test('badge: groups and sheets directly inside, capped at 20+', () => {
  const g = group('G');
  const sheets = (n: number) => Array.from({ length: n }, (_, i) => sheet({ name: `S${i}` }));
  expect(groupBadgeLabel({ group: g, children: [], sheets: [] })).toBe('0');
  expect(groupBadgeLabel({ group: g, children: [], sheets: sheets(20) })).toBe('20');
  expect(groupBadgeLabel({ group: g, children: [{ group: group('C'), children: [], sheets: [] }], sheets: sheets(20) })).toBe('20+');
});

test('recent: updated within 7 days of now', () => {
  const at = (ms: number) => sheet({ name: 'S', updated_at: new Date(ms).toISOString() });
  expect(isRecentlyUpdated(at(now - 7 * DAY), now)).toBe(true);
  expect(isRecentlyUpdated(at(now - 7 * DAY - 1), now)).toBe(false);
  expect(isRecentlyUpdated(sheet({ name: 'S', updated_at: 'not a date' }), now)).toBe(false);
});

test('size label and totals at any depth', () => {
  expect(sheetSizeLabel(sheet({ name: 'S' }, 12, 3))).toBe('12 rows • 3 cols');
  const sized = sheet({ name: 'S' }, 12, 3);
  expect(sheetSizeLabel({ ...sized, metadata: { ...sized.metadata, size: 1536 } })).toBe('12 rows • 3 cols • 1.5 KB');
  const inner = { group: group('Inner'), children: [], sheets: [sheet({ name: 'A' })] };
  expect(countTree({ groups: [{ group: group('Outer'), children: [inner], sheets: [sheet({ name: 'B' })] }], sheets: [sheet({ name: 'C' })] })).toEqual({
    sheets: 3,
    groups: 2,
  });
});
