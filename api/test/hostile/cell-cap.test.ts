import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, type Sheet, SheetSchema } from '@tessera/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as XLSX from 'xlsx';
import { buildApp } from '../../src/app.js';
import { LiveClient, listen } from '../live-client.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { buildZip, workbookParts } from '../support/zip-builder.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * One cap on cells per sheet (SHEET_MAX_CELLS, rows × columns) and 16,384 columns, on every path
 * that can grow a sheet, as a plain member would attack it: each refusal is a 413 naming the cap,
 * nothing is stored (no sheet, no version, no cell), and the api still answers /health.
 */

const CAP_TEXT = 'A sheet can hold at most 10,000,000 cells (this would be 17,179,869,184)';

function refused(res: LightMyRequestResponse, message: string, status = 413): void {
  assert.equal(res.statusCode, status, res.body);
  assert.deepEqual(res.json().error, { code: status === 413 ? ERROR_CODES.payloadTooLarge : ERROR_CODES.badRequest, message });
}

async function healthy(app: FastifyInstance): Promise<void> {
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200, res.body);
}

/** What a refused request must leave as it was: the sheet's summary, cells and op log. */
async function state(app: FastifyInstance, api: ApiClient, id: string) {
  const sheet = SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const ops = await app.db.selectFrom('sheet_ops').select('version').where('sheet_id', '=', id).execute();
  return { version: sheet.version, rows: sheet.metadata.rows, columns: sheet.metadata.columns, headers: sheet.metadata.headers, data: sheet.data, ops: ops.length };
}

async function sheetCount(app: FastifyInstance): Promise<number> {
  const rows = await app.db.selectFrom('sheets').select('id').execute();
  return rows.length;
}

function xlsx(rows: unknown[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'One');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' });
}

