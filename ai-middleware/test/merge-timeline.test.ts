// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is a result grid made a proposed version (the api's own tests run on both databases).
// merge_timeline against the real api (its build in its own process, on PGlite or PostgreSQL):
// a hybrid result grid becomes a proposed version of the sheet, made with the user's token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type HybridForwardRequest,
  HybridForwardRequestSchema,
  HybridReplySchema,
  HybridStreamEventSchema,
  MergeTimelineSnapshotSchema,
  SheetHistorySchema,
  SheetSchema,
  SessionListSchema,
  SessionReplySchema,
  SheetVersionSchema,
} from '@tessera/contracts';
import { mergeTarget, mergeTimeline } from '../src/hybrid/merge-timeline.js';
import { readSheetActivity } from '../src/vertex/sheet-activity.js';
import { type RealApi, startRealApi } from './helpers/real-api.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const backend = process.env.TEST_PG_URL ? 'PostgreSQL' : 'PGlite';
const HEADERS = ['Region', 'Amount'];
const ROWS = [
  ['North', 10],
  ['South', 5.5],
  ['East', 1],
];

describe(`merge_timeline: a result grid becomes a proposed version through the real api (${backend})`, () => {
  let api: RealApi;
  let auth: Record<string, string>;
  let sheetId: string;

  const request = (extra: Partial<HybridForwardRequest> = {}): HybridForwardRequest =>
    HybridForwardRequestSchema.parse({
      sheet_context: { id: sheetId, name: 'Sales', version: 1 },
      handsontable_data: { spreadsheet_data: { headers: HEADERS, rows: ROWS } },
      ...extra,
    });
  const history = async () => {
    const res = await fetch(`${api.base}/api/v1/sheets/${sheetId}/history`, { headers: auth });
    assert.equal(res.status, 200);
    return SheetHistorySchema.parse(await res.json());
  };

  before(async () => {
    api = await startRealApi();
    auth = await api.signup('alice');
    const res = await fetch(`${api.base}/api/v1/sheets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sales', headers: HEADERS, data: ROWS }),
    });
    assert.equal(res.status, 201);
    sheetId = SheetSchema.parse(await res.json()).id;
  });
  after(async () => {
    await api?.close();
  });

  test('merge_timeline defaults to true with a sheet id (sheet_id, else sheet_context.id), and false turns it off', () => {
    assert.equal(mergeTarget(request()), sheetId);
    assert.equal(mergeTarget(request({ sheet_id: 'explicit' })), 'explicit');
    assert.equal(mergeTarget(request({ merge_timeline: false })), undefined);
    assert.equal(mergeTarget(HybridForwardRequestSchema.parse({})), undefined);
  });

  test('a grid with the sheet’s headers becomes a proposal by the user, on the version the AI saw; the sheet itself is unchanged', async () => {
    const sorted = [...ROWS].sort((a, b) => Number(a[1]) - Number(b[1]));
    const snapshot = await mergeTimeline({ apiUrl: api.base, authorization: auth.authorization, body: request(), grid: { headers: HEADERS, rows: sorted } });
    assert.ok(snapshot && 'version_id' in snapshot, JSON.stringify(snapshot));
    MergeTimelineSnapshotSchema.parse(snapshot);
    assert.equal(snapshot.sheet_id, sheetId);
    assert.equal(snapshot.status, 'proposed');
    assert.equal(snapshot.base_version, 1);

    const proposal = await fetch(`${api.base}/api/v1/sheets/${sheetId}/versions/${snapshot.version_id}`, { headers: auth });
    assert.equal(proposal.status, 200);
    const version = SheetVersionSchema.parse(await proposal.json());
    assert.equal(version.status, 'proposed');
    assert.deepEqual(version.headers, HEADERS);
    assert.deepEqual(version.rows, sorted);

    const h = await history();
    const entry = h.versions.find((v) => v.version_id === snapshot.version_id);
    assert.equal(entry?.author, 'alice', "the proposal is the token's user's");
    assert.equal(h.live_version, 1, 'a proposal is not applied until accepted');
  });

  test('no proposal for another shape (left to the panel as a new sheet), without a grid, or with merge_timeline false', async () => {
    const before = (await history()).count;
    const totals = { headers: ['Region', 'Total'], rows: [['North', 10]] };
    assert.equal(await mergeTimeline({ apiUrl: api.base, authorization: auth.authorization, body: request(), grid: totals }), undefined);
    assert.equal(await mergeTimeline({ apiUrl: api.base, authorization: auth.authorization, body: request(), grid: undefined }), undefined);
    const same = { headers: HEADERS, rows: ROWS };
    assert.equal(
      await mergeTimeline({ apiUrl: api.base, authorization: auth.authorization, body: request({ merge_timeline: false }), grid: same }),
      undefined,
    );
    assert.equal((await history()).count, before);
  });

  test("the api's refusal comes back as the snapshot's error: an unknown sheet, a version not made yet, another user's bad token", async () => {
    const grid = { headers: HEADERS, rows: ROWS };
    const unknown = crypto.randomUUID();
    const missing = await mergeTimeline({ apiUrl: api.base, authorization: auth.authorization, body: request({ sheet_id: unknown }), grid });
    assert.ok(missing && 'error' in missing);
    assert.equal(missing.sheet_id, unknown);
    assert.match(missing.error, /^HTTP 404: /);

    const ahead = await mergeTimeline({
      apiUrl: api.base,
      authorization: auth.authorization,
      body: request({ sheet_context: { id: sheetId, version: 99 } }),
      grid,
    });
    assert.ok(ahead && 'error' in ahead);
    assert.match(ahead.error, /^HTTP 409: .*Base version 99 does not exist yet/);

    const stranger = await mergeTimeline({ apiUrl: api.base, authorization: 'Bearer not.a.token', body: request(), grid });
    assert.ok(stranger && 'error' in stranger);
    assert.match(stranger.error, /^HTTP 401: /);

    const down = await mergeTimeline({ apiUrl: 'http://127.0.0.1:9', authorization: auth.authorization, body: request(), grid });
    assert.ok(down && 'error' in down);
    assert.match(down.error, /^The api could not be reached/);
  });

  test('a viewer of the sheet gets no proposal (the result is left to the panel as a new sheet); the sheet and its history are unchanged', async () => {
    const bob = await api.viewerOf(auth, sheetId, 'viewer-bob');
    const before = await history();
    const snapshot = await mergeTimeline({ apiUrl: api.base, authorization: bob, body: request(), grid: { headers: HEADERS, rows: [...ROWS].reverse() } });
    assert.equal(snapshot, undefined);
    assert.deepEqual(await history(), before);
  });

  test("a chat's recent activities: the sheet's versions read from the api with the user's token", async () => {
    const { activities, problem } = await readSheetActivity(api.base, sheetId, auth.authorization);
    assert.equal(problem, undefined);
    const lines = activities.map((a) => a.description);
    assert.ok(lines.includes('alice proposed a version (based on version 1)'), lines.join('\n'));
    assert.ok(lines.some((l) => /^alice made version 1 \(.+: the whole sheet\)$/.test(l)), lines.join('\n'));
    const refused = await readSheetActivity(api.base, sheetId, 'Bearer not.a.token');
    assert.deepEqual(refused.activities, []);
    assert.match(refused.problem ?? '', /^HTTP 401: /);
  });

  describe('through POST /hybrid/forward (Direct Exec, the real runner)', () => {
    let t: TestApp;
    let base: string;
    const SORT_CODE = 'result = {"headers": headers, "rows": sorted(rows, key=lambda r: r[1])}';

    before(async () => {
      t = await startTestApp(api.base, { runner: { engine: 'pyodide', timeoutMs: 4000, memoryMb: 256, poolSize: 1 } });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(async () => {
      await t?.close();
    });

    const forward = (body: object, headers: Record<string, string> = {}) =>
      fetch(`${base}/hybrid/forward`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ ...request(), enable_ai_generation: false, code: SORT_CODE, ...body }),
      });

    test('JSON: the sorted sheet comes back with snapshot {sheet_id, version_id} of the new proposal; the turn is stored in its session', async () => {
      const created = await fetch(`${base}/vertex/user-sessions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'create', session_name: 'Sorting' }),
      });
      const sessionId = SessionReplySchema.parse(await created.json()).session.session_id;
      const res = await forward({ session_id: sessionId });
      assert.equal(res.status, 200);
      const reply = HybridReplySchema.parse(await res.json());
      assert.equal(reply.success, true);
      assert.equal(reply.snapshot?.sheet_id, sheetId);
      assert.equal(reply.snapshot?.status, 'proposed');
      const id = reply.snapshot?.version_id;
      assert.ok(id);
      const version = SheetVersionSchema.parse(await (await fetch(`${api.base}/api/v1/sheets/${sheetId}/versions/${id}`, { headers: auth })).json());
      assert.deepEqual(version.rows, [
        ['East', 1],
        ['South', 5.5],
        ['North', 10],
      ]);
      const listed = SessionListSchema.parse(await (await fetch(`${base}/vertex/user-sessions`, { headers: auth })).json()).sessions;
      assert.equal(listed[0].session_id, sessionId);
      assert.equal(listed[0].message_count, 2, 'the code asked and the reply');
    });

    test('SSE: the last event carries the snapshot; merge_timeline false makes none', async () => {
      const res = await forward({}, { accept: 'text/event-stream' });
      const events = (await res.text())
        .split('\n\n')
        .filter((b) => b.startsWith('data: '))
        .map((b) => HybridStreamEventSchema.parse(JSON.parse(b.slice(6))));
      const last = events.at(-1);
      assert.equal(last?.finished, true);
      assert.equal(last?.metadata.response?.snapshot?.sheet_id, sheetId);
      assert.ok(last?.metadata.response?.snapshot && 'version_id' in last.metadata.response.snapshot);

      const before = (await history()).count;
      const off = HybridReplySchema.parse(await (await forward({ merge_timeline: false })).json());
      assert.equal(off.success, true);
      assert.equal(off.snapshot, undefined);
      assert.equal((await history()).count, before);
    });
  });
});
