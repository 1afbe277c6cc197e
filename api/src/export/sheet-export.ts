import type { CellValue, ExportFormat, GridData, SheetSummary } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { shiftFormulaRows } from './formula-rows.js';

/** §5: a cell with a comma, quote or line break is quoted, its quotes doubled. */
export function csvCell(value: CellValue): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function padded(row: CellValue[] | undefined, width: number): CellValue[] {
  const out = row ? row.slice(0, width) : [];
  while (out.length < width) out.push('');
  return out;
}

export function toCsv(headers: string[], data: GridData): string {
  const width = headers.length;
  const lines = [headers.map(csvCell).join(',')];
  for (const row of data) lines.push(padded(row, width).map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** XLSX worksheet names: at most 31 characters, none of : \ / ? * [ ]. */
function worksheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31).trim() || 'Sheet1';
}

/** A real workbook (one worksheet, header row first). */
/**
 * A grid value as a worksheet cell: a formula stays a formula (its rows shifted below the
 * header row; the application that opens the file computes it), an empty cell stays blank.
 */
function xlsxCell(value: CellValue): CellValue | XLSX.CellObject {
  if (value === null || value === '') return null;
  if (typeof value === 'string' && value.length > 1 && value.startsWith('=')) return { t: 'n', f: shiftFormulaRows(value.slice(1), 1) };
  return value;
}

export function toXlsx(name: string, headers: string[], data: GridData): Buffer {
  const width = headers.length;
  const aoa = [headers, ...data.map((row) => padded(row, width).map(xlsxCell))];
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(aoa, { dense: true }), worksheetName(name));
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** `{name}_{YYYY-MM-DD_HH-mm}.{ext}`: the §9 minute-resolution service file name (UTC). */
export function exportFileName(name: string, format: ExportFormat, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', '_').replace(':', '-');
  return `${name}_${stamp}.${format}`;
}

/** attachment with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function toJson(sheet: SheetSummary, data: GridData): string {
  return JSON.stringify({ id: sheet.id, name: sheet.name, version: sheet.version, headers: sheet.metadata.headers, data, metadata: sheet.metadata });
}