describe('hostile: the cell cap at its default (10,000,000)', () => {
  let t: TestApp;
  let member: ApiClient;
  let token: string;
  let base: string;
  const open: LiveClient[] = [];
  let sheet: Sheet;

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    const m = await signedInMember(t.app, 'user');
    token = m.accessToken;
    member = apiClient(t.app, token);
    base = await listen(t.app);
    const res = await member.post('/api/v1/sheets', { name: 'Target', data: [['a', 'b'], ['c', 'd']] });
    assert.equal(res.statusCode, 201, res.body);
    sheet = SheetSchema.parse(res.json());
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  it('POST /sheets of 1,048,576 × 16,384 empty cells is a 413 before the grid is allocated', async () => {
    const before = await sheetCount(t.app);
    refused(await member.post('/api/v1/sheets', { metadata: { rows: 1_048_576, columns: 16_384 } }), CAP_TEXT);
    refused(await member.post('/api/v1/sheets', { metadata: { rows: 1, columns: 16_385 } }), 'A sheet can hold at most 16,384 columns (this would be 16,385)');
    // A row 16,384 wide and 700 short rows: 11,468,800 cells in a 50 KB body.
    const wide = [Array(16_384).fill(''), ...Array.from({ length: 699 }, () => [])];
    refused(await member.post('/api/v1/sheets', { data: wide }), 'A sheet can hold at most 10,000,000 cells (this would be 11,468,800)');
    assert.equal(await sheetCount(t.app), before, 'no sheet was stored');
    await healthy(t.app);
  });

  it('PUT with a header wider than 16,384 columns, or data beyond the cap, changes nothing', async () => {
    const before = await state(t.app, member, sheet.id);
    refused(await member.put(`/api/v1/sheets/${sheet.id}`, { headers: Array(16_385).fill('h') }), 'A sheet can hold at most 16,384 columns (this would be 16,385)');
    const wide = [Array(16_384).fill('x'), ...Array.from({ length: 699 }, () => [])];
    refused(await member.put(`/api/v1/sheets/${sheet.id}`, { data: wide, base_version: sheet.version }), 'A sheet can hold at most 10,000,000 cells (this would be 11,468,800)');
    assert.deepEqual(await state(t.app, member, sheet.id), before);
    await healthy(t.app);
  });

  it('PATCH of cell (1048575, 16383) is a 413: no version, no rows grown', async () => {
    const before = await state(t.app, member, sheet.id);
    refused(await member.patch(`/api/v1/sheets/${sheet.id}/cells`, { base_version: before.version, changes: [{ row: 1_048_575, col: 16_383, value: 'far' }] }), CAP_TEXT);
    assert.deepEqual(await state(t.app, member, sheet.id), before);
    const chunks = await t.app.db.selectFrom('sheet_chunks').select('chunk').where('sheet_id', '=', sheet.id).execute();
    assert.equal(chunks.length, 1, 'no chunk was written for the far rows');
    await healthy(t.app);
  });

  it('a live cell op on the far cell gets an error frame naming the op; the edits around it still land', async () => {
    const before = await state(t.app, member, sheet.id);
    const client = await LiveClient.join(base, sheet.id, token, { label: 'member' });
    open.push(client);
    client.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'far-1', type: 'cell_update', position: { row: 1_048_575, column: 16_383 }, value: 'far' } });
    const error = await client.next('error');
    assert.deepEqual(error.data, { code: ERROR_CODES.payloadTooLarge, message: CAP_TEXT, operation_id: 'far-1' });
    assert.deepEqual(await state(t.app, member, sheet.id), before, 'nothing stored, no version raised');

    // Sent together (one group commit): only the far one is refused.
    client.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'near-1', type: 'cell_update', position: { row: 0, column: 0 }, value: 'near' } });
    client.send({
      type: 'operation',
      sheet_id: sheet.id,
      operation: { id: 'far-2', type: 'cells_update', changes: [{ row: 1, col: 1, value: 'ok?' }, { row: 1_048_575, col: 16_383, value: 'far' }] },
    });
    client.send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'near-2', type: 'cell_update', position: { row: 1, column: 0 }, value: 'near too' } });
    const acks = [await client.next('ack'), await client.next('ack')].map((a) => a.data.operation_id).sort();
    assert.deepEqual(acks, ['near-1', 'near-2']);
    const far2 = await client.waitFor((frames) => frames.find((f) => f.type === 'error' && f.data.operation_id === 'far-2'), 'the error of far-2');
    assert.equal(far2.type === 'error' && far2.data.message, CAP_TEXT);
    const after = await state(t.app, member, sheet.id);
    assert.equal(after.version, before.version + 2);
    assert.deepEqual(after.data, [['near', 'b'], ['near too', 'd']], "the refused op's near cell was not written either");
    await healthy(t.app);
  });

  it('a live rows_insert beyond the cap gets an error frame naming the op', async () => {
    // 16 columns × (2 + 1,000,000) rows: under the row limit, over the cell cap.
    const res = await member.post('/api/v1/sheets', { name: 'Sixteen', data: [Array(16).fill('x'), Array(16).fill('y')] });
    const s = SheetSchema.parse(res.json());
    const before = await state(t.app, member, s.id);
    const client = await LiveClient.join(base, s.id, token, { label: 'member' });
    open.push(client);
    client.send({ type: 'operation', sheet_id: s.id, operation: { id: 'rows-1', type: 'rows_insert', index: 1, count: 1_000_000 } });
    const error = await client.next('error');
    assert.deepEqual(error.data, {
      code: ERROR_CODES.payloadTooLarge,
      message: 'A sheet can hold at most 10,000,000 cells (this would be 16,000,032)',
      operation_id: 'rows-1',
    });
    assert.deepEqual(await state(t.app, member, s.id), before);
    await healthy(t.app);
  });

  it('a 2 MB CSV whose first line has 100,000 commas is refused without padding its rows to that width', async () => {
    const before = await sheetCount(t.app);
    const csv = `${','.repeat(100_000)}\n${'1\n'.repeat(950_000)}`;
    assert.ok(csv.length > 2_000_000);
    refused(await member.upload('/api/v1/import', { filename: 'wide.csv', content: csv }), 'A sheet can hold at most 16,384 columns (this would be 100,001)');
    assert.equal(await sheetCount(t.app), before);
    await healthy(t.app);
  });

  it('an XLSX with a cell at XFD1048576 is refused by the cap before its rows are made', async () => {
    const before = await sheetCount(t.app);
    // Hand-built: SheetJS itself would walk all 17 billion cells of the range to write it.
    const xml = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData>' +
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row>' +
        '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is></c></row></sheetData></worksheet>',
    );
    const bytes = buildZip(workbookParts({ data: zlib.deflateRawSync(xml), declaredSize: xml.length }));
    refused(await member.upload('/api/v1/import', { filename: 'far.xlsx', content: bytes }), 'A sheet can hold at most 10,000,000 cells (this would be 17,179,852,800)');
    assert.equal(await sheetCount(t.app), before);
    await healthy(t.app);
  });
});

