import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PruneResultSchema, SheetHistorySchema, SheetSchema, SheetVersionSchema } from '@tessera/contracts';
import { sql } from 'kysely';
import { snapshotEvery } from '../src/versions/version-recorder.js';

process.env.VERSION_SNAPSHOT_EVERY ??= '50';
const SNAPSHOT_EVERY = snapshotEvery();
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe(`versions retention (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'})`, () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  it('keeps everything by default; a policy prunes old versions but never named ones, and kept versions rebuild as before', async () => {
    const id = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Retained', data: [['a', 'b'], ['c', 'd']] })).json()).id;
    const total = SNAPSHOT_EVERY + 30;
    for (let v = 1; v < total; v++) {
      const res = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: v, changes: [{ row: v % 4, col: v % 3, value: `v${v + 1}` }] });
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await api.put(`/api/v1/sheets/${id}/versions/7/label`, { label: 'Keep me' })).statusCode, 200);
    assert.equal((await api.put(`/api/v1/sheets/${id}/versions/${SNAPSHOT_EVERY + 1}/label`, { label: 'Me too' })).statusCode, 200);
    // One version an hour, the newest an hour ago: all older than the 10 minutes that are never pruned.
    await sql`UPDATE sheet_ops SET created_at = now() - make_interval(hours => ${total}::int - version + 1)
      WHERE sheet_id = ${id}::uuid`.execute(t.app.db);
    const contentBefore = new Map<number, unknown>();
    for (let v = 1; v <= total; v++) contentBefore.set(v, SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${id}/versions/${v}`)).json()).rows);
    const history = async () => SheetHistorySchema.parse((await api.get(`/api/v1/sheets/${id}/history?limit=500`)).json());
    assert.equal((await history()).count, total);

    const res = await api.post(`/api/v1/sheets/${id}/history/prune`, { recent: 3, daily: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const result = PruneResultSchema.parse(res.json());
    const kept = (await history()).versions.map((v) => v.version!).sort((a, b) => a - b);
    assert.equal(result.kept, kept.length);
    assert.equal(result.pruned, total - kept.length);
    assert.ok(result.pruned > total / 2, `pruned ${result.pruned} of ${total}`);
    for (const named of [1, 7, SNAPSHOT_EVERY + 1, total - 2, total - 1, total]) assert.ok(kept.includes(named), `version ${named} kept`);
    for (const v of kept) {
      const rebuilt = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${id}/versions/${v}`)).json());
      assert.deepEqual(rebuilt.rows, contentBefore.get(v), `version ${v} after pruning`);
    }
    assert.equal((await api.get(`/api/v1/sheets/${id}/versions/8`)).statusCode, 404);
    // The sheet itself is untouched and editing goes on.
    assert.deepEqual(SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json()).data, contentBefore.get(total));
    const next = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: total, changes: [{ row: 0, col: 0, value: 'after' }] });
    assert.equal(next.statusCode, 200, next.body);
  });

  it('pruned delta snapshots fold into the next kept one: kept versions of a large sheet rebuild as before', async () => {
    // 2,000 × 5 cells: no full snapshot but the first within this history, so rebuilds go through the delta snapshots.
    const data = Array.from({ length: 2000 }, (_, r) => Array.from({ length: 5 }, (_, c) => `r${r}c${c}`));
    const previous = process.env.VERSION_SNAPSHOT_EVERY;
    process.env.VERSION_SNAPSHOT_EVERY = '7';
    try {
      const id = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Deltas', data })).json()).id;
      const total = 60;
      for (let v = 1; v < total; v++) {
        const changes = [{ row: (v * 397) % 2000, col: v % 5, value: `v${v + 1}` }, { row: (v * 13) % 2000, col: (v + 2) % 5, value: `w${v + 1}` }];
        const res = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: v, changes });
        assert.equal(res.statusCode, 200, res.body);
      }
      assert.equal((await api.put(`/api/v1/sheets/${id}/versions/20/label`, { label: 'Named' })).statusCode, 200);
      await sql`UPDATE sheet_ops SET created_at = now() - make_interval(hours => ${total}::int - version + 1)
        WHERE sheet_id = ${id}::uuid`.execute(t.app.db);
      const contentBefore = new Map<number, unknown>();
      for (let v = 1; v <= total; v++) contentBefore.set(v, SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${id}/versions/${v}`)).json()).rows);

      const res = await api.post(`/api/v1/sheets/${id}/history/prune`, { recent: 4, hourly: 5 });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(PruneResultSchema.parse(res.json()).pruned > total / 2);
      const kept = SheetHistorySchema.parse((await api.get(`/api/v1/sheets/${id}/history?limit=500`)).json()).versions.map((v) => v.version!);
      // Every delta snapshot left goes from a kept version to a kept version.
      const { rows: deltas } = await sql<{ version: number; from_version: number }>`SELECT version, from_version FROM sheet_snapshot_deltas
        WHERE sheet_id = ${id}::uuid`.execute(t.app.db);
      assert.ok(deltas.length > 0);
      for (const d of deltas) assert.ok(kept.includes(d.version) && kept.includes(d.from_version), `delta ${d.from_version}→${d.version}`);
      for (const v of kept) {
        const rebuilt = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${id}/versions/${v}`)).json());
        assert.deepEqual(rebuilt.rows, contentBefore.get(v), `version ${v} after pruning`);
      }
    } finally {
      if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = previous;
    }
  });

  it('validates the policy', async () => {
    const id = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'P2' })).json()).id;
    for (const body of [{}, { recent: 0 }, { recent: 1, hourly: -1 }, { recent: 1, yearly: 2 }]) {
      assert.equal((await api.post(`/api/v1/sheets/${id}/history/prune`, body)).statusCode, 400, JSON.stringify(body));
    }
    assert.equal((await api.post('/api/v1/sheets/00000000-0000-4000-8000-000000000000/history/prune', { recent: 1 })).statusCode, 404);
  });
});
