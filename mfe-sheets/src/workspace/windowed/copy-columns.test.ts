import { WINDOWED_READ_TEXTS, type CellValue, type RowRange } from '@tessera/contracts';
import { type ClearedCells, unpackCells } from '../undo/undo-stack.js';
import { spanColumns } from './clear-columns.js';
import { clipboardBlob, columnsText, copyColumns } from './copy-columns.js';
import { type ReadRows, WindowedSheet } from './windowed-sheet.js';

/** A Blob's text (jsdom's Blob has no text()): read as a page reads a file. */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

/** A windowed sheet of `rowCount` rows whose columnWindows() gives `values` (column form) as one window; cells() and columns() must not be read. */
function sheetOf(values: CellValue[][], rowCount = values[0]?.length ?? 0) {
  const columns = jest.fn(async (range: RowRange | undefined, cols: () => readonly number[], onWindow: (values: CellValue[][], from: number) => Promise<void> | void) => {
    await onWindow(values.map((column) => column.slice()), range?.start ?? 0);
    return cols();
  });
  const record = jest.fn();
  const sheet = { rowCount, colCount: 10, columnWindows: columns, columns: jest.fn(), cells: jest.fn(), undo: { record } } as unknown as WindowedSheet;
  return { sheet, columns, record };
}

/** A real windowed sheet of `rows` rows of `width` columns (`v{row}.{col}`, empty where `empty(row, col)`), its reads answered at once; `reads` logs their starts. */
function readSheet(rows: number, width: number, empty: (row: number, col: number) => boolean = () => false) {
  const state = { rows, version: 1, onRead: (_index: number) => {} };
  const reads: number[] = [];
  const read: ReadRows = async (start, count) => {
    reads.push(start);
    state.onRead(reads.length);
    const data: CellValue[][] = [];
    for (let r = start; r < Math.min(start + count, state.rows); r++) data.push(Array.from({ length: width }, (_, c) => (empty(r, c) ? null : `v${r}.${c}`)));
    return { id: 's', version: state.version, row_count: state.rows, column_count: width, start, data };
  };
  const sheet = new WindowedSheet({ id: 's', version: 1, row_count: rows, column_count: width, start: 0, data: [] }, read);
  return { sheet, reads, state };
}

/** The browser's clipboard (jsdom has none): the text/plain written through a ClipboardItem. Removed by the returned function. */
function stubClipboard() {
  const written: string[] = [];
  class Item {
    constructor(readonly items: Record<string, Promise<Blob>>) {}
  }
  Object.assign(globalThis, { ClipboardItem: Item });
  const write = async ([item]: Item[]) => void written.push(await blobText(await item.items['text/plain']));
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { write } });
  return {
    written,
    remove: () => {
      Reflect.deleteProperty(globalThis, 'ClipboardItem');
      Reflect.deleteProperty(navigator, 'clipboard');
    },
  };
}

test("whole columns' text is Handsontable's copy of them: tabs, line breaks, a text with a line break quoted, empty cells empty", async () => {
  // Columns 1 and 2 in column form, as sheet.columns gives them.
  const values = [[1, null, null], ['x', 'say "hi"\nthere', null]];
  expect(spanColumns([{ left: 1, right: 2 }, { left: 0, right: 0 }, { left: 2, right: 2 }])).toEqual([0, 1, 2]);
  const pieces = await columnsText(values, 3);
  expect(pieces!.join('\n')).toBe('1\tx\n\t"say ""hi""\nthere"\n\t');
  expect(await blobText(clipboardBlob(pieces!))).toBe('1\tx\n\t"say ""hi""\nthere"\n\t');
  expect(await columnsText([[], []], 0)).toEqual([]);
});

