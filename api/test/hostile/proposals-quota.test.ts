// Issue 17 §1: proposals are stored whole outside the sheet, so one user may keep only
// QUOTA_DEFAULTS.proposalsPerUserPerSheet open (proposed) versions on a sheet; the next is a 429
// with a clear text and nothing is stored. Others, other sheets, and the same user once one is
// accepted or discarded, are not held back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, QUOTA_DEFAULTS, QUOTA_TEXTS, SheetHistorySchema, SheetSchema, SheetVersionEntrySchema } from '@tessera/contracts';
import { signupAdmin } from '../support/auth-helpers.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const MAX = QUOTA_DEFAULTS.proposalsPerUserPerSheet;

describe(`hostile: open proposals per user per sheet (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'})`, () => {
  let t: TestApp;
  let admin: ApiClient;
  let member: ApiClient;
  before(async () => {
    t = await createTestApp();
    admin = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    member = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
  });
  after(() => t.close());

  const createSheet = async () => {
    const res = await admin.post('/api/v1/sheets', { name: `Quota ${Math.random()}`, data: [['a', 'b']] });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const propose = (client: ApiClient, sheetId: string, value: string) =>
    client.post(`/api/v1/sheets/${sheetId}/versions`, { changes: [{ row: 0, col: 1, value }] });
  const openProposals = async (sheetId: string) =>
    SheetHistorySchema.parse((await admin.get(`/api/v1/sheets/${sheetId}/history?limit=200`)).json()).versions.filter((v) => v.status === 'proposed');

  it(`one open proposal past the cap (${MAX}) of one user on a sheet is a 429 naming it; nothing is stored; others and a freed place are not held back`, async () => {
    const sheet = await createSheet();
    const made: string[] = [];
    for (let i = 0; i < MAX; i++) {
      const res = await propose(member, sheet.id, `p${i}`);
      assert.equal(res.statusCode, 201, res.body);
      made.push(SheetVersionEntrySchema.parse(res.json()).version_id);
    }
    const refused = await propose(member, sheet.id, 'one too many');
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json(), { error: { code: ERROR_CODES.tooManyRequests, message: QUOTA_TEXTS.proposals(MAX) } });
    assert.equal(refused.json().error.message, `You have ${MAX} open proposals on this sheet, the most one user may keep; accept or discard some first`);
    const open = await openProposals(sheet.id);
    assert.equal(open.length, MAX);

    // Another user on the same sheet, and the same user on another sheet, may still propose.
    assert.equal((await propose(admin, sheet.id, 'admin')).statusCode, 201);
    assert.equal((await propose(member, (await createSheet()).id, 'elsewhere')).statusCode, 201);

    // Discarding one frees a place.
    const discarded = await member.post(`/api/v1/sheets/${sheet.id}/versions/${made[0]}/discard`);
    assert.equal(discarded.statusCode, 200, discarded.body);
    assert.equal((await propose(member, sheet.id, 'after discard')).statusCode, 201);
    assert.equal((await propose(member, sheet.id, 'full again')).statusCode, 429);

    // The sheet itself is untouched by all of it, and the service answers.
    assert.deepEqual(SheetSchema.parse((await admin.get(`/api/v1/sheets/${sheet.id}`)).json()).data, [['a', 'b']]);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
