// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the refusal of forged import progress ids.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, IMPORT_PROGRESS_ID_MESSAGE } from '@tessera/contracts';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The progress id of POST /api/v1/import?progress=<uuid> (issue 23) as a client would forge it:
 * anything but one UUID is a 400 with its reason before the upload is read, nothing is stored,
 * and /health still answers.
 */
describe('hostile: import progress ids', () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  const sheets = async () => Number((await t.app.db.selectFrom('sheets').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses a progress id that is not one UUID, storing nothing', async () => {
    const before = await sheets();
    const forged = [
      'not-a-uuid',
      '',
      '../../live',
      `${'a'.repeat(5000)}`,
      '6f1c1a52-6b1e-4c44-9d55-0d1f0c6e2b11&progress=6f1c1a52-6b1e-4c44-9d55-0d1f0c6e2b12',
      '6f1c1a52-6b1e-4c44-9d55-0d1f0c6e2b11%00',
    ];
    for (const id of forged) {
      const url = id.includes('&') ? `/api/v1/import?progress=${id}` : `/api/v1/import?progress=${encodeURIComponent(id)}`;
      const res = await api.upload(url, { filename: 'x.csv', content: 'a,b\n1,2\n' });
      assert.equal(res.statusCode, 400, `${id.slice(0, 60)}: ${res.body}`);
      assert.equal(res.json().error.code, ERROR_CODES.validation);
      assert.match(res.json().error.message, new RegExp(IMPORT_PROGRESS_ID_MESSAGE.replace(/[()]/g, '\\$&')));
    }
    assert.equal(await sheets(), before);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, health.body);
  });
});