test('a million-row text is built in pieces and given to the clipboard as the parts of one Blob: the same text as one string', async () => {
  const rows = 120_001;
  const values = [Array.from({ length: rows }, (_, r) => (r % 7 === 0 ? null : r)), Array.from({ length: rows }, (_, r) => `v${r % 100}`)];
  const pieces = (await columnsText(values, rows))!;
  // Several pieces (a turn of the page between them), none of them the whole text.
  expect(pieces.length).toBeGreaterThan(1);
  const whole = Array.from({ length: rows }, (_, r) => `${r % 7 === 0 ? '' : r}\tv${r % 100}`).join('\n');
  expect(Math.max(...pieces.map((p) => (typeof p === 'string' ? p.length : p.size)))).toBeLessThan(whole.length / 2);
  expect(await blobText(clipboardBlob(pieces))).toBe(whole);
  // Pieces turned into a Blob as soon as 100,000 characters are built (each piece here): the same text.
  const folded = (await columnsText(values, rows, undefined, 100_000))!;
  expect(folded.map((piece) => piece instanceof Blob)).toEqual([true, true, true]);
  expect(await blobText(clipboardBlob(folded))).toBe(whole);
});

test('Copy and Cut read the columns in column form, a window at a time (sheet.columnWindows, not row arrays); the clipboard holds their text; a Cut clears them as one undo step', async () => {
  const clipboard = stubClipboard();
  try {
    const { sheet, columns, record } = sheetOf([[1, null, 'a\nb'], ['x', 'y', null]], 10);
    const write = jest.fn();
    const clear = jest.fn((blocks: unknown[]) => blocks.map((_, i) => `c${i}`));
    await copyColumns(sheet, [{ left: 2, right: 3 }], false, write, () => false, undefined, undefined, clear);
    expect(columns).toHaveBeenCalledTimes(1);
    expect(sheet.cells).not.toHaveBeenCalled();
    expect(sheet.columns).not.toHaveBeenCalled();
    expect(clipboard.written).toEqual(['1\tx\n\ty\n"a\nb"\t']);
    expect(clear).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
    // Cut of rows 5..7 (a Shift range past the slab): the same text, then its cells cleared as one cells_clear and one step.
    await copyColumns(sheet, [{ left: 2, right: 3 }], true, write, () => false, undefined, { start: 5, count: 3 }, clear);
    expect(clipboard.written[1]).toBe(clipboard.written[0]);
    expect(clear).toHaveBeenCalledWith([{ rows: { start: 5, count: 3 }, columns: { start: 2, count: 2 } }]);
    expect(write).not.toHaveBeenCalled();
    expect(record).toHaveBeenCalledTimes(1);
    expect(unpackCells(record.mock.calls[0][0])).toEqual([
      { row: 5, col: 2, before: 1, after: null },
      { row: 7, col: 2, before: 'a\nb', after: null },
      { row: 5, col: 3, before: 'x', after: null },
      { row: 6, col: 3, before: 'y', after: null },
    ]);
  } finally {
    clipboard.remove();
  }
});

test('with a row filter on (runs), Copy and Cut of whole columns take the rows it shows only, past the slab too: the text of those rows, a cells_clear per run, the undo step of their cells', async () => {
  const clipboard = stubClipboard();
  try {
    const { sheet } = readSheet(12_000, 2, (row) => row === 7_001);
    const record = jest.spyOn(sheet.undo, 'record');
    const write = jest.fn();
    const clear = jest.fn((blocks: unknown[]) => blocks.map((_, i) => `c${i}`));
    // Rows 2-3, 7,000-7,002 and 11,999 shown.
    const runs = [2, 2, 7_000, 3, 11_999, 1];
    await copyColumns(sheet, [{ left: 1, right: 1 }], true, write, () => false, undefined, undefined, clear, runs);
    expect(clipboard.written).toEqual(['v2.1\nv3.1\nv7000.1\n\nv7002.1\nv11999.1']);
    expect(clear).toHaveBeenCalledWith([2, 7_000, 11_999].map((start, k) => ({ rows: { start, count: runs[2 * k + 1] }, columns: { start: 1, count: 1 } })));
    expect(write).not.toHaveBeenCalled();
    expect(unpackCells(record.mock.calls[0][0] as ClearedCells).map((c) => c.row)).toEqual([2, 3, 7_000, 7_002, 11_999]);
  } finally {
    clipboard.remove();
  }
});

