import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { describe, it } from 'node:test';
import * as XLSX from 'xlsx';
import { buildZip, deflatedZeros, workbookParts } from '../../test/support/zip-builder.js';
import { ParseError } from './delimited-text.js';
import { gridOf } from './delimited-text.js';
import { parseWorkbook } from './workbook.js';
import { inflateZip } from './zip-parts.js';

const MB = 1024 * 1024;
const expands = (fn: () => unknown, mb: number) => assert.throws(fn, (err: unknown) => err instanceof ParseError && err.message === `The workbook expands beyond ${mb} MB`);
const sheetXml = (cells: string, dimension = 'A1') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="${dimension}"/><sheetData>${cells}</sheetData></worksheet>`,
  );
const workbook = (xml: Buffer) => buildZip(workbookParts({ data: zlib.deflateRawSync(xml), declaredSize: xml.length }));

describe('zip parts under a budget', () => {
  it('inflates a real workbook, part for part', () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['a', 'b'], [1, 2]]), 'One');
    const parts = inflateZip(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }), MB, 1);
    assert.ok(parts.some((p) => p.name === 'xl/worksheets/sheet1.xml' && p.bytes.toString().includes('<sheetData>')));
  });

  it('refuses declared sizes beyond the budget before inflating anything', () => {
    // Not even deflate data: the central directory alone decides.
    expands(() => inflateZip(buildZip([{ name: 'big.xml', data: Buffer.from('junk'), declaredSize: 3 * MB }]), 2 * MB, 2), 2);
    // The budget is for all parts together.
    const part = (name: string) => ({ name, data: Buffer.from('junk'), declaredSize: MB });
    expands(() => inflateZip(buildZip([part('a.xml'), part('b.xml'), part('c.xml')]), 2 * MB, 2), 2);
  });

  it('stops a part that lies about its size as soon as its output passes the budget', async () => {
    const bomb = buildZip([{ name: 'small.xml', data: await deflatedZeros(5 * MB), declaredSize: 100 }]);
    expands(() => inflateZip(bomb, 2 * MB, 2), 2);
    assert.equal(inflateZip(bomb, 6 * MB, 6)[0].bytes.length, 5 * MB);
  });

  it('refuses what is not a zip with a reason', () => {
    assert.throws(() => inflateZip(Buffer.from('PK\u0003\u0004 and nothing else at all'), MB, 1), /The workbook could not be read: its zip directory is missing/);
  });
});

describe('worksheets against the cell cap', () => {
  it('a <dimension> that claims the whole grid costs only the cells it holds', () => {
    const [sheet] = parseWorkbook(workbook(sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>', 'A1:XFD1048576')), 'xlsx');
    assert.deepEqual(gridOf(sheet), [['x']]);
  });

  it('a far cell is refused by the cap before any row is made; a worksheet at the cap is read', () => {
    const far = sheetXml('<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>');
    assert.throws(
      () => parseWorkbook(workbook(far), 'xlsx'),
      (err: unknown) => (err as { statusCode?: number }).statusCode === 413 && (err as Error).message === 'A sheet can hold at most 10,000,000 cells (this would be 17,179,852,800)',
    );
    // Header row + 100 data rows × 10 columns = 1,000 cells: exactly at a cap of 1,000.
    const rows = Array.from({ length: 101 }, (_, r) => `<row r="${r + 1}">${Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}"><v>${r}</v></c>`).join('')}</row>`).join('');
    assert.equal(parseWorkbook(workbook(sheetXml(rows)), 'xlsx', { maxCells: 1000 })[0].rows, 100);
    const more = rows + `<row r="102"><c r="A102"><v>1</v></c></row>`;
    assert.throws(() => parseWorkbook(workbook(sheetXml(more)), 'xlsx', { maxCells: 1000 }), /A sheet can hold at most 1,000 cells \(this would be 1,010\)/);
  });
});
