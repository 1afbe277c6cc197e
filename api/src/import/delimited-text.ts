import type { CellValue, GridData } from '@tessera/contracts';
import Papa from 'papaparse';

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
 * §5 grid rules: the first row is the header when it has at least 2 columns, and rows are
 * padded or trimmed to its width; otherwise there is no header row and rows keep their width.
 */
export function toTable(rows: CellValue[][]): ParsedTable {
  // A trailing line break leaves one empty record; it is not a row.
  while (rows.length > 0 && rows[rows.length - 1].every((c) => c === '' || c === null)) rows.pop();
  if (rows.length === 0) throw new ParseError('The file contains no data');
  const first = rows[0];
  if (first.length < 2) return { headers: [], data: rows };
  const width = first.length;
  const data = rows.slice(1).map((row) => {
    if (row.length === width) return row;
    if (row.length > width) return row.slice(0, width);
    return [...row, ...Array<CellValue>(width - row.length).fill('')];
  });
  return { headers: first.map((h) => (h === null ? '' : String(h))), data };
}

/** CSV / TSV / pipe-separated text into a table; quoting errors are refused with papaparse's reason. */
export function parseDelimited(bytes: Uint8Array): ParsedTable {
  if (bytes.length === 0) throw new ParseError('The file is empty');
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw new ParseError('The file is empty');
  const result = Papa.parse<string[]>(text, { delimiter: detectDelimiter(text), skipEmptyLines: false });
  const fatal = result.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw new ParseError(`${fatal.message}${fatal.row !== undefined ? ` (row ${fatal.row + 1})` : ''}`);
  return toTable(result.data);
}
