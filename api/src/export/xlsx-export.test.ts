import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import type { SheetSummary } from '@tessera/contracts';
import * as XLSX from 'xlsx';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import type { ExportSource } from './export-source.js';
import { xlsxStream } from './xlsx-export.js';

function source(rows: number): ExportSource {
  const chunks: string[] = [];
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, rows - start);
    chunks.push(JSON.stringify(Array.from({ length: n }, (_, i) => [`row ${start + i}`, start + i, '=B1*2'])));
  }
  const summary = { id: 'x', name: 'Stream', version: 1, metadata: { headers: ['a', 'b', 'c'] } } as unknown as SheetSummary;
  return { summary, chunks };
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
