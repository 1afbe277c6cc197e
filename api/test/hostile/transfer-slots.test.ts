// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is how many imports and exports a member may have under way.
// Each import holds its upload and each export the sheet's whole text until it is done: a member's
// loop of requests must not hold the api's memory. A third at once is 429 before anything is read.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { TRANSFER_TEXTS, TRANSFERS_PER_USER_MAX } from '@tessera/contracts';
import { signupAdmin, type Session } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('hostile: imports and exports under way per member', () => {
  let t: TestApp;
  let admin: Session;
  let member: Session;
  let sheetId: string;
  const auth = (s: Session) => ({ authorization: `Bearer ${s.accessToken}` });
  const sheetNames = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/sheets', headers: auth(admin) })).json().sheets.map((s: { name: string }) => s.name);

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    member = await signedInMember(t.app, 'user');
    // Formulas: each XLSX export computes them in the one formula worker, so the exports below overlap.
    const data = Array.from({ length: 2_000 }, (_, r) => [r, 2 * r, `=SUM(A${r + 1}:B${r + 1})`]);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sheets', headers: auth(admin), payload: { name: 'Sums', data } });
    assert.equal(created.statusCode, 201, created.body);
    sheetId = created.json().id;
  });
  after(() => t.close());

  const exportBy = (s: Session) => t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}/export?format=xlsx`, headers: auth(s) });

  it(`exports: one more than a member's ${TRANSFERS_PER_USER_MAX} at once is 429 with the text, another member's goes; once they are done the next goes`, async () => {
    const mine = Array.from({ length: TRANSFERS_PER_USER_MAX + 1 }, () => exportBy(admin));
    const theirs = exportBy(member);
    const statuses = (await Promise.all(mine)).map((r) => r.statusCode);
    assert.deepEqual([...statuses].sort(), [200, 200, 429]);
    const refused = (await mine[statuses.indexOf(429)]).json();
    assert.deepEqual(refused.error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('export') });
    assert.equal((await theirs).statusCode, 200);
    assert.equal((await exportBy(admin)).statusCode, 200);
  });

  it('imports: two uploads still arriving hold the slots; a third is 429 before its file is read and adds no sheet; when they end, the next one goes', async () => {
    const boundary = '----tesseraSlots';
    const head = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\r\n1,2\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const importOf = (payload: string | Readable) =>
      t.app.inject({ method: 'POST', url: '/api/v1/import', headers: { ...auth(admin), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });

    // Uploads whose end has not come: each is read (so its request is in the handler) and then waits.
    const held = ['Held one', 'Held two'].map((name) => {
      let reading!: () => void;
      const read = new Promise<void>((resolve) => (reading = resolve));
      const body = new Readable({ read: () => reading() });
      body.push(head(name));
      return { body, read, reply: importOf(body) };
    });
    await Promise.all(held.map((h) => h.read));

    const third = await importOf(head('Third') + tail);
    assert.equal(third.statusCode, 429, third.body);
    assert.deepEqual(third.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('import') });
    assert.ok(!(await sheetNames()).includes('Third'));

    for (const h of held) {
      h.body.push(tail);
      h.body.push(null);
    }
    assert.deepEqual((await Promise.all(held.map((h) => h.reply))).map((r) => r.statusCode), [201, 201]);
    const next = await importOf(head('Next') + tail);
    assert.equal(next.statusCode, 201, next.body);
    assert.ok((await sheetNames()).includes('Next'));
  });
});
