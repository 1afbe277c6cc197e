import { IMPORT_MAX_BYTES, WINDOWED_READ_TEXTS, type CellChange, type CellValue, type ClearBlock, type RowRange } from '@tessera/contracts';
import { clearBlocks, clearCells, clearedOfColumns, spanColumns, type ColumnSpan } from './clear-columns.js';
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
 * The columns `values` (column form, as sheet.columns gives them: values[k][row]; `count` rows) as
 * the text Handsontable's copy puts in text/plain (cells by tabs, rows by line breaks, none after
 * the last), in pieces of ROWS_PER_TURN rows built a turn of the page apart: the text is
 * pieces.join('\n') (clipboardBlob: the Blob's parts; no one string of the whole text is made);
 * null as soon as it would pass `max` characters (what is built so far is dropped).
 */
export async function columnsText(values: readonly (readonly CellValue[])[], count: number, max = COPY_MAX_CHARS): Promise<string[] | null> {
  const pieces: string[] = [];
  const width = values.length;
  let length = 0;
  for (let from = 0; from < count; from += ROWS_PER_TURN) {
    if (from > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const to = Math.min(count, from + ROWS_PER_TURN);
    const lines: string[] = [];
    for (let row = from; row < to; row++) {
      // No array per row: a line of one column is its cell's text.
      let line = width > 0 ? cellText(values[0][row]) : '';
      for (let k = 1; k < width; k++) line += `\t${cellText(values[k][row])}`;
      length += line.length + (row > 0 ? 1 : 0);
      if (length > max) return null;
      lines.push(line);
    }
    pieces.push(lines.join('\n'));
  }
  return pieces;
}

/** `pieces` (columnsText's) as one text/plain Blob, the line breaks between them as parts of their own. */
export function clipboardBlob(pieces: readonly string[]): Blob {
  const parts: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) parts.push('\n');
    parts.push(pieces[i]);
  }
  return new Blob(parts, { type: 'text/plain' });
}

/**
 * The text given to the clipboard, as text/plain (what spreadsheets paste; the HTML table
 * Handsontable adds too would at least double a million rows' text). Called in the copy event:
 * a ClipboardItem takes the text still being read (Safari writes only within the user's
 * gesture), else it is written once read. `text` resolves with columnsText's pieces; they go into
 * a Blob (its parts: the whole text is never one JS string) and are let go. Rejects with the
 * user's message: the text's own (too large, unreadable), or the browser's refusal.
 */
export async function writeClipboard(text: Promise<string[]>): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  // The failure of the text itself, kept apart from its pieces (the promise holding them is let go once they are in the Blob).
  let failure: Promise<void> = Promise.resolve();
  let written: Promise<void>;
  if (clipboard && typeof clipboard.write === 'function' && typeof ClipboardItem === 'function') {
    const blob = text.then(clipboardBlob);
    failure = blob.then(() => undefined);
    written = clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
  } else if (clipboard && typeof clipboard.writeText === 'function') {
    const joined = text.then((pieces) => pieces.join('\n'));
    failure = joined.then(() => undefined);
    written = joined.then((t) => clipboard.writeText(t));
  } else written = Promise.reject(new Error(WINDOWED_READ_TEXTS.clipboardRefused));
  // Nothing here holds `text` any more while the browser writes.
  text = null as unknown as Promise<string[]>;
  try {
    await written;
  } catch {
    // The text's own failure says more than the browser's (which refuses a text that never came).
    await failure;
    throw new Error(WINDOWED_READ_TEXTS.clipboardRefused);
  }
}

/** Why a whole-column copy's text never came: a newer copy or cut (abandonedByNewerCopy). Not shown: the user moved on. */
const SUPERSEDED = new Error('superseded by a newer copy');
let abandonPending: (() => void) | null = null;
let listening = false;

/**
 * A whole-column copy is read for seconds (a million rows: 7-9 s) before its text reaches the clipboard;
 * a copy or cut the user makes meanwhile — a cell, text in the chat — is on the clipboard at once, and
 * the column's text landing after it would replace what the user copied last. So any later copy or cut
 * event on the page abandons the pending one (`abandon`; its write refused, a Cut's clear not made: its
 * cells never reached the clipboard). The page's copy events are heard first (capture), before the
 * grid starts the newer copy. Returns the function that forgets `abandon` once its copy is settled.
 */
function abandonedByNewerCopy(abandon: () => void): () => void {
  if (!listening && typeof document !== 'undefined') {
    listening = true;
    const supersede = () => {
      const pending = abandonPending;
      abandonPending = null;
      pending?.();
    };
    document.addEventListener('copy', supersede, true);
    document.addEventListener('cut', supersede, true);
  }
  abandonPending = abandon;
  return () => {
    if (abandonPending === abandon) abandonPending = null;
  };
}

/**
 * Copy, or Cut (`cut`), with whole columns selected (their headers clicked, Ctrl+A) on a windowed
 * sheet: every row of the sheet, not the slab's. The cells are read as Delete reads them
 * (sheet.columns: those columns only, in column form), their text goes to the clipboard (writeClipboard:
 * called now, in the copy event; a Copy's values are garbage once the text is built), and a Cut then
 * clears the cells it copied (clearCells: one undo step; not when `stopped`, read-only by then).
 * Refused before any row is read when the text could not stay under COPY_MAX_CHARS (each cell takes
 * at least its tab or line break), else once it passes it; rejects with the message to show.
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
  // A Cut's values, kept (column form) until the text is on the clipboard: its undo step is made of them then.
  let held: CellValue[][] | null = null;
  const text = (async () => {
    if ((range ? range.count : sheet.rowCount) * cols.length > max + 1) throw new Error(WINDOWED_READ_TEXTS.tooLarge(max));
    let values: CellValue[][];
    try {
      ({ values } = await sheet.columns(range, () => cols));
    } catch {
      throw new Error(WINDOWED_READ_TEXTS.unreadable);
    }
    if (cut) held = values;
    const built = await columnsText(values, values[0]?.length ?? 0, max);
    if (built === null) {
      held = null;
      throw new Error(WINDOWED_READ_TEXTS.tooLarge(max));
    }
    return built;
  })();
  let abandon!: () => void;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = () => reject(SUPERSEDED);
  });
  abandoned.catch(() => undefined);
  const forget = abandonedByNewerCopy(abandon);
  return writeClipboard(Promise.race([text, abandoned]))
    .then(
      () => {
        const values = held;
        held = null;
        // A Cut's clear: one cells_clear per span (`clear`), else a change per cell.
        if (cut && values && !stopped()) clearCells(sheet, clearedOfColumns(values, cols, range?.start), write, clear && { blocks: clearBlocks(sheet, spans, range), clear });
      },
      (error: unknown) => {
        held = null;
        if (error !== SUPERSEDED) throw error;
      },
    )
    .finally(forget);
}
