import { IMPORT_MAX_BYTES, WINDOWED_READ_TEXTS, type CellChange, type ClearBlock, type GridData, type RowRange } from '@tessera/contracts';
import { clearBlocks, clearRows, spanColumns, type ColumnSpan } from './clear-columns.js';
import type { WindowedSheet } from './windowed-sheet.js';

/**
 * The most characters a Copy or Cut of whole columns puts on the clipboard: what the app takes in
 * as one file (an import), the text being about as many bytes. A million rows of ten short cells
 * is some 60 MB; past this the copy is refused before its text is built.
 */
export const COPY_MAX_CHARS = IMPORT_MAX_BYTES;

/** Rows turned into text between two turns of the page (the grid is not held up by a million rows at once). */
const ROWS_PER_TURN = 50_000;

/** A cell as Handsontable's copy writes it (its SheetClip stringify): a text with a line break quoted, its quotes doubled; nothing for an empty cell. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.includes('\n') ? `"${value.replaceAll('"', '""')}"` : value;
  return String(value);
}

/**
 * `rows` (cut to the columns copied, as sheet.cells gives them) as the text Handsontable's copy puts
 * in text/plain (cells by tabs, rows by line breaks, none after the last), built a slice of rows at
 * a time; null as soon as it would pass `max` characters (what is built so far is dropped).
 */
export async function columnsText(rows: GridData, width: number, max = COPY_MAX_CHARS): Promise<string | null> {
  const parts: string[] = [];
  let length = 0;
  for (let from = 0; from < rows.length; from += ROWS_PER_TURN) {
    if (from > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const lines: string[] = [];
    for (let row = from; row < Math.min(rows.length, from + ROWS_PER_TURN); row++) {
      const cells = rows[row] ?? [];
      const texts: string[] = new Array(width);
      for (let k = 0; k < width; k++) texts[k] = cellText(cells[k]);
      const line = texts.join('\t');
      length += line.length + (row > 0 ? 1 : 0);
      if (length > max) return null;
      lines.push(line);
    }
    parts.push(lines.join('\n'));
  }
  return parts.join('\n');
}

/**
 * The text given to the clipboard, as text/plain (what spreadsheets paste; the HTML table
 * Handsontable adds too would at least double a million rows' text). Called in the copy event:
 * a ClipboardItem takes the text still being read (Safari writes only within the user's
 * gesture), else it is written once read. Rejects with the user's message: the text's own
 * (too large, unreadable), or the browser's refusal.
 */
export async function writeClipboard(text: Promise<string>): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  let written: Promise<void>;
  if (clipboard && typeof clipboard.write === 'function' && typeof ClipboardItem === 'function') {
    written = clipboard.write([new ClipboardItem({ 'text/plain': text.then((t) => new Blob([t], { type: 'text/plain' })) })]);
  } else if (clipboard && typeof clipboard.writeText === 'function') written = text.then((t) => clipboard.writeText(t));
  else written = Promise.reject(new Error(WINDOWED_READ_TEXTS.clipboardRefused));
  try {
    await written;
  } catch {
    // The text's own failure says more than the browser's (which refuses a text that never came).
    await text;
    throw new Error(WINDOWED_READ_TEXTS.clipboardRefused);
  }
}

/**
 * Copy, or Cut (`cut`), with whole columns selected (their headers clicked, Ctrl+A) on a windowed
 * sheet: every row of the sheet, not the slab's. The rows are read as Delete reads them
 * (sheet.cells, those columns only), their text goes to the clipboard (writeClipboard: called now, in the copy event),
 * and a Cut then clears the cells it copied (clearRows: one undo step; not when `stopped`, read-only
 * by then). Refused before any row is read when the text could not stay under COPY_MAX_CHARS (each
 * cell takes at least its tab or line break), else once it passes it; rejects with the message to show.
 * With `range`, those rows only (a Shift-selected range of rows longer than the slab, which holds part of it).
 */
export function copyColumns(
  sheet: WindowedSheet,
  spans: readonly ColumnSpan[],
  cut: boolean,
  write: (changes: CellChange[]) => void,
  stopped: () => boolean,
  max = COPY_MAX_CHARS,
  range?: RowRange,
  clear?: (blocks: ClearBlock[]) => void,
): Promise<void> {
  const cols = spanColumns(spans);
  let rows: GridData | null = null;
  const text = (async () => {
    if ((range ? range.count : sheet.rowCount) * cols.length > max + 1) throw new Error(WINDOWED_READ_TEXTS.tooLarge(max));
    try {
      rows = await sheet.cells(range, () => cols);
    } catch {
      throw new Error(WINDOWED_READ_TEXTS.unreadable);
    }
    const built = await columnsText(rows, cols.length, max);
    if (built === null) throw new Error(WINDOWED_READ_TEXTS.tooLarge(max));
    return built;
  })();
  return writeClipboard(text).then(() => {
    // A Cut's clear: one cells_clear per span (`clear`), else a change per cell.
    if (cut && rows && !stopped()) clearRows(sheet, rows, cols, write, range?.start, clear && { blocks: clearBlocks(sheet, spans, range), clear });
  });
}
