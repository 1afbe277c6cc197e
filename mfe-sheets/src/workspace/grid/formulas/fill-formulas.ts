import { columnLabel, isFormula } from '@tessera/contracts';

/**
 * Autofill of formulas on the main thread. Handsontable's Formulas plugin asked HyperFormula
 * (getFillRangeData) to move a filled formula's relative references with it (=A1*2 dragged down
 * becomes =A2*2); HyperFormula now runs in the worker, and the grid's beforeAutofill must answer
 * at once, so the references are moved here.
 */

// An A1 reference: optional $ before the column and the row. Checked for what surrounds it below.
const REFERENCE = /(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})/y;

function columnIndex(letters: string): number {
  let index = 0;
  for (const c of letters.toUpperCase()) index = index * 26 + (c.charCodeAt(0) - 64);
  return index - 1;
}

/** `formula` with its relative references moved by `rows` and `cols` (text in quotes and absolute parts stay); a reference moved off the sheet becomes #REF!. */
export function shiftFormula(formula: string, rows: number, cols: number): string {
  if (rows === 0 && cols === 0) return formula;
  let out = '';
  let i = 0;
  while (i < formula.length) {
    const c = formula[i];
    if (c === '"') {
      // A string literal ("" is a quote inside it): copied as it is.
      let j = i + 1;
      while (j < formula.length && !(formula[j] === '"' && formula[j + 1] !== '"')) j += formula[j] === '"' ? 2 : 1;
      out += formula.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const before = i > 0 ? formula[i - 1] : '';
    REFERENCE.lastIndex = i;
    const m = /[A-Za-z0-9_.]/.test(before) ? null : REFERENCE.exec(formula);
    // Not a reference when more of a name follows (LOG10(, a named expression) or a call.
    const after = m ? formula[i + m[0].length] ?? '' : '';
    if (m && !/[A-Za-z0-9_.(]/.test(after)) {
      const [, colAbs, letters, rowAbs, digits] = m;
      const col = columnIndex(letters) + (colAbs ? 0 : cols);
      const row = Number(digits) - 1 + (rowAbs ? 0 : rows);
      out += col < 0 || row < 0 ? '#REF!' : `${colAbs}${columnLabel(col)}${rowAbs}${row + 1}`;
      i += m[0].length;
      continue;
    }
    // The rest of a name or number: copied up to the next character that may start a reference.
    let j = i + 1;
    if (/[A-Za-z0-9_.]/.test(c)) while (j < formula.length && /[A-Za-z0-9_.]/.test(formula[j])) j++;
    out += formula.slice(i, j);
    i = j;
  }
  return out;
}

interface Corner {
  row: number | null;
  col: number | null;
}
interface Range {
  getTopStartCorner(): Corner;
  getBottomEndCorner(): Corner;
}

const mod = (n: number, m: number) => ((n % m) + m) % m;

/**
 * beforeAutofill: the target range's contents, the source repeated over it as the grid repeats
 * it, each formula's references moved by how far its cell is from the one it repeats. Undefined
 * (the grid's own fill) when the source holds no formula.
 */
export function fillFormulas(source: unknown[][], sourceRange: Range, targetRange: Range): unknown[][] | undefined {
  if (!source.some((row) => row.some(isFormula))) return undefined;
  const { row: fromRow, col: fromCol } = sourceRange.getTopStartCorner();
  const { row: startRow, col: startCol } = targetRange.getTopStartCorner();
  const { row: endRow, col: endCol } = targetRange.getBottomEndCorner();
  const height = source.length;
  const width = source[0]?.length ?? 0;
  if (height === 0 || width === 0 || fromRow === null || fromCol === null || startRow === null || startCol === null || endRow === null || endCol === null) return undefined;
  const from = { row: fromRow, col: fromCol };
  const start = { row: startRow, col: startCol };
  const end = { row: endRow, col: endCol };
  const out: unknown[][] = [];
  for (let row = start.row; row <= end.row; row++) {
    const cells: unknown[] = [];
    for (let col = start.col; col <= end.col; col++) {
      const r = mod(row - from.row, height);
      const c = mod(col - from.col, width);
      const value = source[r]?.[c] ?? null;
      cells.push(isFormula(value) ? shiftFormula(value as string, row - (from.row + r), col - (from.col + c)) : value);
    }
    out.push(cells);
  }
  return out;
}
