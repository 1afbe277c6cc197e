import type { CellValue } from '@tessera/contracts';
import type { ExportSource } from './export-source.js';
import { chunkRows } from './export-source.js';

/**
 * The first characters with which a spreadsheet starts a formula or a command when it opens
 * a CSV file (OWASP's CSV injection rule: = + - @ tab carriage return; ASVS adds NUL), and the
 * full-width forms some locales of Excel read the same way.
 */
const FORMULA_LEAD = /^[=+\-@\t\r\0\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A plain decimal number, as a spreadsheet reads it, optionally negative: `-5` and `-1.5e3`
 * stay numbers. A leading `+` is not accepted (`+3` is written as text), nor anything around
 * the digits (`-5+1`, `- 5`).
 */
const STRICT_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The text a cell stands for in a CSV file, before quoting. */
export function csvText(value: CellValue, keepFormulas: boolean): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (!keepFormulas && FORMULA_LEAD.test(value) && !STRICT_NUMBER.test(value)) return `'${value}`;
  return value;
}

/** §5: a cell with a comma, quote or line break is quoted, its quotes doubled. */
export function csvCell(value: CellValue, keepFormulas = false): string {
  const text = csvText(value, keepFormulas);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A row as a CSV line: the cells it holds, cut at the header width. A row is not padded out
 * to the width (an empty row is an empty line), so a sparse sheet costs what it holds;
 * readers, our import included, fill the missing cells of a short row with blanks.
 */
function csvLine(row: CellValue[], width: number, keepFormulas: boolean): string {
  const end = Math.min(row.length, width);
  let line = '';
  for (let c = 0; c < end; c++) line += (c === 0 ? '' : ',') + csvCell(row[c], keepFormulas);
  return `${line}\r\n`;
}

/** The CSV file, one piece per stored chunk (at most MAX_CHUNK_ROWS rows), header row first. */
export function* csvPieces(source: ExportSource, keepFormulas: boolean): Generator<string> {
  const headers = source.summary.metadata.headers;
  yield csvLine(headers, headers.length, keepFormulas);
  for (const rows of chunkRows(source, true)) {
    let piece = '';
    for (const row of rows) piece += csvLine(row, headers.length, keepFormulas);
    yield piece;
  }
}
