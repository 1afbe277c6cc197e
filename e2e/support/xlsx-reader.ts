// Reads a downloaded workbook with the same SheetJS the api writes it with: e2e has no
// dependency of its own on it, so it is resolved from api/package.json ("xlsx" there is
// the @e965/xlsx alias of FACTS.md).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A worksheet cell as SheetJS reads it: t type, v value, f formula (without '='). */
export interface XlsxCell {
  t: string;
  v?: unknown;
  f?: string;
}

/** The part of SheetJS used here. */
interface SheetJs {
  read(data: Buffer, options: { type: 'buffer' }): { SheetNames: string[]; Sheets: Record<string, Record<string, unknown>> };
  utils: { sheet_to_json(sheet: unknown, options: { header: 1; raw: true; defval: null }): unknown[][] };
}

const xlsx = createRequire(new URL('../../api/package.json', import.meta.url))('xlsx') as SheetJs;

export interface Workbook {
  sheetNames: string[];
  /** The worksheet's rows as values, empty cells null. */
  rows(sheetName: string): unknown[][];
  /** One cell by its A1 address, undefined when empty. */
  cell(sheetName: string, address: string): XlsxCell | undefined;
}

export function readXlsx(file: string): Workbook {
  const book = xlsx.read(readFileSync(file), { type: 'buffer' });
  const sheet = (name: string) => {
    const found = book.Sheets[name];
    if (!found) throw new Error(`no worksheet "${name}" in ${file} (has ${book.SheetNames.join(', ')})`);
    return found;
  };
  return {
    sheetNames: book.SheetNames,
    rows: (name) => xlsx.utils.sheet_to_json(sheet(name), { header: 1, raw: true, defval: null }),
    cell: (name, address) => sheet(name)[address] as XlsxCell | undefined,
  };
}
