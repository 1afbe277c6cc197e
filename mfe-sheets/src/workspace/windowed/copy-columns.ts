import { IMPORT_MAX_BYTES, WINDOWED_READ_TEXTS, type CellChange, type CellValue, type ClearBlock, type RowRange } from '@tessera/contracts';
import type { ClearedCells } from '../undo/undo-stack.js';
import { clearBlocks, clearCells, runsClear, spanColumns, type ColumnSpan, type SendClears } from './clear-columns.js';
import { inRuns, runsSpan } from './filter/filtered-rows.js';
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
 * Characters of text pieces turned into one Blob as soon as they are built (copyColumns): the page
 * hands their bytes to the browser's blob storage then, instead of holding the whole text as JS
 * strings until the last window is read.
 */
const FOLD_CHARS = 4 * 1024 * 1024;

/**
 * The text Handsontable's copy puts in text/plain (cells by tabs, rows by line breaks, none after
 * the last) of whole columns, built a block of rows at a time (copyColumns: a window of the sheet
 * as it is read, its values let go at once): `pieces` holds one text per block, those of every
 * `fold` characters turned into one Blob (FOLD_CHARS); the whole text is the pieces joined by line
 * breaks (clipboardBlob: the Blob's parts; no one string of the whole text is made).
 */
export class ColumnsText {
  pieces: (string | Blob)[] = [];
  private length = 0;
  private rows = 0;
  /** Characters of the string pieces at the end of `pieces` (not folded yet), and how many they are. */
  private loose = 0;
  private looseCount = 0;

  constructor(
    private readonly max = COPY_MAX_CHARS,
    private readonly fold = FOLD_CHARS,
  ) {}

  /**
   * Rows [from, to) of `values` (column form: values[k][row]; those `keep` keeps) appended as one
   * piece; false as soon as the text would pass `max` characters (what is built so far is dropped).
   */
  add(values: readonly (readonly CellValue[])[], from: number, to: number, keep?: (row: number) => boolean): boolean {
    const width = values.length;
    const lines: string[] = [];
    let chars = 0;
    for (let row = from; row < to; row++) {
      if (keep && !keep(row)) continue;
      // No array per row: a line of one column is its cell's text.
      let line = width > 0 ? cellText(values[0][row]) : '';
      for (let k = 1; k < width; k++) line += `\t${cellText(values[k][row])}`;
      this.length += line.length + (this.rows > 0 ? 1 : 0);
      chars += line.length + 1;
      this.rows++;
      if (this.length > this.max) {
        this.reset();
        return false;
      }
      lines.push(line);
    }
    if (lines.length === 0) return true;
    this.pieces.push(lines.join('\n'));
    this.loose += chars;
    this.looseCount++;
    if (this.loose >= this.fold) {
      // The loose pieces as one Blob (their line breaks between them), in their place.
      const loose = this.pieces.splice(this.pieces.length - this.looseCount);
      this.pieces.push(clipboardBlob(loose));
      this.loose = 0;
      this.looseCount = 0;
    }
    return true;
  }

  /** Nothing built (the rows are read again: they moved meanwhile). */
  reset(): void {
    this.pieces = [];
    this.length = 0;
    this.rows = 0;
    this.loose = 0;
    this.looseCount = 0;
  }
}

/** A turn of the page (the grid is not held up by a million rows at once). */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The columns `values` (column form: values[k][row]; `count` rows) as ColumnsText's pieces, of
 * ROWS_PER_TURN rows built a turn of the page apart; null as soon as the text would pass `max` characters.
 */
export async function columnsText(values: readonly (readonly CellValue[])[], count: number, max = COPY_MAX_CHARS, fold = FOLD_CHARS): Promise<(string | Blob)[] | null> {
  const text = new ColumnsText(max, fold);
  for (let from = 0; from < count; from += ROWS_PER_TURN) {
    if (from > 0) await turn();
    if (!text.add(values, from, Math.min(count, from + ROWS_PER_TURN))) return null;
  }
  return text.pieces;
}

