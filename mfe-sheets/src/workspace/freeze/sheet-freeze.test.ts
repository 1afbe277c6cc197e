import { FREEZE_LIMITS, FREEZE_REMEMBERED_SHEETS, FREEZE_STORAGE_KEY, FREEZE_TEXTS } from '@tessera/contracts';
import { contextMenu } from '../grid/context-menu.js';
import { escapeHtml } from '../grid/grid-shape.js';
import { menuFreeze } from './grid-freeze.js';
import { readFreeze, rememberedFreeze, writeFreeze } from './remembered-freeze.js';
import { frozenAfter, SheetFreeze } from './sheet-freeze.js';

test('the frozen rows or columns move with theirs: inserted before the edge they join, at or after it not; removed ones inside go', () => {
  expect(frozenAfter(2, 0, 1)).toBe(3);
  expect(frozenAfter(2, 1, 3)).toBe(5);
  expect(frozenAfter(2, 2, 1)).toBe(2);
  expect(frozenAfter(2, 5, -1)).toBe(2);
  expect(frozenAfter(3, 1, -1)).toBe(2);
  expect(frozenAfter(3, 2, -4)).toBe(2);
  expect(frozenAfter(3, 0, -10)).toBe(0);
  const freeze = new SheetFreeze({ rows: 1, cols: FREEZE_LIMITS.columns });
  freeze.moved('col', 0, 5);
  expect(freeze.cols).toBe(FREEZE_LIMITS.columns);
  freeze.moved('row', 0, 2);
  expect([freeze.rows, freeze.cols]).toEqual([3, FREEZE_LIMITS.columns]);
});

/** A Storage in memory (jsdom's localStorage is shared by the file's tests). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

test('each sheet remembers its freeze per user, the most recent sheets kept; what storage holds is checked entry by entry', () => {
  const storage = memoryStorage();
  const freeze = rememberedFreeze('alice', 's1', storage);
  freeze.set({ cols: 2 });
  freeze.set({ rows: 1 });
  expect(readFreeze(storage, 'alice', 's1')).toEqual({ rows: 1, cols: 2 });
  expect(readFreeze(storage, 'bob', 's1')).toEqual({ rows: 0, cols: 0 });
  expect(rememberedFreeze('alice', 's1', storage).cols).toBe(2);
  // Unfrozen: forgotten.
  freeze.set({ rows: 0, cols: 0 });
  expect(storage.getItem(`${FREEZE_STORAGE_KEY}.alice`)).toBe('[]');
  // Bounded: the oldest sheets go first.
  for (let i = 0; i <= FREEZE_REMEMBERED_SHEETS; i++) writeFreeze(storage, 'alice', `s${i}`, { rows: 0, cols: 1 });
  expect(readFreeze(storage, 'alice', 's0')).toEqual({ rows: 0, cols: 0 });
  expect(readFreeze(storage, 'alice', `s${FREEZE_REMEMBERED_SHEETS}`)).toEqual({ rows: 0, cols: 1 });
  expect((JSON.parse(storage.getItem(`${FREEZE_STORAGE_KEY}.alice`)!) as unknown[]).length).toBe(FREEZE_REMEMBERED_SHEETS);
  // Bad entries are skipped, good ones kept; text that is no JSON, or too long to be ours, is nothing.
  storage.setItem(`${FREEZE_STORAGE_KEY}.alice`, JSON.stringify([['a', -1, 1], ['b', 1.5, 0], ['c', 0, FREEZE_LIMITS.columns + 1], ['d', '1', 1], [{}, 1, 1], ['e', 2, 3]]));
  for (const id of ['a', 'b', 'c', 'd']) expect(readFreeze(storage, 'alice', id)).toEqual({ rows: 0, cols: 0 });
  expect(readFreeze(storage, 'alice', 'e')).toEqual({ rows: 2, cols: 3 });
  storage.setItem(`${FREEZE_STORAGE_KEY}.alice`, '{not json');
  expect(readFreeze(storage, 'alice', 'e')).toEqual({ rows: 0, cols: 0 });
  storage.setItem(`${FREEZE_STORAGE_KEY}.alice`, JSON.stringify([['e', 2, 3], ['x'.repeat(20_000), 0, 0]]));
  expect(readFreeze(storage, 'alice', 'e')).toEqual({ rows: 0, cols: 0 });
  // A storage that refuses writes only forgets.
  const full = { ...memoryStorage(), getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } } as Storage;
  const kept = rememberedFreeze('alice', 's1', full);
  kept.set({ cols: 1 });
  expect(kept.cols).toBe(1);
});

test("the menu's freeze entry shows a header holding markup as text (Handsontable writes entry names as HTML)", () => {
  const menu = contextMenu(true, null, undefined, undefined, undefined, undefined, menuFreeze(new SheetFreeze(), { current: ['<img src=x onerror=alert(1)>'] })) as { items: Record<string, { name: (this: unknown) => string }> };
  const grid = { getSelectedRangeActive: () => ({ from: { row: 0, col: 0 }, to: { row: 0, col: 0 } }), selection: { isSelectedByRowHeader: () => false, isSelectedByColumnHeader: () => false } };
  const name = menu.items.freeze_columns.name.call(grid);
  expect(name).toBe(escapeHtml(FREEZE_TEXTS.columns('<img src=x onerror=alert(1)>')));
  expect(name).not.toContain('<img');
});
