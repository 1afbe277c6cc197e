import type { CellValue } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { shiftFormulaRows } from '../export/formula-rows.js';
import { type ParsedTable, ParseError, toTable } from './delimited-text.js';

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

export interface ParsedWorksheet extends ParsedTable {
  name: string;
}

/**
 * Formula cells become their formula text instead of their cached value, with row
 * references moved up past the header row (the grid's row 1 is the first data row),
 * so an exported sheet's formulas come back as formulas.
 */
function keepFormulas(worksheet: XLSX.WorkSheet, rows: CellValue[][]) {
  const data = worksheet['!data'];
  if (!data || !worksheet['!ref']) return;
  const start = XLSX.utils.decode_range(worksheet['!ref']).s;
  data.forEach((cells, r) =>
    cells?.forEach((cell, c) => {
      const row = rows[r - start.r];
      if (cell?.f && row && c - start.c >= 0) row[c - start.c] = `=${shiftFormulaRows(cell.f, -(start.r + 1))}`;
    }),
  );
}

/**
 * Every non-empty worksheet of an .xlsx or .xls file. The container is checked first: SheetJS
 * reads almost any bytes as some format, so a damaged file must not pass as text.
 */
export function parseWorkbook(bytes: Uint8Array, extension: 'xlsx' | 'xls'): ParsedWorksheet[] {
  if (bytes.length === 0) throw new ParseError('The file is empty');
  const expected = extension === 'xlsx' ? ZIP_SIGNATURE : OLE_SIGNATURE;
  if (!startsWith(bytes, expected)) {
    throw new ParseError(`The file is not a valid .${extension} workbook (its ${extension === 'xlsx' ? 'ZIP' : 'OLE'} signature is missing)`);
  }
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: 'buffer', dense: true, cellDates: false, cellFormula: true, cellHTML: false });
  } catch (err) {
    throw new ParseError(`The workbook could not be read: ${(err as Error).message}`);
  }
  const sheets: ParsedWorksheet[] = [];
  for (const name of workbook.SheetNames) {
    const worksheet = workbook.Sheets[name];
    const rows = XLSX.utils.sheet_to_json<CellValue[]>(worksheet, { header: 1, raw: true, defval: '', blankrows: true });
    if (rows.length === 0) continue;
    keepFormulas(worksheet, rows);
    try {
      sheets.push({ name, ...toTable(rows) });
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
    }
  }
  if (sheets.length === 0) throw new ParseError('The file contains no data');
  return sheets;
}
