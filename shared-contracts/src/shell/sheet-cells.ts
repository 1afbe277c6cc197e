import type { GridData } from '../sheets/sheet.schema.js';
import type { RowRange, SheetReport, ShellSheet } from './shell-context.js';

/**
 * The open sheet's cells now, whichever releases of the shell and mfe-sheets run beside the
 * remote (ops pair remotes of different versions through the manifest): loadData() when the
 * shell forwards it (it reads a windowed sheet through the api, issue 23), else getData() —
 * null before a report, and for a windowed sheet shown by an older mfe-sheets or shell.
 */
export async function sheetCells(sheet: Pick<ShellSheet, 'getData' | 'loadData'>, rows?: RowRange): Promise<GridData | null> {
  if (sheet.loadData) return sheet.loadData(rows);
  const data = sheet.getData();
  return data && rows ? data.slice(rows.start, rows.start + rows.count) : data;
}

/**
 * ShellSheet.loadData() over the report held (null: none yet, or another sheet's): the report's
 * loadData(), else its getData() (a report of an mfe-sheets built before loadData).
 */
export function loadReported(report: SheetReport | null, rows?: RowRange): Promise<GridData | null> {
  if (!report) return Promise.resolve(null);
  return report.loadData ? report.loadData(rows) : sheetCells({ getData: () => report.getData() }, rows);
}
