import {
  CELL_MAX_LENGTH,
  type CellValue,
  type CodeRunGrid,
  type CodeRunResult,
  type GridDiscard,
  type JsonValue,
  PARSED_OUTPUT_NOISE_MESSAGE,
  PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE,
  RESULT_GRID_NOISE_MESSAGE,
  columnLabel,
} from '@tessera/contracts';
import { looksLikeSchedule, looksLikeSolverDebugLog } from './grid-filters.js';
import { LiteralDict, type LiteralValue, literalToJson, readLiteral } from './python-literal.js';

export interface GridOfRunOptions {
  /** The enhanced table parsing flag (FEATURE_ENHANCED_TABLE_PARSING): off, printed output is never parsed. */
  parsePrintedOutput: boolean;
}

/**
 * The grid of a finished job (spec 02 §5), or why the one found was discarded:
 * - what the code assigned to `result` (or its last expression) goes through extractGrid and
 *   is kept unless it looks like a solver's debug log (grid-filters.ts);
 * - when it assigned nothing (`result` is None), the tables in what it printed
 *   (printedOutputGrids) are candidates; the largest that is not noise and looks like a
 *   schedule is kept; if none does, the grid is discarded with the spec's 'Parsed output
 *   ignored (not a schedule)' (or ours, when every candidate was a debug log).
 * Output cut at the 100 KB cap is not parsed: a table missing its end would be wrong data.
 */
export function gridOfRun(
  result: JsonValue,
  output: string,
  truncated: boolean,
  options: GridOfRunOptions,
): Pick<CodeRunResult, 'grid' | 'grid_discarded'> {
  if (result !== null) {
    const grid = extractGrid(result);
    if (!grid) return {};
    if (looksLikeSolverDebugLog(grid)) return { grid_discarded: discard('solver_debug_log', RESULT_GRID_NOISE_MESSAGE) };
    return { grid };
  }
  if (!options.parsePrintedOutput || truncated) return {};
  const candidates = printedOutputGrids(output);
  if (candidates.length === 0) return {};
  const meaningful = candidates.filter((grid) => !looksLikeSolverDebugLog(grid));
  let kept: CodeRunGrid | undefined;
  for (const grid of meaningful) {
    if (looksLikeSchedule(grid) && (!kept || cells(grid) > cells(kept))) kept = grid;
  }
  if (kept) return { grid: kept };
  return meaningful.length > 0
    ? { grid_discarded: discard('not_a_schedule', PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE) }
    : { grid_discarded: discard('solver_debug_log', PARSED_OUTPUT_NOISE_MESSAGE) };
}

function discard(reason: GridDiscard['reason'], message: string): GridDiscard {
  return { reason, message };
}

function cells(grid: CodeRunGrid): number {
  return grid.rows.length * grid.headers.length;
}

/**
 * The grid extractor of spec 02 §5 for a job's result: JSON text, delimited text (tab, pipe
 * or comma; first line headers of at least 2 columns), a list of lists (letter headers
 * generated), a list of objects (headers are the union of keys, missing cells blank), an
 * object with headers/columns and data/rows, or a dict of column lists. Anything else
 * (scalars included) yields no grid: the result stays as it is.
 */
export function extractGrid(result: JsonValue): CodeRunGrid | undefined {
  if (typeof result === 'string') return fromText(result);
  if (Array.isArray(result)) return fromArray(result);
  if (result !== null && typeof result === 'object') return fromObject(result);
  return undefined;
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A cell as a sheet stores it: nested values become their JSON text. */
function toCell(value: JsonValue | undefined): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return JSON.stringify(value).slice(0, CELL_MAX_LENGTH);
  if (typeof value === 'string') return value.slice(0, CELL_MAX_LENGTH);
  return value;
}

/** Rows padded with blanks or trimmed to the header width (§5). */
function fit(row: readonly JsonValue[], width: number): CellValue[] {
  const out: CellValue[] = [];
  for (let i = 0; i < width; i++) out.push(toCell(row[i]));
  return out;
}

function fromArray(items: JsonValue[]): CodeRunGrid | undefined {
  if (items.length === 0) return undefined;
  if (items.every(Array.isArray)) {
    const lists = items as JsonValue[][];
    const width = longest(lists);
    if (width === 0) return undefined;
    return {
      headers: Array.from({ length: width }, (_, i) => columnLabel(i)),
      rows: lists.map((row) => fit(row, width)),
      source: 'list_of_lists',
    };
  }
  if (items.every(isObject)) {
    const objects = items as JsonObject[];
    const headers = unionOfKeys(objects);
    if (headers.length === 0) return undefined;
    return { headers, rows: objects.map((o) => headers.map((h) => toCell(o[h]))), source: 'list_of_objects' };
  }
  return undefined;
}

