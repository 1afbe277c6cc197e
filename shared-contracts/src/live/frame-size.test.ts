import { CELL_PATCH_MAX_CHANGES } from '../sheets/sheet.schema.js';
import { chunkChanges, encodedLength, FRAME_CHANGES_BUDGET } from './frame-size.js';

test('the encoded size is exact: ASCII, JSON escapes, accents, CJK, emoji and a lone surrogate', () => {
  for (const text of ['abc', '\u0001"\\\n', 'é', '中文', '😀 x', '\ud800']) {
    const json = JSON.stringify({ row: 1, col: 2, value: text });
    expect(encodedLength(json)).toBe(new TextEncoder().encode(json).length);
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
