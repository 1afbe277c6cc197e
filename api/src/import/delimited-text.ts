import { type CellValue, type GridData, heldLength, sheetSizeError } from '@tessera/contracts';
import { isUtf8 } from 'node:buffer';
import Papa from 'papaparse';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import { sheetTooLarge } from '../sheets/sheet-size.js';

/** A file the parser refused, with its reason (answered as 400). */
export class ParseError extends Error {}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 text of an upload, with or without BOM (the decoder drops it); anything else is refused. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch (err) {
    throw new ParseError(`The file is not UTF-8 text (${(err as Error).message})`);
  }
}

/** First line outside quotes: where the delimiter is counted. */
function firstRecord(text: string): string {
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) return text.slice(0, i);
  }
  return text;
}

/** §5: tab, pipe or comma, whichever the first line has most of (in that order on a tie). */
export function detectDelimiter(text: string): '\t' | '|' | ',' {
  const line = firstRecord(text).replace(/"[^"]*"/g, '');
  const count = (ch: string) => line.split(ch).length - 1;
  const candidates = (['\t', '|', ','] as const).map((d) => [d, count(d)] as const);
  const best = candidates.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/**
 * The line break papaparse 5.7 takes for the whole file (its guessLineEndings, to the letter):
 * from the first megabyte with quoted text removed, '\n' unless '\r' comes first, then '\r\n'
 * when at least half the '\r' are followed by '\n'. The fast scanner below must cut rows where
 * papaparse does.
 */
export function guessNewline(text: string): '\n' | '\r\n' | '\r' {
  const head = text.substring(0, 1024 * 1024).replace(/"([^]*?)"/gm, '');
  const r = head.split('\r');
  const n = head.split('\n');
  if (r.length === 1 || (n.length > 1 && n[0].length < r[0].length)) return '\n';
  let withN = 0;
  for (const part of r) if (part[0] === '\n') withN++;
  return withN >= r.length / 2 ? '\r\n' : '\r';
}

/**
 * A table as it is stored: its header row, its size, and its rows as the JSON text of
 * consecutive chunks of CHUNK_ROWS rows (the last one shorter), ready to be written as they are
 * (sheets/grid-text-writer.ts): no cell array is kept, and nothing is serialised twice. The text
 * is kept as UTF-8 bytes, as the database takes it: the fast scanner writes bytes from the
 * upload's bytes, and none of it is ever a JS string (decoding 10 MB to strings, then measuring
 * and encoding them again to send them, was a third of a 100,000-row import's CPU on PGlite).
 */
export interface ParsedTable {
  headers: string[];
  /** Data rows stored. */
  rows: number;
  /** The widest stored row (the header's width when there is a header row). */
  columns: number;
  chunks: Buffer[];
  /** The cells of each chunk the formula engine would be given (contracts heldCells), stored beside it (migration 0016). */
  held: number[];
}

/** The cells of a parsed table (tests, and callers that need them as values). */
export function gridOf(table: ParsedTable): GridData {
  const grid: GridData = [];
  for (const chunk of table.chunks) for (const row of JSON.parse(chunk.toString('utf8')) as GridData) grid.push(row);
  return grid;
}

/**
 * §5 grid rules, applied row by row as the parser yields them: the first row is the header when
 * it has at least 2 columns, and rows are padded or trimmed to its width; otherwise there is no
 * header row and rows keep their width. The sheet's size (rows × columns) is counted as rows
 * arrive: past the cell cap or 16,384 columns, rows are no longer kept (only counted, for the
 * exact size in the 413), so a hostile file costs at most the cap in memory, never rows × its
 * widest line. Empty rows are held back as a count until a non-empty row follows: trailing ones
 * are not rows and cost nothing. Rows arrive as cell arrays (addCells) or already as the JSON
 * text of their cells (addRow, from the fast scanner); they are kept as JSON text (UTF-8 bytes), in chunks.
 */
export class TableBuilder {
  #headers: string[] | null = null;
  #first = true;
  /** Data rows so far, not counting the trailing empty ones. */
  #rows = 0;
  #pendingEmpty = 0;
  /** Widest of the held-back empty rows (without a header, a row of empty cells still widens the sheet). */
  #pendingWidth = 0;
  #width = 0;
  #over = false;
  #stored = 0;
  #storedWidth = 0;
  readonly #chunks: Buffer[] = [];
  readonly #held: number[] = [];
  /** Held cells (contracts heldLength) of the rows in the chunk being filled. */
  #chunkHeld = 0;
  /** The JSON text of the chunk being filled (`[` and its rows so far, comma-separated), `#end` bytes of it. */
  #current: Buffer = Buffer.allocUnsafe(64 * 1024);
  #end = 0;
  /** Rows in the chunk being filled. */
  #inChunk = 0;

  constructor(private readonly maxCells = Number.POSITIVE_INFINITY) {}

  addCells(row: CellValue[]): void {
    const text = JSON.stringify(row);
    this.addRow(Buffer.from(text.slice(1, -1), 'utf8'), row.length, row.every((c) => c === '' || c === null), () => row, heldLength(row));
  }

  /**
   * One row as the JSON text of its cells without the brackets (`"a","b"`, UTF-8; copied, so
   * the caller may reuse the memory), its cell count and whether every cell is empty; `cells`
   * gives its values when they are needed (the header row, a row padded or trimmed to the header);
   * `held`, its cells up to its last non-null one (contracts heldLength: the fast scanner's cells are
   * all strings, so its length).
   */
  addRow(inner: Uint8Array, length: number, empty: boolean, cells: () => CellValue[], held = length): void {
    if (this.#first) {
      this.#first = false;
      if (length >= 2) {
        this.#headers = cells().map((h) => (h === null ? '' : String(h)));
        this.#width = length;
        this.#over = sheetSizeError(0, this.#width, this.maxCells) !== null;
        return;
      }
    }
    if (empty) {
      this.#pendingEmpty++;
      if (length > this.#pendingWidth) this.#pendingWidth = length;
      return;
    }
    const width = this.#headers ? this.#width : Math.max(this.#width, this.#pendingWidth, length);
    const rows = this.#rows + this.#pendingEmpty + 1;
    if (!this.#over && sheetSizeError(rows, width, this.maxCells) !== null) this.#over = true;
    this.#rows = rows;
    this.#width = width;
    const empties = this.#pendingEmpty;
    this.#pendingEmpty = 0;
    this.#pendingWidth = 0;
    if (this.#over) return;
    // Held-back empty rows are stored as one empty cell (padded to the header's width when there is one).
    if (empties > 0) {
      const blank = Buffer.from(this.#headers ? JSON.stringify(Array<string>(this.#width).fill('')).slice(1, -1) : '""', 'utf8');
      for (let i = 0; i < empties; i++) this.#push(blank, this.#headers ? this.#width : 1, this.#headers ? this.#width : 1);
    }
    if (!this.#headers || length === this.#width) this.#push(inner, length, held);
    else {
      const shaped = this.#shaped(cells());
      this.#push(Buffer.from(JSON.stringify(shaped).slice(1, -1), 'utf8'), this.#width, heldLength(shaped));
    }
  }

  #shaped(row: CellValue[]): CellValue[] {
    if (row.length > this.#width) return row.slice(0, this.#width);
    return [...row, ...Array<CellValue>(this.#width - row.length).fill('')];
  }

  /** Appends `[inner]` (`length` cells, `held` of them held) to the chunk being filled. */
  #push(inner: Uint8Array, length: number, held: number): void {
    // Room for the separator, the brackets and the chunk's closing bracket.
    const needed = this.#end + inner.length + 4;
    if (needed > this.#current.length) {
      const bigger = Buffer.allocUnsafe(Math.max(needed, this.#current.length * 2));
      this.#current.copy(bigger, 0, 0, this.#end);
      this.#current = bigger;
    }
    const out = this.#current;
    let end = this.#end;
    out[end++] = this.#inChunk === 0 ? OPEN : COMMA;
    out[end++] = OPEN;
    out.set(inner, end);
    end += inner.length;
    out[end++] = CLOSE;
    this.#end = end;
    this.#inChunk++;
    this.#chunkHeld += held;
    this.#stored++;
    if (length > this.#storedWidth) this.#storedWidth = length;
    if (this.#inChunk === CHUNK_ROWS) this.#closeChunk();
  }

  #closeChunk(): void {
    const end = this.#end;
    this.#current[end] = CLOSE;
    const text = this.#current.subarray(0, end + 1);
    // Kept as it is unless a quarter of its memory would be wasted (the text is kept until stored).
    this.#chunks.push(this.#current.length - text.length > text.length / 4 ? Buffer.from(text) : text);
    // The next chunk is about as long as this one.
    this.#current = Buffer.allocUnsafe(Math.ceil(text.length * 1.1) + 1024);
    this.#end = 0;
    this.#inChunk = 0;
    this.#held.push(this.#chunkHeld);
    this.#chunkHeld = 0;
  }

  /** The table; 413 when it is beyond the cap, 400 when it holds nothing. */
  finish(): ParsedTable {
    const refused = sheetSizeError(this.#rows, this.#width, this.maxCells);
    if (refused) throw sheetTooLarge(refused);
    // Nothing but empty cells, header included, is no data.
    if (this.#rows === 0 && (this.#headers ?? []).every((h) => h === '')) throw new ParseError('The file contains no data');
    if (this.#inChunk > 0) this.#closeChunk();
    const headers = this.#headers ?? [];
    return { headers, rows: this.#stored, columns: this.#headers ? this.#width : this.#storedWidth, chunks: this.#chunks, held: this.#held };
  }
}

/** §5 grid rules on rows already in memory (see TableBuilder). */
export function toTable(rows: CellValue[][], maxCells?: number): ParsedTable {
  const table = new TableBuilder(maxCells);
  for (const row of rows) table.addCells(row);
  return table.finish();
}

/** UTF-16 units of the text papaparse guesses the line break from (guessNewline). */
const GUESS_UNITS = 1024 * 1024;
/**
 * Bytes of the head decoded to find the delimiter and line break: that many units when the text
 * is ASCII (a byte a unit), else up to MAX_HEAD_BYTES (a UTF-8 character is at most 3 bytes a
 * unit). Decoding 3 MB every time cost a 100,000-row import more than 20 ms.
 */
const HEAD_BYTES = GUESS_UNITS + 4;
const MAX_HEAD_BYTES = 3 * GUESS_UNITS + 4;

/** CSV / TSV / pipe-separated text into a table, counted against the cap while parsed; quoting errors are refused with papaparse's reason. */
export function parseDelimited(bytes: Uint8Array, maxCells?: number): ParsedTable {
  if (bytes.length === 0) throw new ParseError('The file is empty');
  if (!isUtf8(bytes)) decodeUtf8(bytes); // throws with the decoder's reason
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let whole = bytes.length <= HEAD_BYTES;
  let head = decodeUtf8(whole ? bytes : bytes.subarray(0, utf8Boundary(bytes, HEAD_BYTES)));
  if (!whole && head.length < GUESS_UNITS) {
    // Multi-byte text: fewer units than papaparse reads; at least that many in three times the bytes.
    whole = bytes.length <= MAX_HEAD_BYTES;
    head = decodeUtf8(whole ? bytes : bytes.subarray(0, utf8Boundary(bytes, MAX_HEAD_BYTES)));
  }
  // A blank head, or a first line longer than the head: the whole text decides (rare).
  if (!whole && (head.trim() === '' || firstRecord(head).length === head.length)) {
    head = decodeUtf8(bytes);
    whole = true;
  }
  if (whole && head.trim() === '') throw new ParseError('The file is empty');
  const delimiter = detectDelimiter(head);
  const fast = new TableBuilder(maxCells);
  if (scanRows(bytes, start, delimiter, guessNewline(head), fast)) return fast.finish();
  return parseWithPapa(decodeUtf8(bytes), delimiter, maxCells);
}

/** The largest index ≤ at that starts a UTF-8 character (never cuts one in two). */
function utf8Boundary(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i > 0 && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

/** The reference reading: papaparse row by row (files the fast scanner leaves to it, and its tests). */
export function parseWithPapa(text: string, delimiter: string, maxCells?: number): ParsedTable {
  const table = new TableBuilder(maxCells);
  let index = 0;
  let fatal: string | undefined;
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: false,
    step: (result, parser) => {
      const quotes = result.errors.find((e) => e.type === 'Quotes');
      if (quotes) {
        fatal = `${quotes.message} (row ${index + 1})`;
        parser.abort();
        return;
      }
      table.addCells(result.data);
      index++;
    },
  });
  if (fatal) throw new ParseError(fatal);
  return table.finish();
}

const QUOTE = 0x22;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const HEX = '0123456789abcdef';

/**
 * The fast reading of delimited text, cell for cell what papaparse (5.7, no dynamic typing, the
 * same delimiter and line break) reads, straight from the upload's UTF-8 bytes to each row's JSON
 * text: no cell strings or arrays, one string per row. Returns false, having stopped early, at
 * anything it does not read exactly like papaparse (a quote inside an unquoted field, a closing
 * quote followed by anything but a delimiter, a line break or the end, an unterminated quote):
 * the caller then reads the file with papaparse, which also words the error.
 * `delimited-text.test.ts` checks both readings agree on random text. `bytes` is valid UTF-8
 * (delimiters, quotes and line breaks are ASCII, so a byte of one is never inside a character).
 */
export function scanRows(bytes: Uint8Array, start: number, delimiter: string, newline: string, table: TableBuilder): boolean {
  const n = bytes.length;
  const d = delimiter.charCodeAt(0);
  const nl = newline.charCodeAt(0);
  const crlf = newline === '\r\n';
  const nlLength = newline.length;
  // Locals only in the loops below (no closure shares them): the row's JSON is written to `out`,
  // which grows when a write would come within SLACK bytes of its end.
  let out: Buffer = Buffer.allocUnsafe(64 * 1024);
  let limit = out.length - SLACK;
  let i = start;
  for (;;) {
    let o = 0;
    let length = 0;
    let empty = true;
    let atEnd = false;
    for (;;) {
      // One field from i: quoted, or up to the next delimiter or line break.
      if (o > limit) {
        out = grown(out, o);
        limit = out.length - SLACK;
      }
      if (length > 0) out[o++] = 0x2c;
      length++;
      out[o++] = QUOTE;
      if (i < n && bytes[i] === QUOTE) {
        i++;
        for (;;) {
          if (i >= n) return false;
          if (o > limit) {
            out = grown(out, o);
            limit = out.length - SLACK;
          }
          const c = bytes[i];
          if (c === QUOTE) {
            if (i + 1 < n && bytes[i + 1] === QUOTE) {
              out[o++] = BACKSLASH;
              out[o++] = QUOTE;
              empty = false;
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c < 0x20 || c === BACKSLASH) o = escaped(out, o, c);
          else out[o++] = c;
          empty = false;
          i++;
        }
        out[o++] = QUOTE;
        if (i >= n) {
          atEnd = true;
          break;
        }
        const c = bytes[i];
        if (c === d) {
          i++;
          continue;
        }
        if (c === nl && (!crlf || bytes[i + 1] === 10)) {
          i += nlLength;
          break;
        }
        return false;
      }
      let ended = false;
      for (;;) {
        if (i >= n) {
          atEnd = true;
          ended = true;
          break;
        }
        if (o > limit) {
          out = grown(out, o);
          limit = out.length - SLACK;
        }
        const c = bytes[i];
        if (c >= 0x20 && c !== d && c !== QUOTE && c !== BACKSLASH) {
          out[o++] = c;
          empty = false;
          i++;
          continue;
        }
        if (c === d) {
          i++;
          break;
        }
        if (c === nl && (!crlf || bytes[i + 1] === 10)) {
          i += nlLength;
          ended = true;
          break;
        }
        if (c === QUOTE) return false;
        o = escaped(out, o, c);
        empty = false;
        i++;
      }
      out[o++] = QUOTE;
      if (ended) break;
    }
    const inner = out.subarray(0, o);
    table.addRow(inner, length, empty, () => JSON.parse(`[${inner.toString('utf8')}]`) as CellValue[]);
    if (atEnd) return true;
  }
}

/** Free bytes `out` keeps past a write position: room for one field's opening (3) or one escape (6). */
const SLACK = 8;

function grown(out: Buffer, used: number): Buffer {
  const bigger = Buffer.allocUnsafe(out.length * 2);
  out.copy(bigger, 0, 0, used);
  return bigger;
}

/** Writes JSON.stringify's escape of an ASCII byte it escapes (backslash, control characters); returns the new end. */
function escaped(out: Buffer, o: number, c: number): number {
  out[o++] = BACKSLASH;
  if (c === BACKSLASH) out[o++] = c;
  else if (c === 8) out[o++] = 0x62;
  else if (c === 9) out[o++] = 0x74;
  else if (c === 10) out[o++] = 0x6e;
  else if (c === 12) out[o++] = 0x66;
  else if (c === 13) out[o++] = 0x72;
  else {
    out[o++] = 0x75;
    out[o++] = 0x30;
    out[o++] = 0x30;
    out[o++] = HEX.charCodeAt(c >> 4);
    out[o++] = HEX.charCodeAt(c & 15);
  }
  return o;
}