test('a copy whose text would pass the bound is refused: before any row is read when the cells alone pass it, else as soon as the text does', async () => {
  expect((await columnsText([['abcd', 'efgh']], 2, 9))!.join('\n')).toBe('abcd\nefgh');
  expect(await columnsText([['abcd', 'efgh']], 2, 8)).toBeNull();

  const { sheet, columns } = sheetOf([['abcd', 'efgh']]);
  const write = jest.fn();
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: jest.fn(async () => {}) } });
  try {
    // 2 rows × 10 columns: 20 separators at least, past 15 characters; nothing read.
    await expect(copyColumns(sheet, [{ left: 0, right: 9 }], true, write, () => false, 15)).rejects.toThrow(WINDOWED_READ_TEXTS.tooLarge(15));
    expect(columns).not.toHaveBeenCalled();
    // Read, then found too long: not on the clipboard, and a Cut clears nothing.
    await expect(copyColumns(sheet, [{ left: 0, right: 0 }], true, write, () => false, 8)).rejects.toThrow(WINDOWED_READ_TEXTS.tooLarge(8));
    expect(navigator.clipboard.writeText).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
    expect(sheet.undo.record).not.toHaveBeenCalled();
  } finally {
    Reflect.deleteProperty(navigator, 'clipboard');
  }
});

test('a copy whose text passes the bound midway stops reading there: no further window is read, nothing on the clipboard', async () => {
  const clipboard = stubClipboard();
  try {
    // 100,000 rows (20 windows) of one column, about 9 characters a row: not refused before reading (a row
    // takes at least one), the bound passed within the third window.
    const { sheet, reads } = readSheet(100_000, 1);
    const write = jest.fn();
    await expect(copyColumns(sheet, [{ left: 0, right: 0 }], true, write, () => false, 100_000)).rejects.toThrow(WINDOWED_READ_TEXTS.tooLarge(100_000));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThan(10);
    expect(clipboard.written).toEqual([]);
    expect(write).not.toHaveBeenCalled();
  } finally {
    clipboard.remove();
  }
});

test("a Cut of every row while rows are inserted: read again, the clipboard holds the rows as they are now, its undo step every cell it cleared once", async () => {
  const clipboard = stubClipboard();
  try {
    const rows = 24_000;
    const empty = (row: number, col: number) => (row + col) % 3 === 0;
    const { sheet, state } = readSheet(rows, 2, empty);
    // Someone inserts a row at the top while the last window is read (the first ones given out already).
    state.onRead = (n) => {
      if (n !== 5) return;
      state.rows = rows + 1;
      state.version = 2;
      sheet.remoteStructure(2, 'rows_insert', 0, 1);
    };
    const record = jest.spyOn(sheet.undo, 'record');
    const clear = jest.fn((blocks: unknown[]) => blocks.map((_, i) => `c${i}`));
    await copyColumns(sheet, [{ left: 0, right: 1 }], true, jest.fn(), () => false, undefined, undefined, clear);
    const cell = (r: number, c: number) => (empty(r, c) ? '' : `v${r}.${c}`);
    expect(clipboard.written).toEqual([Array.from({ length: rows + 1 }, (_, r) => `${cell(r, 0)}\t${cell(r, 1)}`).join('\n')]);
    expect(clear).toHaveBeenCalledWith([{ rows: { start: 0, count: rows + 1 }, columns: { start: 0, count: 2 } }]);
    expect(record).toHaveBeenCalledTimes(1);
    const undone = unpackCells(record.mock.calls[0][0] as Parameters<typeof unpackCells>[0]).sort((a, b) => a.row - b.row || a.col - b.col);
    const expected = [];
    for (let row = 0; row <= rows; row++) for (let col = 0; col < 2; col++) if (!empty(row, col)) expected.push({ row, col, before: `v${row}.${col}`, after: null });
    expect(undone).toEqual(expected);
  } finally {
    clipboard.remove();
  }
});
