import type { CellValue } from '@tessera/contracts';
import { DetailedCellError, ErrorType, HyperFormula } from 'hyperformula';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import { chunkRows, type ExportSource } from './export-source.js';
import { isFormulaText, isInsideFormula } from './formula-safety.js';

/**
 * The engine's settings: those Handsontable's Formulas plugin gives the grid's engine (18.1,
 * plugins/formulas/engine/settings.js), so a file caches the values the grid shows; the
 * licence key of HyperFormula's GPLv3 edition, as the grid passes it.
 */
const GRID_ENGINE_SETTINGS = {
  licenseKey: 'gpl-v3',
  maxRows: Infinity,
  useArrayArithmetic: true,
  useColumnIndex: false,
  useStats: false,
  evaluateNullToZero: true,
  precisionEpsilon: 1e-13,
  precisionRounding: 14,
  smartRounding: true,
  leapYear1900: false,
  nullDate: { year: 1899, month: 12, day: 30 },
  nullYear: 30,
  dateFormats: ['YYYY-MM-DD'],
  timeFormats: ['hh:mm', 'hh:mm:ss', 'hh:mm:ss.sss'],
  matchWholeCell: true,
  useRegularExpressions: false,
  useWildcards: true,
  functionArgSeparator: ',',
  thousandSeparator: '',
  decimalSeparator: '.',
  language: 'enGB',
} as const;

/**
 * Stored cells beyond which a sheet's formulas are written without cached values (LibreOffice
 * and Excel compute them when they open the file). HyperFormula holds the whole sheet and runs
 * on the event loop: measured here at about 850 bytes and 40 µs a cell (100,000 × 10 took
 * 38 s and 850 MB), so 100,000 cells cost about 100 MB and a few seconds, the most one export
 * may spend on it.
 */
export const FORMULA_EVALUATION_MAX_CELLS = 100_000;

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
export function evaluateFormulas(source: ExportSource, onFailure: (err: unknown) => void): FormulaValues {
  let cells = 0;
  let formulas = false;
  for (const rows of chunkRows(source, false)) {
    for (const row of rows) {
      cells += row.length;
      if (!formulas && row.some((v) => isFormulaText(v) && isInsideFormula(v))) formulas = true;
    }
  }
  if (!formulas || cells > FORMULA_EVALUATION_MAX_CELLS) return NOT_EVALUATED;

  const hf = HyperFormula.buildEmpty({ ...GRID_ENGINE_SETTINGS, dateFormats: [...GRID_ENGINE_SETTINGS.dateFormats], timeFormats: [...GRID_ENGINE_SETTINGS.timeFormats] });
  const sheet = hf.getSheetId(hf.addSheet('Sheet1'))!;
  try {
    hf.batch(() => {
      let chunk = 0;
      for (const rows of chunkRows(source, false)) {
        const content = rows.map((row) => row.map((v: CellValue) => (v === '' ? null : v)));
        if (content.length > 0) hf.setCellContents({ sheet, row: chunk * CHUNK_ROWS, col: 0 }, content);
        chunk++;
      }
    });
  } catch (err) {
    // A sheet the engine cannot hold: its formulas go without cached values, as past the cap.
    hf.destroy();
    onFailure(err);
    return NOT_EVALUATED;
  }
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
