import type { CellValue } from '@tessera/contracts';
import type { StoredStructureOp } from './sheet-ops.tables.js';
import { closingQuote } from './json-text.js';
import { restructure } from './structure-op.js';

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * A chunk's text (a JSON array of rows of scalar cells) with columns inserted or removed as
 * restructure() does it (structure-op.ts: a row shorter than the index is left as it is; inserted
 * cells are ''), by scanning characters instead of parsing and serialising: a column op rewrites
 * every chunk of the sheet, and on 100,000 × 26 the parse and serialisation alone took seconds.
 * Undefined when a cell is not a scalar (the caller then parses).
 */
export function spliceColumnsText(text: string, op: StoredStructureOp): string | undefined {
  const { index, count } = op;
  const insert = op.type === 'columns_insert';
  const blanks = '"",'.repeat(count);
  const parts: string[] = [];
  let from = 0;
  let depth = 0;
  let col = 0;
  /** Where a removal in the current row started (-1: none). */
  let cut = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = closingQuote(text, i);
    } else if (c === 91) {
      depth++;
      if (depth > 2) return undefined;
      if (depth === 2) {
        col = 0;
        cut = -1;
        let j = i + 1;
        while (j < text.length && isSpace(text.charCodeAt(j))) j++;
        if (index === 0 && text.charCodeAt(j) !== 93) {
          if (insert) {
            parts.push(text.slice(from, i + 1), blanks);
            from = i + 1;
          } else cut = i + 1;
        }
      }
    } else if (c === 93) {
      if (depth === 2 && cut >= 0) {
        // The row ended inside the removed range: everything from the cut goes.
        parts.push(text.slice(from, cut));
        from = i;
        cut = -1;
      }
      depth--;
    } else if (c === 44 && depth === 2) {
      col++;
      if (col === index) {
        // Cell `index` starts after this comma.
        if (insert) {
          parts.push(text.slice(from, i + 1), blanks);
          from = i + 1;
        } else cut = i;
      } else if (cut >= 0 && col === index + count) {
        parts.push(text.slice(from, cut));
        // From the first cell: the comma after the removed cells goes too; else the one before them went.
        from = index === 0 ? i + 1 : i;
        cut = -1;
      }
    }
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * A chunk's text with column operations applied in order (the ones inserted or removed after the
 * chunk was written: they are not rewritten into every chunk at once, see sheet-store.ts
 * `pendingColumnOps`). Scans the text; parses only a chunk holding a non-scalar cell.
 */
export function applyColumnOps(text: string, ops: readonly StoredStructureOp[]): string {
  for (const op of ops) {
    // restructure's grid change does not depend on the headers or width it is given (any width the op fits).
    text = spliceColumnsText(text, op) ?? JSON.stringify(restructure(JSON.parse(text) as CellValue[][], [], op.index + op.count, op).grid);
  }
  return text;
}
