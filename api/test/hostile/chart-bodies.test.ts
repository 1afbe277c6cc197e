// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of bad chart bodies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHART_TEXTS, type ChartOptions, chartsOf, ERROR_CODES, SHEET_MAX_CHARTS, SheetSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Chart bodies as an editor would forge them (issue 20): every one is checked against the
 * contract before anything is read; a refusal is a 400 (404 for a chart that is not there) with
 * its reason, the sheet keeps its version, charts and op log, and /health still answers.
 */

const good: ChartOptions = {
  type: 'column',
  range: { start_row: 0, start_col: 0, end_row: 3, end_col: 1 },
  categories: 'first_column',
  title: 'T',
  x_axis_title: '',
  y_axis_title: '',
  legend: 'none',
  stacked: false,
  box: { row: 0, col: 0, dx: 0, dy: 0, width: 300, height: 200 },
};

async function healthy(app: FastifyInstance): Promise<void> {
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 200, res.body);
}

describe('hostile: chart bodies', () => {
  let t: TestApp;
  let member: ApiClient;
  let sheetId: string;

  const state = async () => {
    const sheet = SheetSchema.parse((await member.get(`/api/v1/sheets/${sheetId}`)).json());
    const ops = await t.app.db.selectFrom('sheet_ops').select('version').where('sheet_id', '=', sheetId).execute();
    return { version: sheet.version, charts: chartsOf(sheet.metadata), extra: sheet.metadata, ops: ops.length };
  };

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    member = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
    const res = await member.post('/api/v1/sheets', { name: 'Target', data: [['a', 1]] });
    assert.equal(res.statusCode, 201, res.body);
    sheetId = res.json().id;
    assert.equal((await member.post(`/api/v1/sheets/${sheetId}/charts`, good)).statusCode, 201);
  });
  after(() => t.close());

  it('malformed bodies are 400 with the reason; nothing is written', async () => {
    const before = await state();
    const chartId = before.charts[0].id;
    const bad: [string, unknown][] = [
      ['no body', undefined],
      ['an array', [good]],
      ['an unknown type', { ...good, type: 'radar' }],
      ['a range that ends before it starts', { ...good, range: { ...good.range, end_row: -1 } }],
      ['a range past the sheet bounds', { ...good, range: { ...good.range, end_col: 16_384 } }],
      ['a fractional row', { ...good, range: { ...good.range, start_row: 0.5 } }],
      ['a huge title', { ...good, title: 'x'.repeat(100_000) }],
      ['a box of 10⁹ pixels', { ...good, box: { ...good.box, width: 1e9 } }],
      ['a script in a number', { ...good, box: { ...good.box, dx: '<script>' } }],
      ['a box anchored past the last row', { ...good, box: { ...good.box, row: 2_000_000 } }],
      ['a box in both forms (pixels and a cell)', { ...good, box: { ...good.box, x: 10, y: 10 } }],
      ['a box in pixels with a script in it', { ...good, box: { x: '<script>', y: 0, width: 300, height: 200 } }],
      ['an extra key (the server picks the id)', { ...good, id: chartId }],
      ['a prototype key', JSON.parse(`{"__proto__": {"polluted": true}, "type": "column"}`)],
      ['stacked as a string', { ...good, stacked: 'yes' }],
      ['a base_version of 0', { ...good, base_version: 0 }],
      ['a fractional base_version', { ...good, base_version: 1.5 }],
      ['a base_version as text', { ...good, base_version: '1; DROP TABLE sheets' }],
    ];
    for (const [what, body] of bad) {
      for (const res of [
        await member.post(`/api/v1/sheets/${sheetId}/charts`, body),
        await member.put(`/api/v1/sheets/${sheetId}/charts/${chartId}`, body),
      ]) {
        assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
        // A prototype key is refused by the JSON parser itself (bad_request), the rest by the contract.
        assert.ok([ERROR_CODES.validation, ERROR_CODES.badRequest].includes(res.json().error.code), what);
        assert.ok(res.json().error.message.length > 0, what);
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(await state(), before);
    await healthy(t.app);
  });

  it('a new chart with no range (null: only a chart whose cells were deleted has none) is 400; nothing is written', async () => {
    const before = await state();
    const res = await member.post(`/api/v1/sheets/${sheetId}/charts`, { ...good, range: null });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.code, ERROR_CODES.validation);
    assert.deepEqual(await state(), before);
    await healthy(t.app);
  });

  it('a base_version ahead of the sheet is 400 with the reason; nothing is written', async () => {
    const before = await state();
    const ahead = { ...good, base_version: before.version + 5 };
    for (const res of [
      await member.post(`/api/v1/sheets/${sheetId}/charts`, ahead),
      await member.put(`/api/v1/sheets/${sheetId}/charts/${before.charts[0].id}`, ahead),
    ]) {
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json().error, { code: ERROR_CODES.validation, message: `base_version ${before.version + 5} is ahead of the sheet (version ${before.version})` });
    }
    assert.deepEqual(await state(), before);
    await healthy(t.app);
  });

  it('a chart id that is not a uuid is 400; one that is not on the sheet is 404 "Chart not found"', async () => {
    const before = await state();
    const notUuid = await member.put(`/api/v1/sheets/${sheetId}/charts/..%2F..%2Fetc`, good);
    assert.equal(notUuid.statusCode, 400, notUuid.body);
    for (const res of [
      await member.put(`/api/v1/sheets/${sheetId}/charts/00000000-0000-4000-8000-000000000009`, good),
      await member.delete(`/api/v1/sheets/${sheetId}/charts/00000000-0000-4000-8000-000000000009`),
    ]) {
      assert.equal(res.statusCode, 404, res.body);
      assert.deepEqual(res.json().error, { code: ERROR_CODES.notFound, message: CHART_TEXTS.notFound });
    }
    assert.deepEqual(await state(), before);
    await healthy(t.app);
  });

  it(`a sheet holds at most ${SHEET_MAX_CHARTS} charts: the next is 400 with the limit, nothing stored`, async () => {
    for (let i = (await state()).charts.length; i < SHEET_MAX_CHARTS; i++) {
      assert.equal((await member.post(`/api/v1/sheets/${sheetId}/charts`, good)).statusCode, 201);
    }
    const before = await state();
    assert.equal(before.charts.length, SHEET_MAX_CHARTS);
    const res = await member.post(`/api/v1/sheets/${sheetId}/charts`, good);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json().error, { code: ERROR_CODES.badRequest, message: CHART_TEXTS.tooMany });
    assert.deepEqual(await state(), before);
    await healthy(t.app);
  });
});
