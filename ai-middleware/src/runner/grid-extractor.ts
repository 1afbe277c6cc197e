import { CELL_MAX_LENGTH, type CellValue, type CodeRunGrid, type JsonValue, columnLabel } from '@tessera/contracts';

/**
 * The grid extractor of spec 02 §5 for a job's result: JSON text, delimited text (tab,
 * pipe or comma; first line headers of at least 2 columns), a list of lists (letter
 * headers generated), a list of objects (headers are the union of keys, missing cells
 * blank), an object with headers/columns and data/rows, or a dict of column lists.
 * Anything else (scalars included) yields no grid: the result stays as it is.
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
    const width = Math.max(...lists.map((row) => row.length));
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
    const height = Math.max(...lists.map((l) => l.length));
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

function fromDelimited(text: string): CodeRunGrid | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !SEPARATOR_LINE.test(line.trim()));
  if (lines.length === 0) return undefined;
  const first = lines[0];
  const delimiter = first.includes('\t') ? '\t' : first.includes('|') ? '|' : first.includes(',') ? ',' : undefined;
  if (!delimiter) return undefined;
  const split = (line: string): string[] => {
    let cells = splitQuoted(line, delimiter).map((c) => c.trim());
    // A pipe table's outer bars leave empty first and last cells.
    if (delimiter === '|') {
      if (cells[0] === '' && line.trim().startsWith('|')) cells = cells.slice(1);
      if (cells[cells.length - 1] === '' && line.trim().endsWith('|')) cells = cells.slice(0, -1);
    }
    return cells;
  };
  const headers = split(first);
  if (headers.length < 2) return undefined;
  return {
    headers,
    rows: lines.slice(1).map((line) => fit(split(line).map(parseCellText), headers.length)),
    source: 'delimited_text',
  };
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