/**
 * The cells holding a value of whole columns, gathered a window at a time and packed as the undo
 * stack holds a clear (ClearedCells: two Int32Arrays and the values; a Cut of a million rows of ten
 * columns keeps those, not ten arrays of a million values). Sized for `bound` cells at first (the
 * range's: the pages never written cost nothing), grown past it only if rows were added meanwhile.
 */
class PackedCells {
  private rows: Int32Array;
  private cols: Int32Array;
  private before: CellValue[] = [];
  private count = 0;

  constructor(bound: number) {
    this.rows = new Int32Array(Math.max(1, bound));
    this.cols = new Int32Array(Math.max(1, bound));
  }

  /** The cells of `values` (column form, values[k][i]: column cols[k] of row first + i) holding a value (of the rows `keep` keeps). */
  add(values: readonly (readonly CellValue[])[], cols: readonly number[], first: number, keep?: (row: number) => boolean): void {
    for (let k = 0; k < values.length; k++) {
      const column = values[k];
      for (let i = 0; i < column.length; i++) {
        if (keep && !keep(first + i)) continue;
        const value = column[i];
        if (value === null || value === undefined || value === '') continue;
        if (this.count === this.rows.length) this.grow();
        this.rows[this.count] = first + i;
        this.cols[this.count] = cols[k];
        this.before.push(value);
        this.count++;
      }
    }
  }

  private grow(): void {
    const rows = new Int32Array(this.rows.length * 2);
    rows.set(this.rows);
    const cols = new Int32Array(this.cols.length * 2);
    cols.set(this.cols);
    this.rows = rows;
    this.cols = cols;
  }

  reset(): void {
    this.before = [];
    this.count = 0;
  }

  /** The cells gathered (the arrays cut to them: a full range's are not copied). */
  cells(): ClearedCells {
    const cut = (at: Int32Array) => (this.count === at.length ? at : at.slice(0, this.count));
    return { rows: cut(this.rows), cols: cut(this.cols), before: this.before };
  }
}

/** `pieces` (columnsText's) as one text/plain Blob, the line breaks between them as parts of their own. */
export function clipboardBlob(pieces: readonly (string | Blob)[]): Blob {
  const parts: (string | Blob)[] = [];
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
 * gesture), else it is written once read. `text` resolves with columnsText's pieces (texts and
 * Blobs of them); they go into a Blob (its parts: the whole text is never one JS string) and are let go. Rejects with the
 * user's message: the text's own (too large, unreadable), or the browser's refusal.
 */
export async function writeClipboard(text: Promise<(string | Blob)[]>): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  // The failure of the text itself, kept apart from its pieces (the promise holding them is let go once they are in the Blob).
  let failure: Promise<void> = Promise.resolve();
  let written: Promise<void>;
  if (clipboard && typeof clipboard.write === 'function' && typeof ClipboardItem === 'function') {
    const blob = text.then(clipboardBlob);
    failure = blob.then(() => undefined);
    written = clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
  } else if (clipboard && typeof clipboard.writeText === 'function') {
    // No Blob written here: one string (the pieces folded into Blobs read back).
    const joined = text.then(async (pieces) => (await Promise.all(pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text())))).join('\n'));
    failure = joined.then(() => undefined);
    written = joined.then((t) => clipboard.writeText(t));
  } else written = Promise.reject(new Error(WINDOWED_READ_TEXTS.clipboardRefused));
  // Nothing here holds `text` any more while the browser writes.
  text = null as unknown as Promise<(string | Blob)[]>;
  try {
    await written;
  } catch {
    // The text's own failure says more than the browser's (which refuses a text that never came).
    await failure;
    throw new Error(WINDOWED_READ_TEXTS.clipboardRefused);
  }
}

