import { WINDOWED_READ_TEXTS } from '@tessera/contracts';
import { spanColumns } from './clear-columns.js';
import { columnsText, copyColumns } from './copy-columns.js';
import type { WindowedSheet } from './windowed-sheet.js';

test("whole columns' text is Handsontable's copy of them: tabs, line breaks, a text with a line break quoted, empty cells empty", async () => {
  // Columns 1 and 2, as sheet.cells gives them (a row shorter than the columns: its cells empty).
  const rows = [[1, 'x'], [null, 'say "hi"\nthere'], []];
  expect(spanColumns([{ left: 1, right: 2 }, { left: 0, right: 0 }, { left: 2, right: 2 }])).toEqual([0, 1, 2]);
  expect(await columnsText(rows, 2)).toBe('1\tx\n\t"say ""hi""\nthere"\n\t');
});

test('a copy whose text would pass the bound is refused: before any row is read when the cells alone pass it, else as soon as the text does', async () => {
  expect(await columnsText([['abcd'], ['efgh']], 1, 9)).toBe('abcd\nefgh');
  expect(await columnsText([['abcd'], ['efgh']], 1, 8)).toBeNull();

  const cells = jest.fn(async () => [['abcd'], ['efgh']]);
  const sheet = { rowCount: 2, cells, undo: { record: jest.fn() } } as unknown as WindowedSheet;
  const write = jest.fn();
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: jest.fn(async () => {}) } });
  try {
    // 2 rows × 10 columns: 20 separators at least, past 15 characters; nothing read.
    await expect(copyColumns(sheet, [{ left: 0, right: 9 }], true, write, () => false, 15)).rejects.toThrow(WINDOWED_READ_TEXTS.tooLarge(15));
    expect(cells).not.toHaveBeenCalled();
    // Read, then found too long: not on the clipboard, and a Cut clears nothing.
    await expect(copyColumns(sheet, [{ left: 0, right: 0 }], true, write, () => false, 8)).rejects.toThrow(WINDOWED_READ_TEXTS.tooLarge(8));
    expect(navigator.clipboard.writeText).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
  } finally {
    Reflect.deleteProperty(navigator, 'clipboard');
  }
});