/** The longest list's length, by a loop: Math.max(...lengths) overflows the call stack past ~120,000 rows. */
function longest(lists: readonly (readonly unknown[])[]): number {
  let most = 0;
  for (const list of lists) most = Math.max(most, list.length);
  return most;
}

function unionOfKeys(objects: readonly JsonObject[]): string[] {
  const keys = new Set<string>();
  for (const o of objects) for (const key of Object.keys(o)) keys.add(key);
  return [...keys];
}

function fromObject(value: JsonObject): CodeRunGrid | undefined {
  const headers = value.headers ?? value.columns;
  const data = value.data ?? value.rows;
  if (Array.isArray(headers) && Array.isArray(data)) {
    const names = headers.map((h) => (typeof h === 'string' ? h : JSON.stringify(h)));
    const rows = data.map((row) =>
      Array.isArray(row) ? fit(row, names.length) : isObject(row) ? names.map((h) => toCell(row[h])) : fit([row], names.length),
    );
    return { headers: names, rows, source: 'headers_and_rows' };
  }
  // {column: [values...]}: pandas' to_dict('list') shape, common in plain Python too.
  const columns = Object.entries(value);
  if (columns.length > 0 && columns.every(([, v]) => Array.isArray(v))) {
    const lists = columns.map(([, v]) => v as JsonValue[]);
    const height = longest(lists);
    const rows = Array.from({ length: height }, (_, r) => lists.map((l) => toCell(l[r])));
    return { headers: columns.map(([k]) => k), rows, source: 'columns_dict' };
  }
  return undefined;
}

function fromText(text: string): CodeRunGrid | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(trimmed) as JsonValue;
    } catch {
      parsed = null;
    }
    if (parsed !== null && typeof parsed === 'object') {
      const grid = Array.isArray(parsed) ? fromArray(parsed) : fromObject(parsed);
      return grid && { ...grid, source: 'json_text' };
    }
  }
  return fromDelimited(trimmed);
}

/** Markdown-style separator lines (|---|:--:|) carry no data. */
const SEPARATOR_LINE = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/;

type Delimiter = '\t' | '|' | ',';

/** The first line decides: tab, else pipe, else comma (spec 02 §5). */
function delimiterOf(line: string): Delimiter | undefined {
  return line.includes('\t') ? '\t' : line.includes('|') ? '|' : line.includes(',') ? ',' : undefined;
}

function splitCells(line: string, delimiter: Delimiter): string[] {
  let cells = splitQuoted(line, delimiter).map((c) => c.trim());
  // A pipe table's outer bars leave empty first and last cells.
  if (delimiter === '|') {
    if (cells[0] === '' && line.trim().startsWith('|')) cells = cells.slice(1);
    if (cells[cells.length - 1] === '' && line.trim().endsWith('|')) cells = cells.slice(0, -1);
  }
  return cells;
}

function fromDelimited(text: string): CodeRunGrid | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !SEPARATOR_LINE.test(line.trim()));
  if (lines.length === 0) return undefined;
  const delimiter = delimiterOf(lines[0]);
  if (!delimiter) return undefined;
  const headers = splitCells(lines[0], delimiter);
  if (headers.length < 2) return undefined;
  return {
    headers,
    rows: lines.slice(1).map((line) => fit(splitCells(line, delimiter).map(parseCellText), headers.length)),
    source: 'delimited_text',
  };
}

/** Rules between a printed table's lines: |---|:--:|, +----+----+, ======. */
function isRuleLine(line: string): boolean {
  return /^[\s|+:=-]*$/.test(line) && /-{2,}|={2,}/.test(line);
}

/**
 * The tables in a job's printed output, in the order they appear (spec 02 §5 "Parsing text
 * into a grid"; the filters are gridOfRun's):
 * - a JSON or Python literal starting a line (print(rows), print(json.dumps(rows)), pprint over
 *   several lines), nothing after it on its last line → array_converted: a list of lists whose
 *   first row is the header row (a printed table names its columns first), a list of dicts
 *   (headers the union of keys), an object with headers/columns and data/rows, or a dict of
 *   column lists;
 * - delimited text: a block of consecutive lines, ended by a blank line or a line without the
 *   delimiter, whose first line splits into at least 2 headers on tab, else pipe, else comma
 *   (outside double quotes) → csv_parsed (tab, comma) or table_parsed (pipe); rule lines
 *   (|---|, +---+) are skipped.
 * Each needs at least 2 headers and 1 row; rows are padded or trimmed to the header width and
 * numbers in text become numbers.
 */
