import { isFormula, shiftFormula } from '@tessera/contracts';

/**
 * Autofill of formulas on the main thread. Handsontable's Formulas plugin asked HyperFormula
 * (getFillRangeData) to move a filled formula's relative references with it (=A1*2 dragged down
 * becomes =A2*2); HyperFormula now runs in the worker, and the grid's beforeAutofill must answer
 * at once, so the references are moved here.
 */

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
