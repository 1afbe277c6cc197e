// A cell reference (A1, $B$7, aa10) that is not part of a name, a number (1E5) or a
// function call (LOG10(...)). Sheet-qualified (Sheet1!A1) and range ends (A1:B2) count.
const CELL_REF = /(?<![A-Za-z0-9_.])(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![A-Za-z0-9_(])/g;

/**
 * A formula's row references moved down by `by` rows, as a spreadsheet does when rows
 * are inserted above everything: the grid's row 1 is the first data row, while an
 * exported worksheet has the header row first. Text inside "quotes" is left alone.
 */
export function shiftFormulaRows(formula: string, by: number): string {
  return formula
    .split('"')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(CELL_REF, (_, c$, col, r$, row) => `${c$}${col}${r$}${Number(row) + by}`)))
    .join('"');
}
