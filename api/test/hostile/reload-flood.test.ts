// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the reload_request bound.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIVE_RELOAD_MIN_INTERVAL_MS, SheetSchema, type Sheet } from '@tessera/contracts';
import { LiveClient, listen } from '../live-client.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * A reload_request makes the api send the whole sheet to everyone on it. Sent in a loop by one
 * member, it made the api read and send sheets without end (one 60-byte frame: a sync of the
 * sheet to every socket). One socket now gets at most one reload per LIVE_RELOAD_MIN_INTERVAL_MS;
 * the requests within the interval are coalesced into one sync at its end (the last one is served).
 */
describe('hostile: reload_request flood', () => {
  let t: TestApp;
  let base: string;
  let api: ApiClient;
  let admin: { accessToken: string; userId: string };
  let bob: { accessToken: string; userId: string };
  const open: LiveClient[] = [];

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    bob = await signedInMember(t.app, 'user');
    api = apiClient(t.app, admin.accessToken);
    base = await listen(t.app);
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  const join = async (sheetId: string, token: string, label: string) => {
    const c = await LiveClient.join(base, sheetId, token, { label });
    open.push(c);
    return c;
  };
  const syncs = (c: LiveClient) => c.frames.filter((f) => f.type === 'sync').length;
  const newSheet = async (): Promise<Sheet> => {
    const res = await api.post('/api/v1/sheets', { name: `Flood ${Math.random().toString(36).slice(2, 8)}`, data: [['a', 'b'], ['c', 'd']] });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const unchangedAndHealthy = async (s: Sheet, ...clients: LiveClient[]) => {
    const now = SheetSchema.parse((await api.get(`/api/v1/sheets/${s.id}`)).json());
    assert.equal(now.version, s.version, 'nothing stored');
    assert.deepEqual(now.data, s.data);
    for (const c of clients) assert.equal(c.frames.filter((f) => f.type === 'error').length, 0, `${c.label}: no error frame`);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  };

  it('200 reload_requests at once: one sync now and one for the rest, to each socket; the sheet is unchanged', async () => {
    const s = await newSheet();
    const flooder = await join(s.id, bob.accessToken, 'flooder');
    const bystander = await join(s.id, admin.accessToken, 'bystander');
    for (let i = 0; i < 200; i++) flooder.send({ type: 'reload_request', sheet_id: s.id });
    // The coalesced request is served at the interval's end: both get the sheet again.
    await bystander.waitFor((f) => (f.filter((x) => x.type === 'sync').length >= 2 ? true : undefined), 'the second sync');
    await flooder.waitFor((f) => (f.filter((x) => x.type === 'sync').length >= 2 ? true : undefined), 'the second sync');
    // Nothing more comes for the 198 others (a further interval of quiet).
    await new Promise((r) => setTimeout(r, LIVE_RELOAD_MIN_INTERVAL_MS * 1.5));
    assert.equal(syncs(bystander), 2);
    assert.equal(syncs(flooder), 2);
    const last = flooder.frames.filter((f) => f.type === 'sync').at(-1)!;
    assert.equal(last.type === 'sync' && last.data.version, s.version);
    await unchangedAndHealthy(s, flooder, bystander);
  });

  it('a reload_request sent again as soon as each sync arrives: at most one sync per interval, however fast the loop', async () => {
    const s = await newSheet();
    const flooder = await join(s.id, bob.accessToken, 'pacer');
    const bystander = await join(s.id, admin.accessToken, 'onlooker');
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      const seen = syncs(flooder);
      flooder.send({ type: 'reload_request', sheet_id: s.id });
      // Waits for the sync it asked for, or 100 ms (then asks again: the loop never waits long).
      await Promise.race([
        flooder.waitFor((f) => (f.filter((x) => x.type === 'sync').length > seen ? true : undefined), 'sync').catch(() => undefined),
        new Promise((r) => setTimeout(r, 100)),
      ]);
    }
    await new Promise((r) => setTimeout(r, LIVE_RELOAD_MIN_INTERVAL_MS * 1.5));
    const intervals = Math.floor((Date.now() - started) / LIVE_RELOAD_MIN_INTERVAL_MS);
    // Without the bound every one of the 30 requests was a sync of the sheet to both sockets.
    assert.ok(syncs(bystander) <= intervals + 1, `${syncs(bystander)} syncs in ${intervals} intervals`);
    assert.ok(syncs(bystander) >= 2, 'the requests are served, coalesced');
    assert.equal(syncs(flooder), syncs(bystander));
    await unchangedAndHealthy(s, flooder, bystander);
  });
});
