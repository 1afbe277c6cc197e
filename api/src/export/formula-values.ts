import type { CellValue } from '@tessera/contracts';
import { DetailedCellError, ErrorType, HyperFormula } from 'hyperformula';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import { chunkRows, type ExportSource } from './export-source.js';
import { isFormulaText, isInsideFormula } from './formula-safety.js';

/** The licence key of HyperFormula's GPLv3 edition (as the grid passes it). */
const HYPERFORMULA_LICENSE_KEY = 'gpl-v3';

/**
 * Stored cells beyond which a sheet's formulas are written without computed values (the
 * application that opens the file computes them): HyperFormula holds the whole sheet, about
 * what the browser's grid spends on it, and an export must not cost the api more than that.
 */
export const FORMULA_EVALUATION_MAX_CELLS = 2_000_000;

/** Excel's error values; HyperFormula's own (#ERROR! of a parse error, #CYCLE!, #LIC!) are not. */
const EXCEL_ERRORS = new Set(['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#SPILL!']);

/** A formula's computed value, as a workbook caches it; undefined when the file should hold none. */
export type FormulaResult = number | string | boolean | { error: string } | undefined;

export interface FormulaValues {
  /** Whether the grid reads the formula at (row, col) as one (not a parse error): else it is written as text. */
  parses(row: number, col: number): boolean;
  result(row: number, col: number): FormulaResult;
  destroy(): void;
}

/** No evaluation: every inside formula is a formula, none has a cached value. */
const NOT_EVALUATED: FormulaValues = { parses: () => true, result: () => undefined, destroy: () => {} };

/**
 * The grid's values of a sheet's formulas, computed as the grid does (HyperFormula, one sheet,
 * row 1 the first data row), or NOT_EVALUATED when the sheet has no inside formula or is over
 * FORMULA_EVALUATION_MAX_CELLS. Reads (does not release) the source's chunks.
 */
export function evaluateFormulas(source: ExportSource): FormulaValues {
  let cells = 0;
  let formulas = false;
  for (const rows of chunkRows(source, false)) {
    for (const row of rows) {
      cells += row.length;
      if (!formulas && row.some((v) => isFormulaText(v) && isInsideFormula(v))) formulas = true;
    }
  }
  if (!formulas || cells > FORMULA_EVALUATION_MAX_CELLS) return NOT_EVALUATED;

  const hf = HyperFormula.buildEmpty({ licenseKey: HYPERFORMULA_LICENSE_KEY });
  const sheet = hf.getSheetId(hf.addSheet('Sheet1'))!;
  hf.batch(() => {
    let chunk = 0;
    for (const rows of chunkRows(source, false)) {
      const content = rows.map((row) => row.map((v: CellValue) => (v === '' ? null : v)));
      if (content.length > 0) hf.setCellContents({ sheet, row: chunk * CHUNK_ROWS, col: 0 }, content);
      chunk++;
    }
  });
  const value = (row: number, col: number) => hf.getCellValue({ sheet, row, col });
  return {
    parses: (row, col) => {
      const v = value(row, col);
      return !(v instanceof DetailedCellError && v.type === ErrorType.ERROR);
    },
    result: (row, col) => {
      const v = value(row, col);
      if (v instanceof DetailedCellError) return EXCEL_ERRORS.has(v.value) ? { error: v.value } : undefined;
      return v === null ? undefined : v;
    },
    destroy: () => hf.destroy(),
  };
}
