import type { CellValue } from '@tessera/contracts';
import type { CellDelta } from '../sheets/cell-grid.js';
import { applyDeltas } from './version-rebuild.js';
import { closingQuote } from '../sheets/json-text.js';

/**
 * Where each row's text starts and ends in a chunk's JSON text (an array of arrays), found by
 * scanning characters: several times cheaper than parsing the chunk, and a rebuild only needs
 * the few rows its ops touch.
 */
export function rowSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = closingQuote(text, i);
    } else if (c === 91) {
      depth++;
      if (depth === 2) start = i;
    } else if (c === 93) {
      if (depth === 2) spans.push([start, i + 1]);
      depth--;
    }
  }
  return spans;
}

/**
 * The chunk's text with the deltas replayed on the rows they touch (each cut or padded to
 * `colCount`), every other row kept as stored; undefined when a delta is beyond the chunk's rows
 * (the caller then parses the whole chunk).
 */
export function patchChunkText(
  text: string,
  ops: CellDelta[][],
  direction: 'forward' | 'backward',
  firstRow: number,
  colCount: number,
): string | undefined {
  const spans = rowSpans(text);
  const touched = new Map<number, CellValue[]>();
  for (const deltas of ops) for (const d of deltas) touched.set(d.row - firstRow, []);
  for (const r of touched.keys()) {
    if (r >= spans.length) return undefined;
    touched.set(r, JSON.parse(text.slice(spans[r][0], spans[r][1])) as CellValue[]);
  }
  // Replayed on a sparse view of the chunk: only the touched rows are there.
  const rows: CellValue[][] = [];
  for (const [r, row] of touched) rows[r] = row;
  applyDeltas(rows, ops, direction, firstRow);
  const order = [...touched.keys()].sort((a, b) => a - b);
  const parts: string[] = [];
  let at = 0;
  for (const r of order) {
    const row = rows[r];
    if (row.length > colCount) row.length = colCount;
    while (row.length < colCount) row.push('');
    parts.push(text.slice(at, spans[r][0]), JSON.stringify(row));
    at = spans[r][1];
  }
  parts.push(text.slice(at));
  return parts.join('');
}