/** Why a whole-column copy's read stopped: its text passed the bound (copyColumns). */
const TOO_LARGE = new Error('too large');

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
 * sheet: every row of the sheet, not the slab's. The cells are read as Delete reads them (those
 * columns only, in column form) but a window at a time, in row order (sheet.columnWindows): each
 * window is turned into its piece of the text and let go — Ctrl+A, Ctrl+C of a million rows of ten
 * columns never holds ten million values, only the text (and a Cut its cells, packed as its undo step
 * keeps them). The text goes to the clipboard (writeClipboard: called now, in the copy event), and a Cut then
 * clears the cells it copied (clearCells: one undo step; not when `stopped`, read-only by then).
 * Refused before any row is read when the text could not stay under COPY_MAX_CHARS (each cell takes
 * at least its tab or line break), else once it passes it; rejects with the message to show.
 * With `range`, those rows only (a Shift-selected range of rows longer than the slab, which holds part of it).
 * With `runs` (a row filter on: the rows it shows, flat [start, count, …], already cut to `range`), those
 * rows only: copied, and a Cut clears them only (a cells_clear per run and span), as spreadsheets copy
 * and cut only the rows one sees of a filtered selection.
 */
export function copyColumns(
  sheet: WindowedSheet,
  spans: readonly ColumnSpan[],
  cut: boolean,
  write: (changes: CellChange[]) => void,
  stopped: () => boolean,
  max = COPY_MAX_CHARS,
  range?: RowRange,
  clear?: SendClears,
  runs?: readonly number[],
): Promise<void> {
  const cols = spanColumns(spans);
  // A row filter on: the rows it shows only (of `range`: the caller clips them), read over their span.
  if (runs) range = runsSpan(runs);
  const shown = runs && inRuns(runs);
  // A Cut's cells, packed (the undo step's form), kept until the text is on the clipboard: its undo step then.
  let held: ClearedCells | null = null;
  let gone = false;
  const text = (async () => {
    const shownCount = runs ? runs.reduce((n, v, i) => (i % 2 === 1 ? n + v : n), 0) : null;
    const rows = shownCount ?? (range ? Math.max(0, Math.min(range.count, sheet.rowCount - Math.max(0, range.start))) : sheet.rowCount);
    if ((shownCount ?? (range ? range.count : sheet.rowCount)) * cols.length > max + 1) throw new Error(WINDOWED_READ_TEXTS.tooLarge(max));
    // Each window turned into its text (and a Cut's packed cells) as it comes, in row order, and let go.
    const built = new ColumnsText(max);
    const packed = cut ? new PackedCells(rows * cols.length) : null;
    let sinceTurn = 0;
    try {
      await sheet.columnWindows(
        range,
        () => cols,
        async (values, from) => {
          // Abandoned (a newer copy): no further window is read.
          if (gone) throw SUPERSEDED;
          const count = values[0]?.length ?? 0;
          if (!built.add(values, 0, count, shown && ((i) => shown(from + i)))) throw TOO_LARGE;
          packed?.add(values, cols, from, shown);
          sinceTurn += count;
          if (sinceTurn >= ROWS_PER_TURN) {
            sinceTurn = 0;
            await turn();
          }
        },
        () => {
          built.reset();
          packed?.reset();
        },
      );
    } catch (error) {
      throw new Error(error === TOO_LARGE ? WINDOWED_READ_TEXTS.tooLarge(max) : WINDOWED_READ_TEXTS.unreadable);
    }
    if (packed) held = packed.cells();
    return built.pieces;
  })();
  let abandon!: () => void;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = () => {
      gone = true;
      reject(SUPERSEDED);
    };
  });
  abandoned.catch(() => undefined);
  const forget = abandonedByNewerCopy(abandon);
  return writeClipboard(Promise.race([text, abandoned]))
    .then(
      () => {
        const cells = held;
        held = null;
        // A Cut's clear: one cells_clear per span (`clear`; filtered, per run and span), else a change per cell.
        if (cut && cells && !stopped()) clearCells(sheet, cells, write, runs ? runsClear(sheet, spans, runs, clear) : clear && { blocks: clearBlocks(sheet, spans, range), clear });
      },
      (error: unknown) => {
        held = null;
        if (error !== SUPERSEDED) throw error;
      },
    )
    .finally(forget);
}
