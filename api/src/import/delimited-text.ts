import { type CellValue, type GridData, sheetSizeError } from '@tessera/contracts';
import Papa from 'papaparse';
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

export interface ParsedTable {
  headers: string[];
  data: GridData;
}

/**
 * §5 grid rules, applied row by row as the parser yields them: the first row is the header when
 * it has at least 2 columns, and rows are padded or trimmed to its width; otherwise there is no
 * header row and rows keep their width. The sheet's size (rows × columns) is counted as rows
 * arrive: past the cell cap or 16,384 columns, rows are no longer kept (only counted, for the
 * exact size in the 413), so a hostile file costs at most the cap in memory, never rows × its
 * widest line. Empty rows are held back as a count until a non-empty row follows: trailing ones
 * are not rows and cost nothing.
 */
export class TableBuilder {
  #headers: string[] | null = null;
  #first = true;
  readonly #data: CellValue[][] = [];
  /** Data rows so far, not counting the trailing empty ones. */
  #rows = 0;
  #pendingEmpty = 0;
  /** Widest of the held-back empty rows (without a header, a row of empty cells still widens the sheet). */
  #pendingWidth = 0;
  #width = 0;
  #over = false;

  constructor(private readonly maxCells = Number.POSITIVE_INFINITY) {}

  add(row: CellValue[]): void {
    if (this.#first) {
      this.#first = false;
      if (row.length >= 2) {
        this.#headers = row.map((h) => (h === null ? '' : String(h)));
        this.#width = row.length;
        this.#over = sheetSizeError(0, this.#width, this.maxCells) !== null;
        return;
      }
    }
    if (row.every((c) => c === '' || c === null)) {
      this.#pendingEmpty++;
      if (row.length > this.#pendingWidth) this.#pendingWidth = row.length;
      return;
    }
    const width = this.#headers ? this.#width : Math.max(this.#width, this.#pendingWidth, row.length);
    const rows = this.#rows + this.#pendingEmpty + 1;
    if (!this.#over && sheetSizeError(rows, width, this.maxCells) !== null) this.#over = true;
    this.#rows = rows;
    this.#width = width;
    const empties = this.#pendingEmpty;
    this.#pendingEmpty = 0;
    this.#pendingWidth = 0;
    if (this.#over) return;
    // Held-back empty rows are stored as one empty cell (padded to the header's width when there is one).
    for (let i = 0; i < empties; i++) this.#data.push(this.#shaped(['']));
    this.#data.push(this.#shaped(row));
  }

  #shaped(row: CellValue[]): CellValue[] {
    if (!this.#headers || row.length === this.#width) return row;
    if (row.length > this.#width) return row.slice(0, this.#width);
    return [...row, ...Array<CellValue>(this.#width - row.length).fill('')];
  }

  /** The table; 413 when it is beyond the cap, 400 when it holds nothing. */
  finish(): ParsedTable {
    const refused = sheetSizeError(this.#rows, this.#width, this.maxCells);
    if (refused) throw sheetTooLarge(refused);
    // Nothing but empty cells, header included, is no data.
    if (this.#rows === 0 && (this.#headers ?? []).every((h) => h === '')) throw new ParseError('The file contains no data');
    return { headers: this.#headers ?? [], data: this.#data };
  }
}

/** §5 grid rules on rows already in memory (see TableBuilder). */
export function toTable(rows: CellValue[][], maxCells?: number): ParsedTable {
  const table = new TableBuilder(maxCells);
  for (const row of rows) table.add(row);
  return table.finish();
}

/** CSV / TSV / pipe-separated text into a table, counted against the cap while parsed; quoting errors are refused with papaparse's reason. */
export function parseDelimited(bytes: Uint8Array, maxCells?: number): ParsedTable {
  if (bytes.length === 0) throw new ParseError('The file is empty');
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw new ParseError('The file is empty');
  const table = new TableBuilder(maxCells);
  let index = 0;
  let fatal: string | undefined;
  Papa.parse<string[]>(text, {
    delimiter: detectDelimiter(text),
    skipEmptyLines: false,
    step: (result, parser) => {
      const quotes = result.errors.find((e) => e.type === 'Quotes');
      if (quotes) {
        fatal = `${quotes.message} (row ${index + 1})`;
        parser.abort();
        return;
      }
      table.add(result.data);
      index++;
    },
  });
  if (fatal) throw new ParseError(fatal);
  return table.finish();
}
