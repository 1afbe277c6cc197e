import type { GridData } from '@tessera/contracts';
import { diffGrids } from './grid-diff.js';

test('finds each differing cell; blank, null and a missing cell read the same', () => {
  const diff = diffGrids(
    [['a', 1, null], ['b', 2], ['c', 3]],
    [['a', 1, ''], ['b', 5, 'x'], ['c', 3], ['d']],
  );
  expect(diff.count).toBe(3);
  expect([diff.has(1, 1), diff.has(1, 2), diff.has(3, 0)]).toEqual([true, true, true]);
  expect([diff.has(0, 0), diff.has(0, 2), diff.has(2, 1), diff.has(9, 9)]).toEqual([false, false, false, false]);
});

test('identical grids have no differences; a number and its text differ', () => {
  expect(diffGrids([[1, 'x']], [[1, 'x']]).count).toBe(0);
  expect(diffGrids([[1]], [['1']]).has(0, 0)).toBe(true);
});

test('a 100,000 × 26 sheet with three changed cells compares in one pass', () => {
  const live: GridData = Array.from({ length: 100_000 }, (_, r) => Array.from({ length: 26 }, (_, c) => r * 26 + c));
  const version: GridData = live.map((row) => [...row]);
  version[5][3] = 'changed';
  version[50_000][25] = null;
  version[99_999][0] = -1;
  const diff = diffGrids(live, version);
  expect(diff.count).toBe(3);
  expect(diff.has(50_000, 25)).toBe(true);
  expect(diff.has(50_000, 24)).toBe(false);
});
