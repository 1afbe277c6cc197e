import { columnLabel } from './sheet-name.js';

/*
 * A formula's relative references moved with it, as a copy moves them in every spreadsheet
 * (=A1*2 filled one row down reads =A2*2): the grid's autofill, and rows a sort moves (rows-sort.ts),
 * on the server and in the browser alike.
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
