// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is sparse exports.
// Issue 17 §1: a far cell costs what it holds. A 10 × 10 sheet with one cell written far
// away (within the cell cap) exports without padding every row out to the sheet's width:
// empty rows are empty lines (CSV) or absent (XLSX), and the far value sits in its row and column.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as XLSX from 'xlsx';
import { signupAdmin } from '../support/auth-helpers.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const FAR_ROW = 49_999;
const FAR_COL = 99;

describe('hostile: export of a sparse sheet with one far cell', () => {
  let t: TestApp;
  let api: ApiClient;
  let id: string;
  let version: number;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    const created = await api.post('/api/v1/sheets', { name: 'Sparse', metadata: { rows: 10, columns: 10 } });
    assert.equal(created.statusCode, 201, created.body);
    id = created.json().id;
    const far = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: created.json().version, changes: [{ row: FAR_ROW, col: FAR_COL, value: 'far' }] });
    assert.equal(far.statusCode, 200, far.body);
    version = far.json().version;
  });
  after(() => t.close());

  it('CSV: empty rows are empty lines, not rows of commas; the far value is in its row and column', async () => {
    const res = await api.get(`/api/v1/sheets/${id}/export?format=csv`);
    assert.equal(res.statusCode, 200);
    // Padded to 100 columns it was 50,000 lines of 99 commas (about 5 MB).
    assert.ok(res.rawPayload.length < 200_000, `CSV of ${res.rawPayload.length} bytes`);
    const lines = res.body.split('\r\n');
    assert.equal(lines.length, 1 + FAR_ROW + 1 + 1); // header, rows, the final line break
    assert.equal(lines[1 + FAR_ROW].split(',')[FAR_COL], 'far');
    assert.equal(lines[1 + FAR_ROW].split(',').length, FAR_COL + 1);
    assert.equal(lines[20], '');
  });

  it('XLSX: only what the sheet holds is written; the far value is at its address', async () => {
    const res = await api.get(`/api/v1/sheets/${id}/export?format=xlsx`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.rawPayload.length < 200_000, `XLSX of ${res.rawPayload.length} bytes`);
    const ws = XLSX.read(res.rawPayload, { type: 'buffer' }).Sheets.Sparse;
    assert.equal(ws[XLSX.utils.encode_cell({ r: 1 + FAR_ROW, c: FAR_COL })]?.v, 'far');
  });

  it('JSON: the rows as stored; the far value at data[row][col]', async () => {
    const res = await api.get(`/api/v1/sheets/${id}/export?format=json`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.rawPayload.length < 400_000, `JSON of ${res.rawPayload.length} bytes`);
    const body = res.json();
    assert.equal(body.data.length, FAR_ROW + 1);
    assert.equal(body.data[FAR_ROW][FAR_COL], 'far');
  });

  it('nothing changed and /health answers', async () => {
    assert.equal((await api.get(`/api/v1/sheets/${id}`)).json().version, version);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