export function printedOutputGrids(output: string): CodeRunGrid[] {
  const rawLines = output.split('\n');
  const lines = rawLines.map((line) => line.replace(/\r$/, ''));
  const found: Array<{ at: number; grid: CodeRunGrid }> = [];
  const inLiteral = new Uint8Array(lines.length);

  // Literals first: their lines are no delimited text. A literal that fails to close is not
  // read again from the lines inside it (skipUntil), which keeps this linear in practice.
  let skipUntil = 0;
  for (let i = 0, offset = 0; i < lines.length; offset += rawLines[i].length + 1, i++) {
    const indent = lines[i].length - lines[i].trimStart().length;
    const at = offset + indent;
    const opener = lines[i][indent];
    if (at < skipUntil || (opener !== '[' && opener !== '{')) continue;
    const read = readLiteral(output, at);
    if ('failedAt' in read) {
      skipUntil = read.failedAt;
      continue;
    }
    const lineEnd = output.indexOf('\n', read.end);
    if (output.slice(read.end, lineEnd < 0 ? undefined : lineEnd).trim() !== '') continue;
    const lastLine = i + countNewlines(output, at, read.end);
    inLiteral.fill(1, i, lastLine + 1);
    const grid = literalGrid(read.value);
    if (grid) found.push({ at: i, grid });
    skipUntil = read.end;
  }

  for (let i = 0; i < lines.length; ) {
    const first = lines[i];
    const delimiter = inLiteral[i] || isRuleLine(first) ? undefined : delimiterOf(first);
    const headers = delimiter ? splitCells(first, delimiter) : [];
    if (!delimiter || headers.length < 2) {
      i++;
      continue;
    }
    const rows: CellValue[][] = [];
    let j = i + 1;
    for (; j < lines.length && !inLiteral[j] && lines[j].trim() !== ''; j++) {
      if (isRuleLine(lines[j])) continue;
      if (!lines[j].includes(delimiter)) break;
      rows.push(fit(splitCells(lines[j], delimiter).map(parseCellText), headers.length));
    }
    if (rows.length === 0) {
      i++;
      continue;
    }
    found.push({ at: i, grid: { headers, rows, source: delimiter === '|' ? 'table_parsed' : 'csv_parsed' } });
    i = j;
  }
  return found.sort((a, b) => a.at - b.at).map(({ grid }) => grid);
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A printed literal as a table (see printedOutputGrids), or none. */
function literalGrid(value: LiteralValue): CodeRunGrid | undefined {
  const grid = literalTable(value);
  if (!grid || grid.headers.length < 2 || grid.rows.length === 0) return undefined;
  return grid;
}

function literalTable(value: LiteralValue): CodeRunGrid | undefined {
  const source = 'array_converted';
  if (Array.isArray(value) && value.length >= 2 && value.every(Array.isArray)) {
    const [first, ...rest] = value as LiteralValue[][];
    const headers = first.map(literalHeader);
    return { headers, rows: rest.map((row) => fit(row.map(literalToJson), headers.length)), source };
  }
  if (Array.isArray(value) && value.length > 0 && value.every((item) => item instanceof LiteralDict)) {
    const dicts = value as LiteralDict[];
    const keys = new Set<string>();
    for (const dict of dicts) for (const [key] of dict.entries) keys.add(key);
    const headers = [...keys];
    return { headers, rows: dicts.map((dict) => headers.map((h) => literalCell(dict.get(h)))), source };
  }
  if (!(value instanceof LiteralDict)) return undefined;
  const named = value.get('headers') ?? value.get('columns');
  if (named !== undefined) {
    const grid = fromObject(literalToJson(value) as JsonObject);
    return grid && { ...grid, source };
  }
  // {column: [values…]}, the columns in their printed order.
  if (value.entries.length === 0 || !value.entries.every(([, v]) => Array.isArray(v))) return undefined;
  const lists = value.entries.map(([, v]) => v as LiteralValue[]);
  const height = longest(lists);
  const rows = Array.from({ length: height }, (_, r) => lists.map((l) => literalCell(l[r])));
  return { headers: value.entries.map(([k]) => k), rows, source };
}

function literalHeader(cell: LiteralValue): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell.trim();
  return typeof cell === 'object' ? JSON.stringify(literalToJson(cell)) : String(cell);
}

function literalCell(cell: LiteralValue | undefined): CellValue {
  return toCell(cell === undefined ? undefined : literalToJson(cell));
}

/** Splits on the delimiter outside double quotes ("a, b" stays one cell; "" is a quote). */
function splitQuoted(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell);
  return cells;
}

/** Numbers in text become numbers, as a sheet import reads them. */
function parseCellText(cell: string): JsonValue {
  if (cell === '') return null;
  return /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cell) ? Number(cell) : cell;
}
