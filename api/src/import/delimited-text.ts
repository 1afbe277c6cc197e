import { type CellValue, type GridData, sheetSizeError } from '@tessera/contracts';
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
 * (sheets/grid-text-writer.ts): no cell array is kept, and nothing is serialised twice.
 */
export interface ParsedTable {
  headers: string[];
  /** Data rows stored. */
  rows: number;
  /** The widest stored row (the header's width when there is a header row). */
  columns: number;
  chunks: string[];
}

/** The cells of a parsed table (tests, and callers that need them as values). */
export function gridOf(table: ParsedTable): GridData {
  const grid: GridData = [];
  for (const chunk of table.chunks) for (const row of JSON.parse(chunk) as GridData) grid.push(row);
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
 * text of their cells (addRow, from the fast scanner); they are kept as JSON text, in chunks.
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
  readonly #chunks: string[] = [];
  /** The rows (JSON arrays) of the chunk being filled. */
  #current: string[] = [];

  constructor(private readonly maxCells = Number.POSITIVE_INFINITY) {}

  addCells(row: CellValue[]): void {
    const text = JSON.stringify(row);
    this.addRow(text.slice(1, -1), row.length, row.every((c) => c === '' || c === null), () => row);
  }

  /**
   * One row as the JSON text of its cells without the brackets (`"a","b"`), its cell count and
   * whether every cell is empty; `cells` gives its values when they are needed (the header row,
   * a row padded or trimmed to the header).
   */
  addRow(inner: string, length: number, empty: boolean, cells: () => CellValue[]): void {
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
      const blank = this.#headers ? JSON.stringify(Array<string>(this.#width).fill('')) : '[""]';
      for (let i = 0; i < empties; i++) this.#push(blank, this.#headers ? this.#width : 1);
    }
    if (!this.#headers || length === this.#width) this.#push(`[${inner}]`, length);
    else this.#push(JSON.stringify(this.#shaped(cells())), this.#width);
  }

  #shaped(row: CellValue[]): CellValue[] {
    if (row.length > this.#width) return row.slice(0, this.#width);
    return [...row, ...Array<CellValue>(this.#width - row.length).fill('')];
  }

  #push(row: string, length: number): void {
    this.#current.push(row);
    this.#stored++;
    if (length > this.#storedWidth) this.#storedWidth = length;
    if (this.#current.length === CHUNK_ROWS) this.#closeChunk();
  }

  #closeChunk(): void {
    this.#chunks.push(`[${this.#current.join(',')}]`);
    this.#current = [];
  }

  /** The table; 413 when it is beyond the cap, 400 when it holds nothing. */
  finish(): ParsedTable {
    const refused = sheetSizeError(this.#rows, this.#width, this.maxCells);
    if (refused) throw sheetTooLarge(refused);
    // Nothing but empty cells, header included, is no data.
    if (this.#rows === 0 && (this.#headers ?? []).every((h) => h === '')) throw new ParseError('The file contains no data');
    if (this.#current.length > 0) this.#closeChunk();
    const headers = this.#headers ?? [];
    return { headers, rows: this.#stored, columns: this.#headers ? this.#width : this.#storedWidth, chunks: this.#chunks };
  }
}

/** §5 grid rules on rows already in memory (see TableBuilder). */
export function toTable(rows: CellValue[][], maxCells?: number): ParsedTable {
  const table = new TableBuilder(maxCells);
  for (const row of rows) table.addCells(row);
  return table.finish();
}

/** CSV / TSV / pipe-separated text into a table, counted against the cap while parsed; quoting errors are refused with papaparse's reason. */
export function parseDelimited(bytes: Uint8Array, maxCells?: number): ParsedTable {
  if (bytes.length === 0) throw new ParseError('The file is empty');
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw new ParseError('The file is empty');
  const delimiter = detectDelimiter(text);
  const fast = new TableBuilder(maxCells);
  if (scanRows(text, delimiter, guessNewline(text), fast)) return fast.finish();
  return parseWithPapa(text, delimiter, maxCells);
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

const QUOTE = 34;

/**
 * The fast reading of delimited text, cell for cell what papaparse (5.7, no dynamic typing, the
 * same delimiter and line break) reads, without its cell arrays: a run of unquoted fields becomes
 * its JSON text in one string replacement, a quoted field is unquoted and escaped on its own.
 * Returns false, having stopped early, at anything it does not read exactly like papaparse
 * (a quote inside an unquoted field, a closing quote followed by anything but a delimiter, a line
 * break or the end, an unterminated quote): the caller then reads the file with papaparse, which
 * also words the error. `delimited-text.test.ts` checks both readings agree on random text.
 */
export function scanRows(text: string, delimiter: string, newline: string, table: TableBuilder): boolean {
  const end = text.length;
  const d = delimiter;
  // JSON needs these escaped; in a tab-separated file a tab is a delimiter, never inside a run.
  const needsEscape = d === '\t' ? /[\\\u0000-\u0008\u000a-\u001f]/ : /[\\\u0000-\u001f]/;
  const rendered = (run: string) =>
    needsEscape.test(run) ? run.split(d).map((f) => JSON.stringify(f)).join(',') : `"${run.replaceAll(d, '","')}"`;
  const code = d.charCodeAt(0);
  const count = (run: string) => {
    let n = 0;
    for (let i = 0; i < run.length; i++) if (run.charCodeAt(i) === code) n++;
    return n;
  };
  let nextQuote = text.indexOf('"');
  if (nextQuote === -1) nextQuote = end;
  let at = 0;
  for (;;) {
    let lineEnd = text.indexOf(newline, at);
    if (lineEnd === -1) lineEnd = end;
    if (nextQuote >= lineEnd) {
      // A line without quotes: its fields are the text between delimiters.
      const run = text.slice(at, lineEnd);
      const delimiters = count(run);
      const length = delimiters + 1;
      table.addRow(rendered(run), length, run.length === delimiters, () => run.split(d));
    } else {
      // A row with quoted fields (which may hold delimiters and line breaks).
      const parts: string[] = [];
      let length = 0;
      let empty = true;
      let p = at;
      let rowEnd = -1;
      // The next line break at or after p, found once per row part (a row of many quoted fields must not search again each time).
      let nextBreak = lineEnd;
      while (rowEnd === -1) {
        if (text.charCodeAt(p) === QUOTE) {
          let close = text.indexOf('"', p + 1);
          while (close !== -1 && text.charCodeAt(close + 1) === QUOTE && close + 1 < end) close = text.indexOf('"', close + 2);
          if (close === -1) return false;
          const value = text.slice(p + 1, close).replaceAll('""', '"');
          parts.push(JSON.stringify(value));
          length++;
          if (value !== '') empty = false;
          p = close + 1;
          if (p === end) rowEnd = end;
          else if (text.charCodeAt(p) === code) p++;
          else if (text.startsWith(newline, p)) rowEnd = p;
          else return false;
          if (rowEnd === -1 && p === end) {
            // A delimiter at the very end: one more empty field.
            parts.push('""');
            length++;
            rowEnd = end;
          }
          nextQuote = text.indexOf('"', p);
          if (nextQuote === -1) nextQuote = end;
          continue;
        }
        if (nextBreak < p) {
          nextBreak = text.indexOf(newline, p);
          if (nextBreak === -1) nextBreak = end;
        }
        let stop = nextBreak;
        if (nextQuote < stop) {
          // Unquoted fields up to a quote, which must open a field (right after a delimiter).
          if (nextQuote === p || text.charCodeAt(nextQuote - 1) !== code) return false;
          stop = nextQuote - 1;
          const run = text.slice(p, stop);
          const delimiters = count(run);
          parts.push(rendered(run));
          length += delimiters + 1;
          if (run.length !== delimiters) empty = false;
          p = nextQuote;
          continue;
        }
        const run = text.slice(p, stop);
        const delimiters = count(run);
        parts.push(rendered(run));
        length += delimiters + 1;
        if (run.length !== delimiters) empty = false;
        rowEnd = stop;
      }
      const inner = parts.join(',');
      table.addRow(inner, length, empty, () => JSON.parse(`[${inner}]`) as CellValue[]);
      lineEnd = rowEnd;
    }
    if (lineEnd >= end) return true;
    at = lineEnd + newline.length;
  }
}
