import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { type CellValue, SHEET_MAX_COLUMNS, type SheetSummary } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import type { ExportSource } from './export-source.js';
import { FORMULA_EVALUATION_MAX_CELLS } from './formula-values.js';
import { xlsxStream } from './xlsx-export.js';

const threeColumns = (r: number): CellValue[] => [`row ${r}`, r, '=B1*2'];

/** A stored sheet of `rows` rows (row r's cells from `row`), in CHUNK_ROWS chunks, without held_cells unless given. */
function source(rows: number, row = threeColumns, summaryFields: Partial<SheetSummary> = {}): ExportSource {
  const chunks: string[] = [];
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, rows - start);
    chunks.push(JSON.stringify(Array.from({ length: n }, (_, i) => row(start + i))));
  }
  const headers = row(0).map((_, c) => `h${c}`);
  const summary = { id: 'x', name: 'Stream', version: 1, metadata: { headers }, ...summaryFields } as unknown as SheetSummary;
  return { summary, chunks };
}

async function workbook(src: ExportSource, formulaMaxCells?: number): Promise<XLSX.WorkSheet> {
  const errors: unknown[] = [];
  const parts: Buffer[] = [];
  for await (const part of xlsxStream(src, (err) => errors.push(err), formulaMaxCells)) parts.push(part as Buffer);
  assert.deepEqual(errors, []);
  // sheetStubs: SheetJS skips a cell without a value unless asked.
  return XLSX.read(Buffer.concat(parts), { type: 'buffer', cellFormula: true, sheetStubs: true }).Sheets.Stream;
}

test('the workbook is produced as the reader takes it: whole when read to the end', async () => {
  const errors: unknown[] = [];
  const parts: Buffer[] = [];
  for await (const part of xlsxStream(source(1200), (err) => errors.push(err))) parts.push(part as Buffer);
  assert.deepEqual(errors, []);
  const ws = XLSX.read(Buffer.concat(parts), { type: 'buffer', cellFormula: true }).Sheets.Stream;
  assert.equal(ws.A1201.v, 'row 1199');
  assert.equal(ws.C1201.f, 'B2*2');
  assert.equal(ws.C1201.v, 0);
});

test('a reader that goes away stops the writer: no error escapes, nothing more is produced', async () => {
  const errors: unknown[] = [];
  const src = source(20_000);
  const out = xlsxStream(src, (err) => errors.push(err));
  await once(out, 'data');
  out.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The writer stopped early: most chunks were never read (each is dropped once written).
  assert.ok(src.chunks.filter((c) => c !== null).length > 20, `${src.chunks.filter((c) => c !== null).length} chunks left`);
  assert.deepEqual(errors, []);
});

test('a sheet over 100,000 cells that the grid computes (within its bound of held cells) is written with the values the grid shows', async () => {
  // 26,000 × 4 = 104,000 cells: the file used to cache values only up to 100,000 stored cells.
  const ws = await workbook(source(26_000, (r) => [`item ${r}`, r, 2 * r + 1, `=SUM(B${r + 1}:C${r + 1})`]));
  assert.equal(ws.D2.f, 'SUM(B2:C2)');
  assert.equal(ws.D2.v, 1); // a cell without a cached value reads as 0 here
  assert.equal(ws.D26001.f, 'SUM(B26001:C26001)');
  assert.equal(ws.D26001.v, 3 * 25_999 + 1);
});

test('an operator\'s lower bound (EXPORT_FORMULA_MAX_CELLS) leaves larger sheets\' formulas without values; 0 leaves every one', async () => {
  const sum = (r: number): CellValue[] => [r, 2 * r, `=SUM(A${r + 1}:B${r + 1})`];
  // 400 rows × 3 = 1,200 held cells.
  const within = await workbook(source(400, sum), 1_200);
  assert.equal(within.C401.v, 3 * 399);
  const past = await workbook(source(400, sum), 1_199);
  assert.equal(past.C401.f, 'SUM(A401:B401)');
  assert.notEqual(past.C401.v, 3 * 399);
  const never = await workbook(source(2, sum), 0);
  assert.equal(never.C3.f, 'SUM(A3:B3)');
  assert.notEqual(never.C3.v, 3);
});

test('past the bound of held cells, formulas are written without values, and the file is whole', async () => {
  // Known from the summary (held_cells): no worker runs.
  const told = await workbook(source(3, (r) => [r, `=A${r + 1}+1`], { held_cells: FORMULA_EVALUATION_MAX_CELLS + 1 }));
  assert.equal(told.B2.f, 'A2+1');
  assert.notEqual(told.B2.v, 1); // a stub's value, not the computed one
  assert.equal(told.A4.v, 2);
  // Counted by the worker (a summary without held_cells): rows held out to the last column, as a far cell makes them.
  const rows = Math.floor(FORMULA_EVALUATION_MAX_CELLS / SHEET_MAX_COLUMNS) + 1;
  const far = (r: number): CellValue[] => {
    const row: CellValue[] = new Array<CellValue>(SHEET_MAX_COLUMNS).fill(null);
    row[0] = r;
    row[1] = `=A${r + 1}+1`;
    row[SHEET_MAX_COLUMNS - 1] = 'far';
    return row;
  };
  const src = source(rows, far);
  src.summary.metadata.headers = ['n', 'f'];
  const counted = await workbook(src);
  assert.equal(counted.B2.f, 'A2+1');
  assert.notEqual(counted.B2.v, 1);
  assert.equal(counted[`A${rows + 1}`].v, rows - 1);
});
