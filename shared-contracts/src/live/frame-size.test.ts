import { CELL_PATCH_MAX_CHANGES } from '../sheets/sheet.schema.js';
import { chunkChanges, encodedLength, FRAME_CHANGES_BUDGET } from './frame-size.js';

test('the encoded size is exact: ASCII, JSON escapes, accents, CJK, emoji and a lone surrogate', () => {
  for (const text of ['abc', '\u0001"\\\n', 'é', '中文', '😀 x', '\ud800']) {
    const json = JSON.stringify({ row: 1, col: 2, value: text });
    expect(encodedLength(json)).toBe(new TextEncoder().encode(json).length);
  }
});

test('a change of a null, a boolean or a number is counted as its JSON text, without building it', () => {
  const changes = [null, true, false, 0, -12.5, 1e21, Number.NaN, 7].map((value, i) => ({ row: i * 99_999, col: i, value }));
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    // One chunk per change when the budget holds exactly one (its JSON text and a comma).
    for (const change of changes) {
      const bytes = JSON.stringify(change).length + 1;
      stringify.mockClear();
      expect(chunkChanges([change, change], bytes).map((c) => c.length)).toEqual([1, 1]);
      expect(chunkChanges([change, change], 2 * bytes).map((c) => c.length)).toEqual([2]);
      expect(stringify).not.toHaveBeenCalled();
    }
  } finally {
    stringify.mockRestore();
  }
});

test('changes are cut in order at CELL_PATCH_MAX_CHANGES cells or at the byte budget, whichever comes first', () => {
  const small = Array.from({ length: CELL_PATCH_MAX_CHANGES + 1 }, (_, i) => ({ row: i, col: 0, value: i }));
  expect(chunkChanges(small).map((c) => c.length)).toEqual([CELL_PATCH_MAX_CHANGES, 1]);
  const escaped = Array.from({ length: 20 }, (_, i) => ({ row: i, col: 0, value: '\u0001'.repeat(30_000) }));
  const chunks = chunkChanges(escaped);
  expect(chunks.flat()).toEqual(escaped);
  for (const chunk of chunks) expect(new TextEncoder().encode(JSON.stringify(chunk)).length).toBeLessThanOrEqual(FRAME_CHANGES_BUDGET);
});
