import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { CellValue } from '@tessera/contracts';
import { chunkRows, type ExportSource } from './export-source.js';
import { shiftFormulaRows } from './formula-rows.js';
import { isFormulaText, isInsideFormula, loadGridFunctions } from './formula-safety.js';
import { evaluateFormulas, type FormulaValues } from './formula-values.js';

/** XLSX worksheet names: at most 31 characters, none of : \ / ? * [ ]. */
export function worksheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31).trim() || 'Sheet1';
}

type XlsxValue = CellValue | { formula: string; result?: unknown };

/**
 * A grid value as a worksheet cell: a formula the grid evaluates and that stays inside the file
 * is a formula, with the grid's value cached and its rows shifted below the header row; any
 * other formula text (DDE, external references, links, unknown functions, parse errors) is
 * plain text; an empty cell stays blank.
 */
function xlsxCell(value: CellValue, row: number, col: number, values: FormulaValues, gridFunctions: ReadonlySet<string>): XlsxValue {
  if (value === null || value === '') return null;
  if (!isFormulaText(value)) return value;
  if (!isInsideFormula(value, gridFunctions) || !values.parses(row, col)) return value;
  const result = values.result(row, col);
  return result === undefined ? { formula: shiftFormulaRows(value.slice(1), 1) } : { formula: shiftFormulaRows(value.slice(1), 1), result };
}

/** Until the reply has room again (or is gone: a client that went away). */
async function drained(out: PassThrough): Promise<void> {
  if (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
  // Lets the zip writer and other requests run between chunks.
  await new Promise((resolve) => setImmediate(resolve));
}

async function writeWorkbook(source: ExportSource, out: PassThrough, onError: (err: unknown) => void, formulaMaxCells?: number): Promise<void> {
  // Imported on first use: seconds on a busy machine, which every api start would pay otherwise.
  const [{ default: ExcelJS }, gridFunctions] = await Promise.all([import('exceljs'), loadGridFunctions()]);
  const values = await evaluateFormulas(source, onError, formulaMaxCells);
  const headers = source.summary.metadata.headers;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet(worksheetName(source.summary.name));
  sheet.addRow(headers).commit();
  let r = 0;
  for (const rows of chunkRows(source, true)) {
    for (const row of rows) {
      const end = Math.min(row.length, headers.length);
      const cells: XlsxValue[] = new Array(end);
      for (let c = 0; c < end; c++) cells[c] = xlsxCell(row[c], r, c, values, gridFunctions);
      sheet.addRow(cells).commit();
      r++;
    }
    await drained(out);
    if (out.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * A real workbook (one worksheet, header row first), written row by row as the reply takes it:
 * memory holds the stored chunks' text, one parsed chunk and the zip writer's buffers.
 */
export function xlsxStream(source: ExportSource, onError: (err: unknown) => void, formulaMaxCells?: number): Readable {
  const out = new PassThrough();
  writeWorkbook(source, out, onError, formulaMaxCells).catch((err: unknown) => {
    onError(err);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
