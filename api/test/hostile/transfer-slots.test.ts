// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is how many imports, exports, whole sheet reads, copies and restores a member may have under way.
// Each import holds its upload, each export, whole read, copy or restore a sheet's (or version's) whole text until
// it is done: a member's loop of requests must not hold the api's memory. One more at once is 429 before it is read.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SHEET_READ_SLOT_MIN_BYTES, TRANSFER_BOUNDS, TRANSFER_TEXTS, TRANSFERS_PER_USER_MAX } from '@tessera/contracts';
import { lockNames } from '../../src/sheets/sheet-names.js';
import { signupAdmin, type Session } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('hostile: imports, exports, whole sheet reads, copies and restores under way per member', () => {
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
  // Readers that never took their replies: gone before the app closes, whatever a test left.
  const readerSockets: net.Socket[] = [];
  after(async () => {
    for (const socket of readerSockets) socket.destroy();
    await t.close();
  });

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
    // Their bodies are piped in before their handlers run (and take the slots): wait for those.
    for (let i = 0; i < 1_000 && t.app.slots.inUse('import') < 2; i++) await sleep(5);

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

  /**
   * Everything the database would do for others waits until `open` is called: a transaction holds
   * the names lock (a copy takes it) and the sheet's row (a restore writes it) — on PGlite, its one connection.
   */
  const holdDatabase = async () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const done = t.app.db.transaction().execute(async (trx) => {
      await lockNames(trx);
      await trx.selectFrom('sheets').select('id').where('id', '=', sheetId).forUpdate().execute();
      holding();
      await opened;
    });
    await held;
    return async () => {
      open();
      await done;
    };
  };
  const sheetCount = async () => Number((await t.app.db.selectFrom('sheets').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const copyBy = (s: Session) => t.app.inject({ method: 'POST', url: `/api/v1/sheets/${sheetId}/duplicate`, headers: auth(s) });

  it(`sheet copies: one more than a member's ${TRANSFER_BOUNDS['sheet copy'].perUser} under way is 429 with the text before anything is read, and adds no sheet; another member's goes; then the next goes`, async () => {
    await sheetNames(); // a signed-in member's token is checked without the database then
    await t.app.inject({ method: 'GET', url: '/api/v1/sheets', headers: auth(member) });
    const before = await sheetCount();
    const release = await holdDatabase();
    const mine = Array.from({ length: TRANSFER_BOUNDS['sheet copy'].perUser + 1 }, () => copyBy(admin));
    const theirs = copyBy(member);
    // The copies under way wait for the database; the one over the bound is answered at once.
    const refused = await Promise.race(mine);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('sheet copy') });
    await release();
    assert.deepEqual((await Promise.all(mine)).map((r) => r.statusCode).sort(), [201, 201, 429]);
    assert.equal((await theirs).statusCode, 201);
    assert.equal(await sheetCount(), before + 3);
    assert.equal((await copyBy(admin)).statusCode, 201);
  });

  it(`restores: one more than a member's ${TRANSFER_BOUNDS.restore.perUser} under way is 429 with the text and makes no version; then the next goes`, async () => {
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/sheets/${sheetId}/cells`, headers: auth(admin), payload: { base_version: (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}`, headers: auth(admin) })).json().version, changes: [{ row: 0, col: 0, value: 7 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const versionCount = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}/history`, headers: auth(admin) })).json().count;
    const before = await versionCount();
    const restoreBy = (s: Session) => t.app.inject({ method: 'POST', url: `/api/v1/sheets/${sheetId}/versions/1/checkout`, headers: auth(s) });
    const release = await holdDatabase();
    const mine = Array.from({ length: TRANSFER_BOUNDS.restore.perUser + 1 }, () => restoreBy(admin));
    const refused = await Promise.race(mine);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('restore') });
    await release();
    assert.deepEqual((await Promise.all(mine)).map((r) => r.statusCode).sort(), [200, 200, 429]);
    assert.equal(await versionCount(), before + 2);
    assert.equal((await restoreBy(admin)).statusCode, 200);
  });

  it(`saves and proposals: one more than a member's ${TRANSFER_BOUNDS.save.perUser} under way is 429 with the text before its grid is read, and makes no version; then the next goes`, async () => {
    const versionCount = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}/history`, headers: auth(admin) })).json().count;
    const before = await versionCount();
    const live = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}`, headers: auth(admin) })).json().version;
    const base_version = await live();
    const saveBy = (s: Session, value: number, base = base_version) => t.app.inject({ method: 'PUT', url: `/api/v1/sheets/${sheetId}`, headers: auth(s), payload: { base_version: base, data: [[value, 1]] } });
    const release = await holdDatabase();
    const mine = Array.from({ length: TRANSFER_BOUNDS.save.perUser + 1 }, () => saveBy(admin, 5));
    const refused = await Promise.race(mine);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('save') });
    await release();
    assert.deepEqual((await Promise.all(mine)).map((r) => r.statusCode).sort(), [200, 200, 429]);
    assert.equal(await versionCount(), before + 2);
    assert.equal((await saveBy(admin, 6, await live())).statusCode, 200);

    // A proposal holds a whole grid (or its base rebuilt) as a save does: the same bound.
    const proposals = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}/history`, headers: auth(admin) })).json().versions.filter((v: { status: string }) => v.status === 'proposed').length;
    const proposeBy = (s: Session) => t.app.inject({ method: 'POST', url: `/api/v1/sheets/${sheetId}/versions`, headers: auth(s), payload: { data: [[8, 1]] } });
    const releaseAgain = await holdDatabase();
    const proposing = Array.from({ length: TRANSFER_BOUNDS.save.perUser + 1 }, () => proposeBy(admin));
    const refusedProposal = await Promise.race(proposing);
    assert.equal(refusedProposal.statusCode, 429, refusedProposal.body);
    assert.deepEqual(refusedProposal.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('save') });
    await releaseAgain();
    assert.deepEqual((await Promise.all(proposing)).map((r) => r.statusCode).sort(), [201, 201, 429]);
    assert.equal(await proposals(), 2);
  });

  it(`new sheets with a grid of ${SHEET_READ_SLOT_MIN_BYTES} bytes or more take save slots: one more than a member's ${TRANSFER_BOUNDS.save.perUser} under way is 429 and adds no sheet; a small one is not refused`, async () => {
    const before = await sheetCount();
    const large = Array.from({ length: 40 }, () => ['y'.repeat(30_000)]);
    const createBy = (name: string, data: unknown[][]) => t.app.inject({ method: 'POST', url: '/api/v1/sheets', headers: auth(admin), payload: { name, data } });
    const release = await holdDatabase();
    const mine = ['Large 1', 'Large 2', 'Large 3'].map((name) => createBy(name, large));
    const small = createBy('Small', [[1, 2]]);
    const refused = await Promise.race(mine);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.deepEqual(refused.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('save') });
    await release();
    assert.deepEqual((await Promise.all(mine)).map((r) => r.statusCode).sort(), [201, 201, 429]);
    assert.equal((await small).statusCode, 201);
    assert.equal(await sheetCount(), before + 3);
  });

  it(`whole sheet reads: a member's readers that do not take their replies hold ${TRANSFER_BOUNDS['sheet read'].perUser} slots; one more is 429 with the text, a windowed read and another member's go; once the readers are gone, the next goes`, async () => {
    // Over the bound's size, and more than the sockets' buffers take: a reader that reads nothing holds its reply.
    const big = Array.from({ length: 300 }, () => ['x'.repeat(32_000)]);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sheets', headers: auth(admin), payload: { name: 'Big', data: big } });
    assert.equal(created.statusCode, 201);
    const bigId: string = created.json().id;
    assert.ok(created.json().metadata.size >= SHEET_READ_SLOT_MIN_BYTES);
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    // Whole sheets and whole versions: both held until the reader has them.
    const paths = [`/api/v1/sheets/${bigId}`, `/api/v1/sheets/${bigId}?window=500`, `/api/v1/sheets/${bigId}/versions/1`];
    const readers = Array.from({ length: TRANSFER_BOUNDS['sheet read'].perUser }, (_, i) => {
      const socket = net.connect(port, '127.0.0.1');
      readerSockets.push(socket);
      socket.write(`GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.accessToken}\r\n\r\n`);
      // The first bytes say the reply is under way; the rest is never read.
      const started = new Promise<string>((resolve) => socket.once('data', (chunk) => (socket.pause(), resolve(String(chunk).split('\r\n')[0]))));
      return { socket, started };
    });
    assert.deepEqual(await Promise.all(readers.map((r) => r.started)), readers.map(() => 'HTTP/1.1 200 OK'));

    // A cell's history rebuilds the versions that replaced the whole grid: a slot too.
    for (const path of [...paths, `/api/v1/sheets/${bigId}/cells/0/0/history`]) {
      const over = await t.app.inject({ method: 'GET', url: path, headers: auth(admin) });
      assert.equal(over.statusCode, 429, `${path}: ${over.statusCode}`);
      assert.deepEqual(over.json().error, { code: 'too_many_requests', message: TRANSFER_TEXTS.userBusy('sheet read') });
    }
    // A small sheet, and a window of rows, hold little: they go. So does a window of a version not kept yet: it is
    // answered from the chunks holding it; the whole rebuild behind it for the cache waits for one of the member's slots.
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${sheetId}`, headers: auth(admin) })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${bigId}/rows?start=0&count=10`, headers: auth(admin) })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${bigId}/versions/1/rows?start=0&count=10`, headers: auth(admin) })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${bigId}`, headers: auth(member) })).statusCode, 200);

    for (const r of readers) r.socket.destroy();
    // The server hears that its readers are gone on its own time: the next read goes once it has.
    let next = 429;
    for (let i = 0; i < 200 && next === 429; i++) {
      await sleep(10);
      next = (await t.app.inject({ method: 'GET', url: `/api/v1/sheets/${bigId}`, headers: auth(admin) })).statusCode;
    }
    assert.equal(next, 200);
  });
});
