import type { GridData, VersionRows } from '@tessera/contracts';
import { ROW_WINDOW_SIZE } from '../windowed/row-windows.js';
import { WindowedVersion } from './windowed-version.js';

const ROWS = 12_000;
const versionRows = (start: number, count: number): VersionRows => {
  const data: GridData = [];
  for (let r = start; r < Math.min(start + count, ROWS); r++) data.push([`r${r}`, r === 7_000 ? 'old' : r]);
  return { version_id: '1', row_count: ROWS, column_count: 2, start, data };
};
const head = { version_id: '1', version: 1, status: 'archived' as const, author: null, author_id: null, created_at: '', delta_cells: 1, kind: 'edit', label: null, base_version: null, headers: ['A', 'B'], changes: null };
const settle = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

test('each window read is compared with the live rows; a live change compares again the windows drawn, once the burst settles', async () => {
  let live: GridData = Array.from({ length: ROWS }, (_, r) => [`r${r}`, r]);
  const liveReads: number[] = [];
  const version = new WindowedVersion({ ...versionRows(0, 1), version: head }, async (start, count) => versionRows(start, count), async (start, count) => {
    liveReads.push(start);
    return live.slice(start, start + count);
  });
  const told: number[] = [];
  version.subscribe(() => told.push(told.length));
  version.sheet.show(6_990, 7_010);
  await settle();
  await settle();
  expect(version.sheet.rowAt(7_000)).toEqual(['r7000', 'old']);
  expect(version.has(7_000, 1)).toBe(true);
  expect(version.has(7_000, 0)).toBe(false);
  expect(version.has(7_001, 1)).toBe(false);
  expect(liveReads).toEqual([ROW_WINDOW_SIZE]);

  // The live sheet now holds the old value too: after the burst, the window drawn is compared again.
  live = live.map((row, r) => (r === 7_000 ? [row[0], 'old'] : row));
  version.liveChanged();
  version.liveChanged();
  expect(version.has(7_000, 1)).toBe(true);
  await settle(350);
  expect(told.length).toBeGreaterThan(1);
  expect(version.has(7_000, 1)).toBe(true);
  await settle();
  expect(liveReads).toEqual([ROW_WINDOW_SIZE, ROW_WINDOW_SIZE]);
  expect(version.has(7_000, 1)).toBe(false);
  version.stop();
});
