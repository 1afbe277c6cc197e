import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CellHistorySchema,
  SheetHistorySchema,
  SheetSchema,
  SheetVersionEntrySchema,
  SheetVersionSchema,
  SnapshotDetailSchema,
  SnapshotListSchema,
  VersionTransitionResultSchema,
} from '@tessera/contracts';
import { captureSnapshot } from '../src/versions/version-recorder.js';
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe(`sheet versions api (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'})`, () => {
  let t: TestApp;
  let api: ApiClient;
  let other: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    other = apiClient(t.app, (await signedInMember(t.app, 'user')).accessToken);
  });
  after(() => t.close());

  const create = async (data: (string | number | null)[][], headers?: string[]) => {
    const res = await api.post('/api/v1/sheets', { name: `S ${Math.random()}`, data, ...(headers ? { headers } : {}) });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const patch = async (client: ApiClient, id: string, base: number, changes: { row: number; col: number; value: string | number | null }[]) => {
    const res = await client.patch(`/api/v1/sheets/${id}/cells`, { base_version: base, changes });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().version as number;
  };

  it('a full snapshot is copied a few chunks per statement (on PGlite the api\'s thread is let go between), and the version read from it is whole', async () => {
    // Three chunks (500 rows each), each written at the next version.
    const s = await create(Array.from({ length: 1201 }, (_, r) => [`a${r}`, r]));
    const v = await patch(api, s.id, s.version, [{ row: 0, col: 0, value: 'x' }, { row: 600, col: 0, value: 'y' }, { row: 1200, col: 1, value: 'z' }]);
    let copies = 0;
    const counted = t.app.db.withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === 'RawNode' && node.sqlFragments.join('').includes('INSERT INTO sheet_snapshot_chunks')) copies++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    await captureSnapshot(counted, s.id, v, 1);
    // One chunk per statement, and the one that finds none left.
    assert.equal(copies, 4);
    const live = SheetSchema.parse((await api.get(`/api/v1/sheets/${s.id}`)).json());
    assert.deepEqual(SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${v}`)).json()).rows, live.data);
  });
  const sheet = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const version = async (id: string, v: string | number) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
    assert.equal(res.statusCode, 200, res.body);
    return SheetVersionSchema.parse(res.json());
  };
  const history = async (id: string, query = '') => SheetHistorySchema.parse((await api.get(`/api/v1/sheets/${id}/history${query}`)).json());
  const error = (res: { statusCode: number; json(): unknown }, status: number) => {
    assert.equal(res.statusCode, status, JSON.stringify(res.json()));
    const body = res.json() as { error: { code: string; message: string } };
    assert.equal(typeof body.error.code, 'string');
    assert.ok(body.error.message.length > 0);
    return body.error;
  };

  it('lists every version with status, author and changed-cell count, and rebuilds any of them', async () => {
    const s = await create([['a', 'b'], ['c', 'd']], ['One', 'Two']);
    const v2 = await patch(api, s.id, 1, [{ row: 0, col: 0, value: 'A' }]);
    const v3 = await patch(other, s.id, v2, [{ row: 1, col: 1, value: 'D' }, { row: 2, col: 0, value: 'new row' }]);
    const put = await api.put(`/api/v1/sheets/${s.id}`, { base_version: v3, data: [['x']], headers: ['Only'] });
    assert.equal(put.statusCode, 200, put.body);
    const h = await history(s.id);
    assert.equal(h.live_version, 4);
    assert.deepEqual(h.versions.map((v) => [v.version_id, v.status, v.delta_cells]), [
      ['4', 'live', 5],
      ['3', 'archived', 2],
      ['2', 'archived', 1],
      ['1', 'archived', null],
    ]);
    assert.equal(h.versions[0].author, 'Admin');
    assert.notEqual(h.versions[1].author, 'Admin');
    assert.deepEqual((await version(s.id, 1)).rows, [['a', 'b'], ['c', 'd']]);
    assert.deepEqual((await version(s.id, 1)).headers, ['One', 'Two']);
    assert.deepEqual((await version(s.id, 3)).rows, [['A', 'b'], ['c', 'D'], ['new row', '']]);
    assert.deepEqual((await version(s.id, 3)).changes, [
      { row: 1, col: 1, old: 'd', new: 'D' },
      { row: 2, col: 0, old: null, new: 'new row' },
    ]);
    const live = await version(s.id, 4);
    assert.deepEqual([live.rows, live.headers, live.status], [[['x']], ['Only'], 'live']);
    const page = await history(s.id, '?limit=2&offset=1');
    assert.deepEqual(page.versions.map((v) => v.version_id), ['3', '2']);
    assert.equal(page.count, 4);
  });

  it('restores a snapshot as a new version, keeping everything in between', async () => {
    const s = await create([['1', '2']]);
    const v2 = await patch(api, s.id, 1, [{ row: 0, col: 0, value: 'one' }]);
    await patch(api, s.id, v2, [{ row: 0, col: 1, value: 'two' }]);
    const res = await api.post(`/api/v1/sheets/${s.id}/snapshots/1/restore`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(VersionTransitionResultSchema.parse(res.json()), { sheet_id: s.id, version: 4, from_version_id: '1' });
    const now = await sheet(s.id);
    assert.equal(now.version, 4);
    assert.equal(now.metadata.lastAIUpdate, undefined);
    assert.deepEqual(now.data, [['1', '2']]);
    assert.deepEqual((await version(s.id, 3)).rows, [['one', 'two']]);
    const h = await history(s.id);
    assert.deepEqual(h.versions.map((v) => [v.version_id, v.status, v.kind]), [
      ['4', 'live', 'restore'],
      ['3', 'archived', 'cells'],
      ['2', 'archived', 'cells'],
      ['1', 'archived', 'create'],
    ]);
    error(await api.post(`/api/v1/sheets/${s.id}/snapshots/4/restore`), 409);
  });

  it('groups runs of one user into Timeline snapshots with their changed-cell counts', async () => {
    const s = await create([['a', 'b']]);
    let v = await patch(api, s.id, 1, [{ row: 0, col: 0, value: 'x' }]);
    v = await patch(api, s.id, v, [{ row: 0, col: 0, value: 'y' }, { row: 0, col: 1, value: 'z' }]);
    v = await patch(other, s.id, v, [{ row: 0, col: 1, value: 'w' }]);
    v = await patch(api, s.id, v, [{ row: 0, col: 1, value: 'b' }]);
    const res = await api.get(`/api/v1/sheets/${s.id}/snapshots?limit=60`);
    assert.equal(res.statusCode, 200, res.body);
    const { snapshots } = SnapshotListSchema.parse(res.json());
    assert.deepEqual(snapshots.map((x) => [x.first_version, x.version, x.delta_cells, x.author === 'Admin']), [
      [5, 5, 1, true],
      [4, 4, 1, false],
      [2, 3, 2, true],
      [1, 1, null, true],
    ]);
    const detail = await api.get(`/api/v1/sheets/${s.id}/snapshots/2`);
    assert.equal(detail.statusCode, 200, detail.body);
    assert.deepEqual(SnapshotDetailSchema.parse(detail.json()).cells, [
      { row: 0, col: 0, old: 'a', new: 'y' },
      { row: 0, col: 1, old: 'b', new: 'z' },
    ]);
    assert.equal(SnapshotDetailSchema.parse((await api.get(`/api/v1/sheets/${s.id}/snapshots/1`)).json()).cells, null);
    error(await api.get(`/api/v1/sheets/${s.id}/snapshots/99`), 404);
    error(await api.get(`/api/v1/sheets/${s.id}/snapshots/abc`), 400);
    const limited = SnapshotListSchema.parse((await api.get(`/api/v1/sheets/${s.id}/snapshots?limit=2`)).json());
    assert.deepEqual(limited.snapshots.map((x) => x.version), [5, 4]);
  });

  it('accepts a proposal as a new live version and archives the previous one', async () => {
    const s = await create([['a', 'b']]);
    const made = await api.post(`/api/v1/sheets/${s.id}/versions`, { changes: [{ row: 0, col: 1, value: 'B' }] });
    assert.equal(made.statusCode, 201, made.body);
    const proposal = SheetVersionEntrySchema.parse(made.json());
    assert.deepEqual([proposal.status, proposal.version, proposal.base_version], ['proposed', null, 1]);
    assert.deepEqual((await version(s.id, proposal.version_id)).rows, [['a', 'B']]);
    // Not applied until accepted.
    assert.deepEqual((await sheet(s.id)).data, [['a', 'b']]);
    const h = await history(s.id);
    assert.deepEqual(h.versions.map((v) => v.status), ['proposed', 'live']);
    const acceptedAt = new Date().toISOString();
    const res = await api.post(`/api/v1/sheets/${s.id}/versions/${proposal.version_id}/accept`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, 2);
    const accepted = await sheet(s.id);
    assert.deepEqual(accepted.data, [['a', 'B']]);
    // A proposal is an AI result: its accept is the sheet's last AI update; a restore is not.
    const lastAIUpdate = String(accepted.metadata.lastAIUpdate);
    assert.ok(lastAIUpdate >= acceptedAt, `${lastAIUpdate} is the accept's time`);
    assert.equal((await sheet((await create([['x']])).id)).metadata.lastAIUpdate, undefined);
    assert.deepEqual((await history(s.id)).versions.map((v) => [v.version_id, v.status, v.kind]), [
      ['2', 'live', 'accept'],
      ['1', 'archived', 'create'],
    ]);
    // Gone once accepted.
    error(await api.post(`/api/v1/sheets/${s.id}/versions/${proposal.version_id}/accept`), 404);
  });

  it('merges a proposal made on an older version with the edits since, cell by cell', async () => {
    const s = await create([['a', 'b']]);
    const proposal = (await api.post(`/api/v1/sheets/${s.id}/versions`, { base_version: 1, data: [['a', 'proposed']] })).json();
    await patch(other, s.id, 1, [{ row: 0, col: 0, value: 'edited meanwhile' }]);
    const res = await api.post(`/api/v1/sheets/${s.id}/versions/${proposal.version_id}/accept`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await sheet(s.id)).data, [['edited meanwhile', 'proposed']]);
    // The same cell changed on both sides: refused, and the proposal stays proposed.
    const clash = (await api.post(`/api/v1/sheets/${s.id}/versions`, { base_version: 2, changes: [{ row: 0, col: 0, value: 'mine' }] })).json();
    await patch(other, s.id, 3, [{ row: 0, col: 0, value: 'theirs' }]);
    error(await api.post(`/api/v1/sheets/${s.id}/versions/${clash.version_id}/accept`), 409);
    assert.equal((await history(s.id)).versions[0].status, 'proposed');
  });

  it('checks out an archived version and discards proposed and archived ones, never the live one', async () => {
    const s = await create([['1']]);
    const v2 = await patch(api, s.id, 1, [{ row: 0, col: 0, value: '2' }]);
    await patch(api, s.id, v2, [{ row: 0, col: 0, value: '3' }]);
    const res = await api.post(`/api/v1/sheets/${s.id}/versions/2/checkout`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await sheet(s.id)).data, [['2']]);
    assert.equal(error(await api.post(`/api/v1/sheets/${s.id}/versions/4/discard`), 409).message, 'The live version cannot be discarded; check out another version first');
    assert.equal((await api.post(`/api/v1/sheets/${s.id}/versions/3/discard`)).statusCode, 200);
    assert.deepEqual((await history(s.id)).versions.map((v) => v.version_id), ['4', '2', '1']);
    error(await api.get(`/api/v1/sheets/${s.id}/versions/3`), 404);
    error(await api.post(`/api/v1/sheets/${s.id}/versions/3/checkout`), 404);
    const p = (await api.post(`/api/v1/sheets/${s.id}/versions`, { data: [['p']] })).json();
    assert.equal((await api.post(`/api/v1/sheets/${s.id}/versions/${p.version_id}/discard`)).statusCode, 200);
    error(await api.get(`/api/v1/sheets/${s.id}/versions/${p.version_id}`), 404);
    // Versions after a discarded one still rebuild (its op stays in the log).
    assert.deepEqual((await version(s.id, 4)).rows, [['2']]);
  });

  it('names versions and answers the history of one cell', async () => {
    const s = await create([['a']]);
    const v2 = await patch(api, s.id, 1, [{ row: 0, col: 0, value: 'b' }]);
    await patch(other, s.id, v2, [{ row: 0, col: 0, value: 'c' }, { row: 3, col: 2, value: 'far' }]);
    const named = await api.put(`/api/v1/sheets/${s.id}/versions/2/label`, { label: ' Before review ' });
    assert.equal(named.statusCode, 200, named.body);
    assert.equal(named.json().label, 'Before review');
    assert.equal((await history(s.id)).versions.find((v) => v.version_id === '2')?.label, 'Before review');
    assert.equal((await api.delete(`/api/v1/sheets/${s.id}/versions/2/label`)).json().label, null);
    const res = await api.get(`/api/v1/sheets/${s.id}/cells/0/0/history`);
    assert.equal(res.statusCode, 200, res.body);
    const cell = CellHistorySchema.parse(res.json());
    assert.deepEqual(cell.changes.map((c) => [c.version, c.old, c.new, c.author === 'Admin']), [
      [3, 'b', 'c', false],
      [2, 'a', 'b', true],
      [1, null, 'a', true],
    ]);
    const far = CellHistorySchema.parse((await api.get(`/api/v1/sheets/${s.id}/cells/3/2/history`)).json());
    assert.deepEqual(far.changes.map((c) => [c.version, c.old, c.new]), [[3, null, 'far']]);
  });

  it('takes every transition of the state machine through the routes: allowed ones act, refused ones say why', async () => {
    const expected: Record<string, Record<string, number>> = {
      accept: { proposed: 200, live: 409, archived: 409 },
      checkout: { proposed: 409, live: 409, archived: 200 },
      restore: { proposed: 400, live: 409, archived: 200 },
      discard: { proposed: 200, live: 409, archived: 200 },
    };
    for (const [action, byStatus] of Object.entries(expected)) {
      for (const [status, code] of Object.entries(byStatus)) {
        const s = await create([['v1']]);
        await patch(api, s.id, 1, [{ row: 0, col: 0, value: 'v2' }]);
        const proposal = (await api.post(`/api/v1/sheets/${s.id}/versions`, { data: [['p']] })).json().version_id as string;
        const target = status === 'proposed' ? proposal : status === 'live' ? '2' : '1';
        const url =
          action === 'restore' ? `/api/v1/sheets/${s.id}/snapshots/${target}/restore` : `/api/v1/sheets/${s.id}/versions/${target}/${action}`;
        const res = await api.post(url);
        if (code !== 200) {
          error(res, code);
          assert.equal((await sheet(s.id)).version, 2, `${action} ${status} changed nothing`);
          continue;
        }
        assert.equal(res.statusCode, 200, `${action} ${status}: ${res.body}`);
        const after = await sheet(s.id);
        const statuses = (await history(s.id)).versions.map((v) => `${v.version_id === proposal ? 'p' : v.version_id}:${v.status}`);
        if (action === 'discard') {
          assert.equal(after.version, 2);
          assert.deepEqual(statuses, status === 'proposed' ? ['2:live', '1:archived'] : ['p:proposed', '2:live']);
        } else {
          assert.equal(after.version, 3);
          assert.deepEqual(after.data, [[status === 'proposed' ? 'p' : 'v1']]);
          assert.deepEqual(statuses, status === 'proposed' ? ['3:live', '2:archived', '1:archived'] : ['p:proposed', '3:live', '2:archived', '1:archived']);
        }
      }
    }
  });

  it('validates every route: bad ids, bad versions, bodies, and 404s', async () => {
    const s = await create([['a']]);
    const base = `/api/v1/sheets/${s.id}`;
    // One after another: a member's restores and whole version reads at once are bounded (transfer-slots.ts).
    const cases: [() => Promise<{ statusCode: number; json(): unknown }>, number][] = [
      [() => api.get('/api/v1/sheets/not-a-uuid/history'), 400],
      [() => api.get(`/api/v1/sheets/${MISSING}/history`), 404],
      [() => api.get(`${base}/history?limit=0`), 400],
      [() => api.get(`${base}/snapshots?limit=abc`), 400],
      [() => api.get(`/api/v1/sheets/${MISSING}/snapshots`), 404],
      [() => api.get(`${base}/versions/0`), 400],
      [() => api.get(`${base}/versions/abc`), 400],
      [() => api.get(`${base}/versions/-1`), 400],
      [() => api.get(`${base}/versions/99`), 404],
      [() => api.get(`${base}/versions/${MISSING}`), 404],
      [() => api.get(`/api/v1/sheets/${MISSING}/versions/1`), 404],
      [() => api.post(`${base}/snapshots/0/restore`), 400],
      [() => api.post(`${base}/snapshots/x/restore`), 400],
      [() => api.post(`${base}/snapshots/9/restore`), 404],
      [() => api.post(`/api/v1/sheets/${MISSING}/snapshots/1/restore`), 404],
      [() => api.post(`${base}/versions`, {}), 400],
      [() => api.post(`${base}/versions`, { data: [['a']], changes: [{ row: 0, col: 0, value: 'b' }] }), 400],
      [() => api.post(`${base}/versions`, { changes: [{ row: -1, col: 0, value: 'b' }] }), 400],
      [() => api.post(`${base}/versions`, { data: [['a']], extra: 1 }), 400],
      [() => api.post(`${base}/versions`, { base_version: 5, data: [['a']] }), 409],
      [() => api.post(`/api/v1/sheets/${MISSING}/versions`, { data: [['a']] }), 404],
      [() => api.post(`${base}/versions/1/accept`), 409],
      [() => api.post(`${base}/versions/${MISSING}/accept`), 404],
      [() => api.post(`${base}/versions/x/accept`), 400],
      [() => api.post(`${base}/versions/1/checkout`), 409],
      [() => api.post(`${base}/versions/7/checkout`), 404],
      [() => api.post(`${base}/versions/${MISSING}/discard`), 404],
      [() => api.put(`${base}/versions/1/label`, { label: '' }), 400],
      [() => api.put(`${base}/versions/1/label`, { label: 'x'.repeat(101) }), 400],
      [() => api.put(`${base}/versions/1/label`, {}), 400],
      [() => api.put(`${base}/versions/8/label`, { label: 'x' }), 404],
      [() => api.put(`${base}/versions/${MISSING}/label`, { label: 'x' }), 400],
      [() => api.get(`${base}/cells/-1/0/history`), 400],
      [() => api.get(`${base}/cells/0/x/history`), 400],
      [() => api.get(`/api/v1/sheets/${MISSING}/cells/0/0/history`), 404],
    ];
    for (const [res, status] of cases) error(await res(), status);
  });
});
