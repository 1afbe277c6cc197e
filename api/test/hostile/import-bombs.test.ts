// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of zip bombs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as XLSX from 'xlsx';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { buildZip, deflatedZeros, workbookParts, type ZipEntryInput } from '../support/zip-builder.js';

/**
 * .xlsx zip bombs uploaded by a plain member: a part whose declared size is honest but huge, and
 * parts that declare a few bytes and inflate to far more. IMPORT_MAX_EXPANDED_MB (default 200)
 * bounds what the workbook's parts may inflate to, checked on the declared sizes before anything
 * is inflated and on the actual output while inflating: a 400 'The workbook expands beyond 200 MB',
 * nothing stored, and the api still answers /health.
 */

const MB = 1024 * 1024;
const EXPANDS = 'The workbook expands beyond 200 MB';

describe('hostile: .xlsx zip bombs (IMPORT_MAX_EXPANDED_MB = 200)', () => {
  let t: TestApp;
  let member: ApiClient;
  /** 300 MB of zeros, deflated (about 300 KB): the worksheet of every bomb below. */
  let zeros: Buffer;

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    member = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
    zeros = await deflatedZeros(300 * MB);
  });
  after(() => t.close());

  const sheetCount = async (app: FastifyInstance) => (await app.db.selectFrom('sheets').select('id').execute()).length;
  const groupCount = async (app: FastifyInstance) => (await app.db.selectFrom('groups').select('id').execute()).length;

  async function refusedBomb(filename: string, bytes: Buffer): Promise<void> {
    const before = { sheets: await sheetCount(t.app), groups: await groupCount(t.app) };
    const res: LightMyRequestResponse = await member.upload('/api/v1/import', { filename, content: bytes });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json().error, { code: ERROR_CODES.badRequest, message: EXPANDS });
    assert.deepEqual({ sheets: await sheetCount(t.app), groups: await groupCount(t.app) }, before, 'nothing was stored');
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  }

  it('a worksheet that honestly declares 300 MB is refused from the zip directory', async () => {
    const bytes = buildZip(workbookParts({ data: zeros, declaredSize: 300 * MB }));
    assert.ok(bytes.length < MB, `a ${bytes.length}-byte upload`);
    await refusedBomb('honest-bomb.xlsx', bytes);
  });

  it('a worksheet that declares 1 KB and inflates to 300 MB is stopped while inflating', async () => {
    await refusedBomb('lying-bomb.xlsx', buildZip(workbookParts({ data: zeros, declaredSize: 1024 })));
  });

  it('parts that each declare a few bytes and together inflate past the limit are stopped', async () => {
    const third: ZipEntryInput[] = [0, 1, 2].map((i) => ({ name: `xl/media/image${i}.bin`, data: zeros, declaredSize: 10 }));
    const xml = Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>');
    await refusedBomb('many-parts.xlsx', buildZip([...workbookParts({ data: zlib.deflateRawSync(xml), declaredSize: xml.length }), ...third]));
  });

  it('an ordinary workbook still imports after the bombs', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['name', 'amount'], ['rent', 1200]]), 'Budget');
    const res = await member.upload('/api/v1/import', { filename: 'budget.xlsx', content: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) });
    assert.equal(res.statusCode, 201, res.body);
    const sheet = (await member.get(`/api/v1/sheets/${res.json().sheets[0].id}`)).json();
    assert.deepEqual(sheet.data, [['rent', 1200]]);
  });
});

describe('hostile: IMPORT_MAX_EXPANDED_MB lowered to 1', () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp({ importMaxExpandedMb: 1 });
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  it('names the configured limit; a workbook under it imports', async () => {
    const big = buildZip(workbookParts({ data: await deflatedZeros(2 * MB), declaredSize: 100 }));
    const res = await api.upload('/api/v1/import', { filename: 'two-mb.xlsx', content: big });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.message, 'The workbook expands beyond 1 MB');
    const xml = Buffer.from(
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1"><v>7</v></c></row></sheetData></worksheet>',
    );
    const small = await api.upload('/api/v1/import', { filename: 'small.xlsx', content: buildZip(workbookParts({ data: zlib.deflateRawSync(xml), declaredSize: xml.length })) });
    assert.equal(small.statusCode, 201, small.body);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
