import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CellValue, normalizeHeaders, SheetSchema, SheetVersionSchema, VersionRowsSchema } from '@tessera/contracts';
import { snapshotEvery } from '../src/versions/version-recorder.js';
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seededRandom as random } from './support/seeded-random.js';

type Grid = CellValue[][];
const empty = (v: CellValue | undefined) => v === undefined || v === null || v === '';
/** Grids as a user sees them: same row count, and the same value in every cell (an empty cell is empty however stored). */
function assertSameGrid(actual: Grid, expected: Grid, what: string) {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  for (let r = 0; r < expected.length; r++) {
    const width = Math.max(actual[r].length, expected[r].length);
    for (let c = 0; c < width; c++) {
      const a = actual[r][c];
      const e = expected[r][c];
      if (!(empty(a) && empty(e))) assert.equal(a, e, `${what}: cell ${r},${c}`);
    }
  }
}

// A short snapshot period, so a few hundred versions cross several full snapshots.
process.env.VERSION_SNAPSHOT_EVERY ??= '40';
const SEED = Number(process.env.VERSIONS_SEED ?? Date.now() % 100_000);
/** Several snapshot periods, so rebuilds run forwards and backwards from snapshots. */
const STEPS = snapshotEvery() * 5 + 37;

describe(`versions property (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'}, seed ${SEED})`, () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  it('every version rebuilt equals a replay of the edits up to it (PATCH cells, PUT grids, restores)', async () => {
    const rnd = random(SEED);
    const int = (n: number) => Math.floor(rnd() * n);
    const value = (): CellValue => [null, '', `t${int(50)}`, int(1000), rnd() < 0.5][int(5)];
    const randomGrid = (): Grid => {
      // Sometimes over a chunk (500 rows), so snapshots hold several chunks.
      const rows = rnd() < 0.2 ? 400 + int(900) : int(12);
      const cols = 1 + int(5);
      return Array.from({ length: rows }, () => Array.from({ length: rnd() < 0.1 ? int(cols + 1) : cols }, value));
    };

    const first = randomGrid();
    const created = await api.post('/api/v1/sheets', { name: 'Property', data: first });
    assert.equal(created.statusCode, 201, created.body);
    const id = SheetSchema.parse(created.json()).id;
    // expected[v] = [grid, headers] after version v, replayed here from the edits sent.
    const expected: [Grid, string[]][] = [];
    const readLive = async () => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
    expected[1] = [structuredClone(first), (await readLive()).metadata.headers];
    let grid = structuredClone(first);
    let version = 1;
    for (let step = 0; step < STEPS; step++) {
      const kind = rnd();
      if (kind < 0.75) {
        const changes = Array.from({ length: 1 + int(6) }, () => ({
          row: int(grid.length + 3),
          col: int(7),
          value: value(),
        }));
        const res = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: version, changes });
        assert.equal(res.statusCode, 200, res.body);
        for (const c of changes) {
          while (grid.length <= c.row) grid.push([]);
          while (grid[c.row].length < c.col) grid[c.row].push('');
          grid[c.row][c.col] = c.value;
        }
      } else if (kind < 0.93) {
        const next = rnd() < 0.5 ? randomGrid() : grid.map((row) => row.map((v) => (rnd() < 0.1 ? value() : v)));
        const headers = rnd() < 0.3 ? Array.from({ length: 1 + int(4) }, (_, i) => `H${i}-${int(9)}`) : undefined;
        const res = await api.put(`/api/v1/sheets/${id}`, { base_version: version, data: next, ...(headers ? { headers } : {}) });
        assert.equal(res.statusCode, 200, res.body);
        grid = structuredClone(next);
      } else {
        const target = 1 + int(version - 1 || 1);
        if (target === version) continue;
        const res = await api.post(`/api/v1/sheets/${id}/snapshots/${target}/restore`);
        assert.equal(res.statusCode, 200, res.body);
        grid = structuredClone(expected[target][0]);
      }
      version++;
      const live = await readLive();
      assert.equal(live.version, version);
      assertSameGrid(live.data, grid, `live after version ${version} (seed ${SEED})`);
      expected[version] = [structuredClone(grid), live.metadata.headers];
    }

    for (let v = 1; v <= version; v++) {
      const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
      assert.equal(res.statusCode, 200, res.body);
      const rebuilt = SheetVersionSchema.parse(res.json());
      assertSameGrid(rebuilt.rows, expected[v][0], `version ${v} of ${version} (seed ${SEED})`);
      assert.deepEqual(rebuilt.headers, normalizeHeaders(expected[v][1], expected[v][1].length), `headers of version ${v} (seed ${SEED})`);
      // A preview's first window (the version not kept: answered from the chunks holding it), across a chunk border: the whole read's rows and summary exactly.
      const start = rebuilt.rows.length > 500 ? 495 : 0;
      const w = await api.get(`/api/v1/sheets/${id}/versions/${v}/rows?start=${start}&count=10&summary=1`);
      assert.equal(w.statusCode, 200, w.body);
      const { rows: wholeRows, ...head } = rebuilt;
      const first = VersionRowsSchema.parse(w.json());
      assert.deepEqual(first.data, wholeRows.slice(start, start + 10), `first window of version ${v} (seed ${SEED})`);
      assert.deepEqual([first.row_count, first.column_count, first.version], [wholeRows.length, head.headers.length, head], `first window's summary of version ${v} (seed ${SEED})`);
    }
  });
  it('delta snapshots: on a sheet large enough that only some of them are full, every version rebuilt equals the replay', async () => {
    const rnd = random(SEED + 1);
    const int = (n: number) => Math.floor(rnd() * n);
    const value = (): CellValue => [null, '', `d${int(50)}`, int(1000), rnd() < 0.5][int(5)];
    // 600 × 5 cells: a full snapshot once 300 cells changed, so most snapshots are deltas (one every 5 versions here).
    let grid: Grid = Array.from({ length: 600 }, (_, r) => Array.from({ length: 5 }, (_, c) => `r${r}c${c}`));
    const previous = process.env.VERSION_SNAPSHOT_EVERY;
    process.env.VERSION_SNAPSHOT_EVERY = '5';
    try {
      const created = await api.post('/api/v1/sheets', { name: 'Deltas', data: grid });
      assert.equal(created.statusCode, 201, created.body);
      const id = SheetSchema.parse(created.json()).id;
      const expected: Grid[] = [];
      expected[1] = structuredClone(grid);
      let version = 1;
      for (let step = 0; step < 140; step++) {
        // Mostly edits anywhere (some beyond the end: new rows), now and then a restore (a whole-grid op).
        if (rnd() < 0.97) {
          const changes = Array.from({ length: 1 + int(6) }, () => ({ row: int(grid.length + 2), col: int(6), value: value() }));
          const res = await api.patch(`/api/v1/sheets/${id}/cells`, { base_version: version, changes });
          assert.equal(res.statusCode, 200, res.body);
          for (const c of changes) {
            while (grid.length <= c.row) grid.push([]);
            while (grid[c.row].length < c.col) grid[c.row].push('');
            grid[c.row][c.col] = c.value;
          }
        } else {
          const target = 1 + int(version - 1 || 1);
          if (target === version) continue;
          const res = await api.post(`/api/v1/sheets/${id}/snapshots/${target}/restore`);
          assert.equal(res.statusCode, 200, res.body);
          grid = structuredClone(expected[target]);
        }
        version++;
        expected[version] = structuredClone(grid);
      }
      for (let v = 1; v <= version; v++) {
        const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
        assert.equal(res.statusCode, 200, res.body);
        assertSameGrid(SheetVersionSchema.parse(res.json()).rows, expected[v], `version ${v} of ${version} (seed ${SEED + 1})`);
      }
    } finally {
      if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = previous;
    }
  });
});
