import type { GridData, SheetRowsQuery } from '@tessera/contracts';
import { closingQuote } from './json-text.js';

/** Columns [start, start + count) of each row (GET /sheets/:id/rows' col_start and col_count). */
export interface ColumnSpan {
  start: number;
  count: number;
}

/** The columns a window asks for (col_start and col_count, validated together by SheetRowsQuerySchema), if any. */
export function columnSpanOf(query: Pick<SheetRowsQuery, 'col_start' | 'col_count'>): ColumnSpan | undefined {
  return query.col_start !== undefined && query.col_count !== undefined ? { start: query.col_start, count: query.col_count } : undefined;
}

/**
 * Rows [from, to) of a chunk's text (a JSON array of rows of cells), each cut to `columns` when
 * given (row[k] is column columns.start + k; a row ending before them is shorter or empty). Without
 * columns the text is parsed and sliced, as a window always was. With columns only the cells kept
 * are parsed: the text is scanned for them (columnsText), a character at a time, which costs less
 * than parsing the whole chunk into objects that are thrown away (a whole-column read of a
 * 10-column sheet parses and sends a tenth of it); a cell that is not a scalar makes it parse the chunk.
 */
export function rowsOfText(text: string, from: number, to: number, columns?: ColumnSpan): GridData {
  if (columns) {
    const kept = columnsText(text, from, to, columns.start, columns.start + columns.count);
    if (kept !== undefined) return JSON.parse(kept) as GridData;
  }
  const rows = (JSON.parse(text) as GridData).slice(Math.max(0, from), Math.max(0, to));
  return columns ? rows.map((row) => row.slice(columns.start, columns.start + columns.count)) : rows;
}

/**
 * The text of rows [from, to) of `text` (a JSON array of rows of scalar cells), each row cut to
 * columns [colStart, colEnd), found by scanning characters (strings skipped whole) instead of
 * parsing: each kept row's cells are copied from the text as they are. Undefined when a cell is
 * not a scalar (the caller then parses).
 */
export function columnsText(text: string, from: number, to: number, colStart: number, colEnd: number): string | undefined {
  const parts: string[] = [];
  let depth = 0;
  let row = -1;
  let col = 0;
  /** Where the current row's kept cells start in the text; NOT_YET before colStart, TAKEN once copied. */
  let cells = NOT_YET;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
    } else if (c === OPEN) {
      depth++;
      if (depth > 2) return undefined;
      if (depth === 2) {
        row++;
        if (row >= to) break;
        col = 0;
        cells = colStart === 0 ? i + 1 : NOT_YET;
      }
    } else if (c === CLOSE) {
      if (depth === 2 && row >= from && cells !== TAKEN) parts.push(cells === NOT_YET ? '[]' : `[${text.slice(cells, i)}]`);
      depth--;
    } else if (c === COMMA && depth === 2) {
      col++;
      if (col === colStart) cells = i + 1;
      else if (col === colEnd && cells >= 0) {
        if (row >= from) parts.push(`[${text.slice(cells, i)}]`);
        cells = TAKEN;
        // The rest of the row is not kept: on to its closing bracket without looking at each character.
        const end = rowEnd(text, i + 1);
        if (end < 0) return undefined;
        i = end - 1;
      }
    }
  }
  return `[${parts.join(',')}]`;
}

/**
 * The index of the bracket closing the row that position `i` is inside of (past its last kept
 * cell), found with indexOf (strings skipped whole); -1 when the row holds a nested array or is not closed.
 */
function rowEnd(text: string, i: number): number {
  for (;;) {
    const close = text.indexOf(']', i);
    if (close < 0) return -1;
    const open = text.indexOf('[', i);
    const quote = text.indexOf('"', i);
    if (open >= 0 && open < close && (quote < 0 || open < quote)) return -1;
    if (quote < 0 || close < quote) return close;
    i = closingQuote(text, quote) + 1;
  }
}

const QUOTE = 34;
const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const NOT_YET = -1;
const TAKEN = -2;
