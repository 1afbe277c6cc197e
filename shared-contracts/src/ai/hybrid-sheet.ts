import type { GridData } from '../sheets/sheet.schema.js';
import { sheetCells } from '../shell/sheet-cells.js';
import type { ShellSheet } from '../shell/shell-context.js';
import { hybridCellsRefusal } from './hybrid.schema.js';

/**
 * The open sheet's rows for a /hybrid job (the chat's agent modes, the Code tab's Run on sheet).
 * A sheet past HYBRID_MAX_CELLS is refused here with the route's own text, before its cells are
 * read: a windowed sheet of a million rows would be read through the api only to be refused.
 */
export async function hybridSheetRows(sheet: Pick<ShellSheet, 'getData' | 'loadData' | 'size' | 'headers'>): Promise<GridData> {
  const refusal = hybridCellsRefusal(sheet.size.rows * Math.max(sheet.size.cols, sheet.headers.length));
  if (refusal) throw new Error(refusal);
  return (await sheetCells(sheet)) ?? [];
}
