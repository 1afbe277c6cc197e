// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of forged windows.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { ERROR_CODES, FILTER_BODY_MAX_BYTES, FILTER_COLUMNS_MAX, FILTER_TEXTS_MAX, FIND_LIMIT_MAX, SheetFilterResultSchema, SheetFilterValuesResultSchema, unpackRuns, FIND_QUERY_MAX_CHARS, FindResultSchema, SHEET_ROWS_WINDOW_MAX, SheetRowsSchema, VersionRowsSchema } from '@tessera/contracts';
import { SheetsService } from '../../src/sheets/sheets.service.js';
import { VersionsService } from '../../src/versions/versions.service.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The windows of GET /api/v1/sheets/:id/rows and of GET /api/v1/sheets/:id/versions/:versionId/rows
 * (issue 23) as a client would forge them: anything but a whole number in range for `start` and
 * `count` (and GET /sheets/:id's `window`), a column range (`col_start`, `col_count`) that is not
 * two whole numbers given together within SHEET_MAX_COLUMNS, a version id that is neither a version number nor a
 * uuid, a sheet id that is no uuid, is a 400 naming what is wrong, before any row is read or any
 * version rebuilt, and /health still answers.
 */
describe('hostile: row windows', () => {
  let t: TestApp;
  let api: ApiClient;
  let id: string;
  let token: string;
  /** Window reads started (the services' rowWindow and versionRows), counted around the calls below. */
  const reads = mock.method(SheetsService.prototype, 'rowWindow');
  const versionReads = mock.method(VersionsService.prototype, 'versionRows');
  /** Finds started (GET /sheets/:id/find's scans). */
  const finds = mock.method(SheetsService.prototype, 'find');
  /** Finds in a version started (GET /sheets/:id/versions/:versionId/find's scans). */
  const versionFinds = mock.method(VersionsService.prototype, 'find');
  /** Filter scans started (POST /sheets/:id/filter and /filter/values). */
  const filterScans = [mock.method(SheetsService.prototype, 'filterRows'), mock.method(SheetsService.prototype, 'filterValues')];
  before(async () => {
    t = await createTestApp();
    token = (await signupAdmin(t.app)).accessToken;
    api = apiClient(t.app, token);
    const res = await api.post('/api/v1/sheets', { name: 'Bounds', data: [['a', 1], ['b', 2]] });
    assert.equal(res.statusCode, 201, res.body);
    id = res.json().id;
  });
  after(async () => {
    mock.restoreAll();
    await t.close();
  });

  const START = 'start must be a whole number from 0 to 1048576';
  const COUNT = `count must be a whole number from 1 to ${SHEET_ROWS_WINDOW_MAX}`;
  const COL_START = 'col_start must be a whole number from 0 to 16383';
  const COL_COUNT = 'col_count must be a whole number from 1 to 16384';
  const TOGETHER = 'col_start and col_count go together';
  const COL_SUM = 'col_start + col_count must be at most 16384';

  it('refuses a start or count that is not a whole number in range, reading nothing', async () => {
    const forged: [string, string][] = [
      ['start=-1', START],
      ['start=abc', START],
      ['start=', START],
      ['start=1.5', START],
      ['start=1e3', START],
      ['start=0x10', START],
      ['start=%201', START],
      ['start=1048577', START],
      ['start=99999999999999999999999', START],
      ['start=0&start=1', START],
      ['count=0', COUNT],
      ['count=-5', COUNT],
      ['count=abc', COUNT],
      ['count=', COUNT],
      [`count=${SHEET_ROWS_WINDOW_MAX + 1}`, COUNT],
      ['count=1000000000', COUNT],
      ['count=Infinity', COUNT],
      ['count=NaN', COUNT],
      ['start=0&count=10&count=20', COUNT],
      // A column range (a whole-column read): whole numbers, together, within the sheet's most columns.
      ['col_start=-1&col_count=1', COL_START],
      ['col_start=abc&col_count=1', COL_START],
      ['col_start=&col_count=1', COL_START],
      ['col_start=1.5&col_count=1', COL_START],
      ['col_start=16384&col_count=1', COL_START],
      ['col_start=99999999999999999999999&col_count=1', COL_START],
      ['col_start=0&col_start=1&col_count=1', COL_START],
      ['col_start=0&col_count=0', COL_COUNT],
      ['col_start=0&col_count=-1', COL_COUNT],
      ['col_start=0&col_count=1e3', COL_COUNT],
      ['col_start=0&col_count=16385', COL_COUNT],
      ['col_start=0&col_count=1&col_count=2', COL_COUNT],
      ['col_start=2', TOGETHER],
      ['col_count=2', TOGETHER],
      ['col_start=16000&col_count=385', COL_SUM],
      ['col_start=16383&col_count=16384', COL_SUM],
    ];
    for (const [query, message] of forged) {
      const res = await api.get(`/api/v1/sheets/${id}/rows?${query}`);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.deepEqual(res.json().error.code, ERROR_CODES.validation, query);
      assert.equal(res.json().error.message, message, query);
    }
    assert.equal(reads.mock.callCount(), 0, 'no refused window was read');
    const ok = await api.get(`/api/v1/sheets/${id}/rows?start=1&count=${SHEET_ROWS_WINDOW_MAX}`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(SheetRowsSchema.parse(ok.json()).data, [['b', 2]]);
    assert.equal(reads.mock.callCount(), 1);
    // The last column there can be, asked for: rows with nothing there.
    const edge = await api.get(`/api/v1/sheets/${id}/rows?col_start=16383&col_count=1`);
    assert.equal(edge.statusCode, 200, edge.body);
    assert.deepEqual(SheetRowsSchema.parse(edge.json()).data, [[], []]);
    assert.equal(reads.mock.callCount(), 2);
    // GET /sheets/:id's window (the first rows a windowed open comes with): the same refusals.
    const WINDOW = `window must be a whole number from 1 to ${SHEET_ROWS_WINDOW_MAX}`;
    for (const query of ['window=0', 'window=-1', 'window=abc', 'window=', 'window=1.5', `window=${SHEET_ROWS_WINDOW_MAX + 1}`, 'window=1&window=2']) {
      const res = await api.get(`/api/v1/sheets/${id}?${query}`);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(res.json().error.message, WINDOW, query);
    }
    assert.equal(reads.mock.callCount(), 2, 'no refused window was read');
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });

  it('refuses a forged find, in the sheet or in a version (no text, a huge one, bad numbers, a limit past its bound, a forged version id), scanning nothing and changing nothing', async () => {
    const before = (await api.get(`/api/v1/sheets/${id}`)).json();
    const Q = 'q must be the text to find, given once';
    const LONG = `q must be at most ${FIND_QUERY_MAX_CHARS} characters`;
    const LIMIT = `limit must be a whole number from 1 to ${FIND_LIMIT_MAX}`;
    const AFTER_ROW = 'after_row must be a whole number from 0 to 1048576';
    const forged: [string, string][] = [
      ['', Q],
      ['q=a&q=b', Q],
      ['q=', 'q must not be empty'],
      [`q=${'x'.repeat(FIND_QUERY_MAX_CHARS + 1)}`, LONG],
      [`q=${'%E2%82%AC'.repeat(100_000)}`, LONG],
      ['q=a&limit=0', LIMIT],
      [`q=a&limit=${FIND_LIMIT_MAX + 1}`, LIMIT],
      ['q=a&limit=1e3', LIMIT],
      ['q=a&limit=abc', LIMIT],
      ['q=a&limit=1&limit=2', LIMIT],
      ['q=a&after_row=-1&after_col=0', AFTER_ROW],
      ['q=a&after_row=1.5&after_col=0', AFTER_ROW],
      ['q=a&after_row=99999999999999999999999&after_col=0', AFTER_ROW],
      ['q=a&after_row=1', 'after_row and after_col go together'],
      ['q=a&after_col=abc&after_row=0', 'after_col must be a whole number from 0 to 16384'],
      ['q=a&direction=sideways', 'direction must be next or prev'],
    ];
    // The same bounds in a version (its preview's find), and a version id that is none.
    const paths = [`${id}/find`, `${id}/versions/1/find`];
    for (const path of paths) {
      for (const [query, message] of forged) {
        const res = await api.get(`/api/v1/sheets/${path}?${query}`);
        assert.equal(res.statusCode, 400, `${path} ${query.slice(0, 80)}: ${res.body.slice(0, 300)}`);
        assert.equal(res.json().error.code, ERROR_CODES.validation, query.slice(0, 80));
        assert.match(res.json().error.message, new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), query.slice(0, 80));
      }
    }
    for (const version of ['0', '-1', '99999999999', "1'%3B--", '..%2F..%2Fhealth']) {
      const res = await api.get(`/api/v1/sheets/${id}/versions/${version}/find?q=a`);
      assert.equal(res.statusCode, 400, `${version}: ${res.body.slice(0, 300)}`);
      assert.equal(res.json().error.message, 'Invalid version id', version);
    }
    for (const path of ['not-a-uuid/find?q=a', 'not-a-uuid/versions/1/find?q=a']) {
      const noId = await api.get(`/api/v1/sheets/${path}`);
      assert.equal(noId.statusCode, 400, noId.body);
    }
    assert.equal(finds.mock.callCount(), 0, 'no refused find scanned the sheet');
    assert.equal(versionFinds.mock.callCount(), 0, 'no refused find scanned a version');
    const inVersion = await api.get(`/api/v1/sheets/${id}/versions/1/find?q=B&limit=${FIND_LIMIT_MAX}`);
    assert.equal(inVersion.statusCode, 200, inVersion.body);
    assert.deepEqual(FindResultSchema.parse(inVersion.json()).matches, [[1, 0, 1]]);
    assert.equal(versionFinds.mock.callCount(), 1);
    const ok = await api.get(`/api/v1/sheets/${id}/find?q=B&limit=${FIND_LIMIT_MAX}`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(FindResultSchema.parse(ok.json()).matches, [[1, 0, 1]]);
    assert.equal(finds.mock.callCount(), 1);
    const after = (await api.get(`/api/v1/sheets/${id}`)).json();
    assert.deepEqual([after.version, after.data], [before.version, before.data], 'nothing changed');
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });

  it('refuses a forged find with a row filter on (POST: no text, a huge one, numbers as texts or out of range, a limit past its bound, extra fields), scanning nothing and changing nothing', async () => {
    const before = (await api.get(`/api/v1/sheets/${id}`)).json();
    const started = finds.mock.callCount();
    const LIMIT = `limit must be a whole number from 1 to ${FIND_LIMIT_MAX}`;
    const AFTER_ROW = 'after_row must be a whole number from 0 to 1048576';
    const filters = [{ column: 0, values: { mode: 'except', texts: ['a'] } }];
    const forged: [unknown, string][] = [
      [{ filters }, 'q must be the text to find'],
      [{ q: ['a'], filters }, 'q must be the text to find'],
      [{ q: '', filters }, 'q must not be empty'],
      [{ q: 'x'.repeat(FIND_QUERY_MAX_CHARS + 1), filters }, `q must be at most ${FIND_QUERY_MAX_CHARS} characters`],
      [{ q: 'a' }, 'filters must be a list of column filters'],
      [{ q: 'a', filters, limit: 0 }, LIMIT],
      [{ q: 'a', filters, limit: FIND_LIMIT_MAX + 1 }, LIMIT],
      [{ q: 'a', filters, limit: '5' }, LIMIT],
      [{ q: 'a', filters, limit: 1.5 }, LIMIT],
      [{ q: 'a', filters, after_row: -1, after_col: 0 }, AFTER_ROW],
      [{ q: 'a', filters, after_row: '1', after_col: 0 }, AFTER_ROW],
      [{ q: 'a', filters, after_row: 1e300, after_col: 0 }, AFTER_ROW],
      [{ q: 'a', filters, after_row: 1 }, 'after_row and after_col go together'],
      [{ q: 'a', filters, after_row: 0, after_col: 16_385 }, 'after_col must be a whole number from 0 to 16384'],
      [{ q: 'a', filters, direction: 'sideways' }, 'direction must be next or prev'],
      [{ q: 'a', filters, version: 1 }, 'Unrecognized key: "version"'],
      ['q=a', 'expected object'],
    ];
    for (const [body, message] of forged) {
      const res = await api.post(`/api/v1/sheets/${id}/find`, body);
      const label = JSON.stringify(body).slice(0, 100);
      assert.equal(res.statusCode, 400, `${label}: ${res.body.slice(0, 300)}`);
      assert.equal(res.json().error.code, ERROR_CODES.validation, label);
      assert.ok(res.json().error.message.includes(message), `${label}: ${res.json().error.message}`);
    }
    const noId = await api.post('/api/v1/sheets/not-a-uuid/find', { q: 'a', filters });
    assert.equal(noId.statusCode, 400, noId.body);
    assert.equal(finds.mock.callCount(), started, 'no refused find scanned the sheet');
    // The rows the filter shows only: 'a' hidden, so the one match of [a], [b] in column 0 (an 'a' or 'b' cell) is b's.
    const ok = await api.post(`/api/v1/sheets/${id}/find`, { q: 'B', filters, limit: FIND_LIMIT_MAX });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(FindResultSchema.parse(ok.json()).matches, [[1, 0, 1]]);
    const hidden = await api.post(`/api/v1/sheets/${id}/find`, { q: 'A', filters });
    assert.deepEqual([FindResultSchema.parse(hidden.json()).matches, hidden.json().total], [[], 0]);
    const after = (await api.get(`/api/v1/sheets/${id}`)).json();
    assert.deepEqual([after.version, after.data], [before.version, before.data], 'nothing changed');
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });

  it('refuses a forged window, version id or sheet id, reading nothing', async () => {
    const forged: [string, string][] = [
      [`${id}/versions/1/rows?start=-1`, START],
      [`${id}/versions/1/rows?start=1.5`, START],
      [`${id}/versions/1/rows?start=1e3`, START],
      [`${id}/versions/1/rows?start=99999999999999999999999`, START],
      [`${id}/versions/1/rows?start=0&start=1`, START],
      [`${id}/versions/1/rows?count=0`, COUNT],
      [`${id}/versions/1/rows?count=${SHEET_ROWS_WINDOW_MAX + 1}`, COUNT],
      [`${id}/versions/1/rows?count=Infinity`, COUNT],
      [`${id}/versions/1/rows?count=1&count=2`, COUNT],
      [`${id}/versions/1/rows?summary=yes`, 'summary must be 1'],
      [`${id}/versions/1/rows?col_start=-1&col_count=1`, COL_START],
      [`${id}/versions/1/rows?col_start=0&col_count=16385`, COL_COUNT],
      [`${id}/versions/1/rows?col_start=3`, TOGETHER],
      [`${id}/versions/1/rows?col_start=16000&col_count=1000`, COL_SUM],
      [`${id}/versions/0/rows`, 'Invalid version id'],
      [`${id}/versions/-1/rows`, 'Invalid version id'],
      [`${id}/versions/99999999999/rows`, 'Invalid version id'],
      [`${id}/versions/1'%3B--/rows`, 'Invalid version id'],
      [`${id}/versions/..%2F..%2Fhealth/rows`, 'Invalid version id'],
      ['not-a-uuid/versions/1/rows', 'Invalid sheet id'],
    ];
    for (const [path, message] of forged) {
      const res = await api.get(`/api/v1/sheets/${path}`);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.equal(res.json().error.code, ERROR_CODES.validation, path);
      assert.match(res.json().error.message, new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), path);
    }
    assert.equal(versionReads.mock.callCount(), 0, 'no refused version window was read');
    const ok = await api.get(`/api/v1/sheets/${id}/versions/1/rows?start=1&count=${SHEET_ROWS_WINDOW_MAX}`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(VersionRowsSchema.parse(ok.json()).data, [['b', 2]]);
    assert.equal(versionReads.mock.callCount(), 1);
    // A version's window of one column (its preview's whole-column Copy reads them so).
    const column = await api.get(`/api/v1/sheets/${id}/versions/1/rows?col_start=1&col_count=1`);
    assert.equal(column.statusCode, 200, column.body);
    assert.deepEqual([VersionRowsSchema.parse(column.json()).data, column.json().col_start], [[[1], [2]], 1]);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });
  it('refuses a forged filter (extra fields, bad or repeated columns, too many columns or texts, texts too long, a huge body, a column past the sheet), scanning nothing and changing nothing', async () => {
    const before = (await api.get(`/api/v1/sheets/${id}`)).json();
    const COLUMN = 'column must be a whole number from 0 to 16383';
    const many = (n: number) => Array.from({ length: n }, (_, i) => `${i}`);
    // Each body to both routes (to the values one with column 0); those marked 'values' (a column's values: filters, a column and a bounded search) to that one only.
    const forged: [unknown, string, 'values'?][] = [
      [{}, 'filters must be a list of column filters'],
      [{ filters: 'all' }, 'filters must be a list of column filters'],
      [[], 'expected object, received array'],
      [{ filters: [], sort: 1 }, 'Unrecognized key: "sort"'],
      [{ filters: [{ column: 0, __proto__x: 1 }] }, 'Unrecognized key: "__proto__x"'],
      [{ filters: [{ column: -1 }] }, COLUMN],
      [{ filters: [{ column: 0.5 }] }, COLUMN],
      [{ filters: [{ column: '0' }] }, COLUMN],
      [{ filters: [{ column: 1e300 }] }, COLUMN],
      [{ filters: [{ column: 16_384 }] }, COLUMN],
      [{ filters: [{ column: 1 }, { column: 1 }] }, 'each column may be filtered once'],
      [{ filters: Array.from({ length: FILTER_COLUMNS_MAX + 1 }, (_, c) => ({ column: c })) }, `at most ${FILTER_COLUMNS_MAX} columns may be filtered`],
      [{ filters: [{ column: 0, values: { mode: 'some', texts: [] } }] }, 'values.mode must be only or except'],
      [{ filters: [{ column: 0, values: { mode: 'only', texts: [1] } }] }, 'Invalid input'],
      [{ filters: [{ column: 0, values: { mode: 'only', texts: many(FILTER_TEXTS_MAX + 1) } }] }, `a filter may list at most ${FILTER_TEXTS_MAX} texts`],
      [{ filters: [{ column: 0, values: { mode: 'only', texts: ['x'.repeat(32_768)] } }] }, 'a listed text may be at most 32767 characters'],
      [{ filters: [{ column: 0, values: { mode: 'only', texts: Array.from({ length: 31 }, () => 'x'.repeat(32_767)) } }] }, 'the listed texts may hold at most 1000000 characters together'],
      [{ filters: [{ column: 0, condition: { kind: 'regex', value: '.*' } }] }, 'condition.kind must be one of'],
      [{ filters: [{ column: 0, condition: { kind: 'contains', value: 'x'.repeat(257) } }] }, 'condition.value may be at most 256 characters'],
      [{ filters: [{ column: 0, condition: { kind: 'contains', value: 'a', flags: 'i' } }] }, 'Unrecognized key: "flags"'],
      // The column's values: the same filters, a column and a bounded search.
      [{ filters: [], column: -1 }, COLUMN, 'values'],
      [{ filters: [], column: 0, search: 'x'.repeat(257) }, 'search may be at most 256 characters', 'values'],
      [{ filters: [], column: 0, limit: 10_000 }, 'Unrecognized key: "limit"', 'values'],
      [{ filters: [], column: 0, all: 'yes' }, 'all must be true or false', 'values'],
      [{ filters: [] }, COLUMN, 'values'],
      // A column the sheet does not have (it has 2).
      [{ filters: [], column: 2 }, 'column 2 is not in the sheet (it has 2 columns)', 'values'],
      [{ filters: [{ column: 2 }] }, 'column 2 is not in the sheet (it has 2 columns)'],
    ];
    const findsBefore = finds.mock.callCount();
    for (const [body, message, only] of forged) {
      // The filters of a find with the filter on (POST /sheets/:id/find) too, with a text to find.
      for (const path of only ? ['filter/values'] : ['filter', 'filter/values', 'find']) {
        // To the values route with a column, to find with a text (the body's own fault is then the first found).
        const asObject = !only && typeof body === 'object' && body !== null && !Array.isArray(body);
        const sent = asObject && path === 'filter/values' ? { ...body, column: 0 } : asObject && path === 'find' ? { ...body, q: 'a' } : body;
        const res = await api.post(`/api/v1/sheets/${id}/${path}`, sent);
        const label = `${path} ${JSON.stringify(body).slice(0, 100)}`;
        assert.equal(res.statusCode, 400, `${label}: ${res.body.slice(0, 300)}`);
        assert.equal(res.json().error.code, ERROR_CODES.validation, label);
        assert.ok(res.json().error.message.includes(message), `${label}: ${res.json().error.message}`);
      }
    }
    // A body past FILTER_BODY_MAX_BYTES is refused before it is parsed.
    const huge = await t.app.inject({ method: 'POST', url: `/api/v1/sheets/${id}/filter`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: `{"filters":[{"column":0,"values":{"mode":"only","texts":["${'x'.repeat(FILTER_BODY_MAX_BYTES)}"]}}]}` });
    assert.equal(huge.statusCode, 413, huge.body.slice(0, 300));
    const hugeFind = await t.app.inject({ method: 'POST', url: `/api/v1/sheets/${id}/find`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: `{"q":"a","filters":[{"column":0,"values":{"mode":"only","texts":["${'x'.repeat(FILTER_BODY_MAX_BYTES)}"]}}]}` });
    assert.equal(hugeFind.statusCode, 413, hugeFind.body.slice(0, 300));
    const scanned = filterScans.reduce((n, m) => n + m.mock.callCount(), 0);
    assert.equal(scanned, 3, 'only the columns past the sheet got to the service (refused there before any row is read)');
    assert.equal(finds.mock.callCount() - findsBefore, 1, 'only the find of a column past the sheet got to the service');
    const ok = await api.post(`/api/v1/sheets/${id}/filter`, { filters: [{ column: 0, values: { mode: 'except', texts: ['a'] } }] });
    assert.equal(ok.statusCode, 200, ok.body);
    const shown = SheetFilterResultSchema.parse(ok.json());
    assert.deepEqual([Array.from(unpackRuns(shown.runs, shown.row_count)!), shown.shown, shown.rows], [[1, 1], 1, 2]);
    const values = await api.post(`/api/v1/sheets/${id}/filter/values`, { filters: [], column: 1 });
    assert.deepEqual(SheetFilterValuesResultSchema.parse(values.json()).values, [['1', 1], ['2', 1]]);
    const after = (await api.get(`/api/v1/sheets/${id}`)).json();
    assert.deepEqual([after.version, after.data], [before.version, before.data], 'nothing changed');
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });
});
