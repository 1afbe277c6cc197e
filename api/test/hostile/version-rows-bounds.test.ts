// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of forged windows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, SHEET_ROWS_WINDOW_MAX, VersionRowsSchema } from '@tessera/contracts';
import { VersionsService } from '../../src/versions/versions.service.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The window of GET /api/v1/sheets/:id/versions/:versionId/rows (issue 23) as a client would forge
 * it: a start or count that is not a whole number in range, a version id that is neither a version
 * number nor a uuid, a sheet id that is no uuid — each a 400 naming what is wrong, before any
 * version is rebuilt or read, and /health still answers.
 */
describe('hostile: version row windows', () => {
  let t: TestApp;
  let api: ApiClient;
  let id: string;
  /** Version windows read (the service's versionRows), counted around the calls below. */
  let reads = 0;
  const versionRows = VersionsService.prototype.versionRows;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    const res = await api.post('/api/v1/sheets', { name: 'Bounds', data: [['a', 1], ['b', 2]] });
    assert.equal(res.statusCode, 201, res.body);
    id = res.json().id;
    VersionsService.prototype.versionRows = function (...args) {
      reads++;
      return versionRows.apply(this, args);
    };
  });
  after(async () => {
    VersionsService.prototype.versionRows = versionRows;
    await t.close();
  });

  const START = 'start must be a whole number from 0 to 1048576';
  const COUNT = `count must be a whole number from 1 to ${SHEET_ROWS_WINDOW_MAX}`;

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
    assert.equal(reads, 0, 'no refused window was read');
    const ok = await api.get(`/api/v1/sheets/${id}/versions/1/rows?start=1&count=${SHEET_ROWS_WINDOW_MAX}`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(VersionRowsSchema.parse(ok.json()).data, [['b', 2]]);
    assert.equal(reads, 1);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });
});
