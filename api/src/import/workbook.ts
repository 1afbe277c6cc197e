import { type CellValue, IMPORT_MAX_EXPANDED_MB_DEFAULT, SHEET_MAX_CELLS_DEFAULT, sheetSizeError } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { sheetTooLarge } from '../sheets/sheet-size.js';
import { inflateZip } from './zip-parts.js';
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

export interface WorkbookLimits {
  /** SHEET_MAX_CELLS: a worksheet beyond it is a 413. */
  maxCells?: number;
  /** IMPORT_MAX_EXPANDED_MB: what the .xlsx's parts may inflate to, together. */
  maxExpandedMb?: number;
}

/** SheetJS's reader of an unzipped container (exported by the library, absent from its typings). */
const parseZip = (XLSX as unknown as { parse_zip(container: unknown, options: XLSX.ParsingOptions): XLSX.WorkBook }).parse_zip;

const READ_OPTIONS: XLSX.ParsingOptions = { type: 'buffer', dense: true, cellDates: false, cellFormula: true, cellHTML: false };

/**
 * An .xlsx read from parts inflated under the budget (zip-parts.ts): SheetJS gets a container of
 * those very bytes, so it neither inflates anything itself nor reads the zip differently.
 */
function readXlsx(bytes: Uint8Array, maxExpandedMb: number): XLSX.WorkBook {
  const parts = inflateZip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxExpandedMb * 1024 * 1024, maxExpandedMb);
  const container = XLSX.CFB.utils.cfb_new();
  for (const part of parts) XLSX.CFB.utils.cfb_add(container, part.name, part.bytes);
  return parseZip(container, READ_OPTIONS);
}

/**
 * The range a worksheet's cells really use, from its start to its last cell holding something:
 * `!ref` comes from the file's own <dimension>, which may claim far more than it holds.
 */
function usedRange(worksheet: XLSX.WorkSheet): XLSX.Range | null {
  const ref = worksheet['!ref'];
  const data = worksheet['!data'];
  if (!ref || !data) return null;
  const start = XLSX.utils.decode_range(ref).s;
  let lastRow = -1;
  let lastCol = -1;
  data.forEach((cells, r) =>
    cells?.forEach((cell, c) => {
      if (cell === undefined || (cell.v === undefined && cell.f === undefined)) return;
      if (r > lastRow) lastRow = r;
      if (c > lastCol) lastCol = c;
    }),
  );
  if (lastRow < start.r || lastCol < start.c) return null;
  return { s: start, e: { r: lastRow, c: lastCol } };
}

/**
 * Every non-empty worksheet of an .xlsx or .xls file. The container is checked first: SheetJS
 * reads almost any bytes as some format, so a damaged file must not pass as text.
 */
export function parseWorkbook(bytes: Uint8Array, extension: 'xlsx' | 'xls', limits: WorkbookLimits = {}): ParsedWorksheet[] {
  const maxCells = limits.maxCells ?? SHEET_MAX_CELLS_DEFAULT;
  if (bytes.length === 0) throw new ParseError('The file is empty');
  const expected = extension === 'xlsx' ? ZIP_SIGNATURE : OLE_SIGNATURE;
  if (!startsWith(bytes, expected)) {
    throw new ParseError(`The file is not a valid .${extension} workbook (its ${extension === 'xlsx' ? 'ZIP' : 'OLE'} signature is missing)`);
  }
  let workbook: XLSX.WorkBook;
  try {
    workbook = extension === 'xlsx' ? readXlsx(bytes, limits.maxExpandedMb ?? IMPORT_MAX_EXPANDED_MB_DEFAULT) : XLSX.read(bytes, READ_OPTIONS);
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError(`The workbook could not be read: ${(err as Error).message}`);
  }
  const sheets: ParsedWorksheet[] = [];
  for (const name of workbook.SheetNames) {
    const worksheet = workbook.Sheets[name];
    const range = usedRange(worksheet);
    if (!range) continue;
    // Checked before the rows are made (every cell of the range becomes one); the first row may be the header.
    const refused = sheetSizeError(range.e.r - range.s.r, range.e.c - range.s.c + 1, maxCells);
    if (refused) throw sheetTooLarge(refused);
    worksheet['!ref'] = XLSX.utils.encode_range(range);
    const rows = XLSX.utils.sheet_to_json<CellValue[]>(worksheet, { header: 1, raw: true, defval: '', blankrows: true });
    if (rows.length === 0) continue;
    keepFormulas(worksheet, rows);
    try {
      sheets.push({ name, ...toTable(rows, maxCells) });
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
    }
  }
  if (sheets.length === 0) throw new ParseError('The file contains no data');
  return sheets;
}