describe('hostile: the cell cap lowered to 1,000 (SHEET_MAX_CELLS)', () => {
  let t: TestApp;
  let api: ApiClient;
  let token: string;
  let base: string;
  const open: LiveClient[] = [];

  before(async () => {
    t = await createTestApp({ sheetMaxCells: 1000 });
    token = (await signupAdmin(t.app)).accessToken;
    api = apiClient(t.app, token);
    base = await listen(t.app);
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  const create = async (body: object) => {
    const res = await api.post('/api/v1/sheets', body);
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };

  it('a sheet exactly at the cap is accepted, one cell more anywhere is refused', async () => {
    const at = await create({ name: 'At cap', metadata: { rows: 100, columns: 10 } });
    assert.deepEqual([at.metadata.rows, at.metadata.columns], [100, 10]);
    refused(await api.post('/api/v1/sheets', { metadata: { rows: 101, columns: 10 } }), 'A sheet can hold at most 1,000 cells (this would be 1,010)');
    const before = await state(t.app, api, at.id);
    refused(
      await api.patch(`/api/v1/sheets/${at.id}/cells`, { base_version: at.version, changes: [{ row: 100, col: 0, value: 'one row more' }] }),
      'A sheet can hold at most 1,000 cells (this would be 1,010)',
    );
    refused(
      await api.patch(`/api/v1/sheets/${at.id}/cells`, { base_version: at.version, changes: [{ row: 0, col: 10, value: 'one column more' }] }),
      'A sheet can hold at most 1,000 cells (this would be 1,100)',
    );
    // Inside the sheet, edits still land.
    const ok = await api.patch(`/api/v1/sheets/${at.id}/cells`, { base_version: at.version, changes: [{ row: 99, col: 9, value: 'last cell' }] });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().version, before.version + 1);
    await healthy(t.app);
  });

  it('PUT of data beyond the cap changes nothing; PUT of data at the cap is saved', async () => {
    const s = await create({ name: 'Put', data: [['a']] });
    const before = await state(t.app, api, s.id);
    const grid = (rows: number) => Array.from({ length: rows }, () => Array(10).fill('v'));
    refused(await api.put(`/api/v1/sheets/${s.id}`, { data: grid(101) }), 'A sheet can hold at most 1,000 cells (this would be 1,010)');
    assert.deepEqual(await state(t.app, api, s.id), before);
    const res = await api.put(`/api/v1/sheets/${s.id}`, { data: grid(100) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().metadata.rows, 100);
  });

  it('live rows_insert and columns_insert past the cap get error frames; nothing is stored', async () => {
    const s = await create({ name: 'Live at cap', metadata: { rows: 100, columns: 10 } });
    const before = await state(t.app, api, s.id);
    const client = await LiveClient.join(base, s.id, token, { label: 'admin' });
    open.push(client);
    client.send({ type: 'operation', sheet_id: s.id, operation: { id: 'r-1', type: 'rows_insert', index: 0, count: 1 } });
    assert.deepEqual((await client.next('error')).data, {
      code: ERROR_CODES.payloadTooLarge,
      message: 'A sheet can hold at most 1,000 cells (this would be 1,010)',
      operation_id: 'r-1',
    });
    client.send({ type: 'operation', sheet_id: s.id, operation: { id: 'c-1', type: 'columns_insert', index: 10, count: 1 } });
    assert.deepEqual((await client.next('error')).data, {
      code: ERROR_CODES.payloadTooLarge,
      message: 'A sheet can hold at most 1,000 cells (this would be 1,100)',
      operation_id: 'c-1',
    });
    assert.deepEqual(await state(t.app, api, s.id), before);
    // Removing a row makes room for one.
    client.send({ type: 'operation', sheet_id: s.id, operation: { id: 'r-2', type: 'rows_remove', index: 0, count: 1 } });
    client.send({ type: 'operation', sheet_id: s.id, operation: { id: 'r-3', type: 'rows_insert', index: 0, count: 1 } });
    assert.equal((await client.next('ack')).data.operation_id, 'r-2');
    assert.equal((await client.next('ack')).data.operation_id, 'r-3');
    await healthy(t.app);
  });

  it('a CSV whose rows exceed the cap is refused with its exact size; one at the cap is imported', async () => {
    const before = await sheetCount(t.app);
    const csv = (rows: number) => `a,b,c,d,e,f,g,h,i,j\n${'1,2,3,4,5,6,7,8,9,10\n'.repeat(rows)}`;
    refused(await api.upload('/api/v1/import', { filename: 'long.csv', content: csv(50_000) }), 'A sheet can hold at most 1,000 cells (this would be 500,000)');
    assert.equal(await sheetCount(t.app), before);
    const ok = await api.upload('/api/v1/import', { filename: 'at-cap.csv', content: csv(100) });
    assert.equal(ok.statusCode, 201, ok.body);
    const imported = SheetSchema.parse((await api.get(`/api/v1/sheets/${ok.json().sheets[0].id}`)).json());
    assert.deepEqual([imported.metadata.rows, imported.metadata.columns], [100, 10]);
    await healthy(t.app);
  });

  it('an XLSX worksheet beyond the cap is refused; nothing of the workbook is stored', async () => {
    const before = await sheetCount(t.app);
    const rows = [Array.from({ length: 10 }, (_, c) => `h${c}`), ...Array.from({ length: 101 }, (_, r) => Array(10).fill(r))];
    refused(await api.upload('/api/v1/import', { filename: 'big.xlsx', content: xlsx(rows) }), 'A sheet can hold at most 1,000 cells (this would be 1,010)');
    assert.equal(await sheetCount(t.app), before);
    await healthy(t.app);
  });

  it('a proposal beyond the cap is refused before it is stored', async () => {
    const s = await create({ name: 'Proposed', data: [['a']] });
    const grid = Array.from({ length: 101 }, () => Array(10).fill('v'));
    refused(await api.post(`/api/v1/sheets/${s.id}/versions`, { data: grid }), 'A sheet can hold at most 1,000 cells (this would be 1,010)');
    refused(
      await api.post(`/api/v1/sheets/${s.id}/versions`, { changes: [{ row: 1_048_575, col: 0, value: 'far' }] }),
      'A sheet can hold at most 1,000 cells (this would be 1,048,576)',
    );
    const history = (await api.get(`/api/v1/sheets/${s.id}/history`)).json();
    assert.equal(history.versions.filter((v: { status: string }) => v.status === 'proposed').length, 0);
  });
});

describe('hostile: restoring a version made under a higher cap', () => {
  let t: TestApp;
  let lowered: FastifyInstance | undefined;

  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await lowered?.close();
    await t.close();
  });

  it('restore, checkout, accept and duplicate beyond the lowered cap are 413s; a sheet left beyond it is edited inside, not grown', async () => {
    const token = (await signupAdmin(t.app)).accessToken;
    let api = apiClient(t.app, token);
    const big = Array.from({ length: 40 }, (_, r) => Array.from({ length: 40 }, (_, c) => `${r}:${c}`));
    const created = await api.post('/api/v1/sheets', { name: 'Was big', data: big });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    assert.equal((await api.put(`/api/v1/sheets/${id}`, { data: [['small']] })).statusCode, 200);
    const proposal = await api.post(`/api/v1/sheets/${id}/versions`, { data: big });
    assert.equal(proposal.statusCode, 201, proposal.body);
    const stillBig = (await api.post('/api/v1/sheets', { name: 'Still big', data: big })).json().id as string;

    // The operator lowers SHEET_MAX_CELLS to 1,000 and restarts the api on the same data.
    await t.app.close();
    lowered = await buildApp({ ...t.config, sheetMaxCells: 1000 });
    api = apiClient(lowered, token);
    const before = await state(lowered, api, id);
    assert.equal(before.version, 2);
    const text = 'A sheet can hold at most 1,000 cells (this would be 1,600)';
    refused(await api.post(`/api/v1/sheets/${id}/snapshots/1/restore`), text);
    refused(await api.post(`/api/v1/sheets/${id}/versions/1/checkout`), text);
    refused(await api.post(`/api/v1/sheets/${id}/versions/${proposal.json().version_id}/accept`), text);
    assert.deepEqual(await state(lowered, api, id), before);

    const bigBefore = await state(lowered, api, stillBig);
    const sheets = (await lowered.db.selectFrom('sheets').select('id').execute()).length;
    refused(await api.post(`/api/v1/sheets/${stillBig}/duplicate`, {}), text);
    assert.equal((await lowered.db.selectFrom('sheets').select('id').execute()).length, sheets);
    refused(
      await api.patch(`/api/v1/sheets/${stillBig}/cells`, { base_version: bigBefore.version, changes: [{ row: 40, col: 0, value: 'grows' }] }),
      'A sheet can hold at most 1,000 cells (this would be 1,640)',
    );
    assert.deepEqual(await state(lowered, api, stillBig), bigBefore);
    const inside = await api.patch(`/api/v1/sheets/${stillBig}/cells`, { base_version: bigBefore.version, changes: [{ row: 0, col: 0, value: 'edited' }] });
    assert.equal(inside.statusCode, 200, inside.body);
    await healthy(lowered);
  });
});
