import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FindResultSchema, type GridData, SHEET_ROWS_WINDOW_MAX, SheetSchema, SheetVersionSchema, VersionRowsSchema } from '@tessera/contracts';
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Issue 23: GET /sheets/:id/versions/:versionId/rows, the rows of a version a window at a time
 * (the preview of a sheet shown a window at a time): each window is exactly the same rows of
 * the whole version (GET .../versions/:versionId), across chunks and after a save moved rows; summary=1
 * carries the version without its rows; a discarded version is gone however often it was read.
 */
describe(`a window of a version's rows (${process.env.TEST_PG_URL ? 'postgresql' : 'pglite'})`, () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  const labelled = (rows: number): GridData => Array.from({ length: rows }, (_, r) => [`r${r}`, r]);
  const whole = async (id: string, v: string | number) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}`);
    assert.equal(res.statusCode, 200, res.body);
    return SheetVersionSchema.parse(res.json());
  };
  const window = async (id: string, v: string | number, query: string) => {
    const res = await api.get(`/api/v1/sheets/${id}/versions/${v}/rows?${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return VersionRowsSchema.parse(res.json());
  };

  it('every window is the same rows as the whole version, for old versions and the live one after a save moved rows', async () => {
    const created = await api.post('/api/v1/sheets', { name: 'Versions big', data: labelled(2_300) });
    assert.equal(created.statusCode, 201, created.body);
    const s = SheetSchema.parse(created.json());
    const v2 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: 1, changes: [{ row: 1_800, col: 1, value: 'changed' }] })).json().version as number;
    // A whole-grid save of three more rows, the first ten kept: rows moved against the chunks.
    const grown = labelled(2_303).map((row, r) => (r < 10 ? row : [`r${r - 3}`, r - 3]));
    grown[1_803] = ['r1800', 'changed'];
    const saved = await api.put(`/api/v1/sheets/${s.id}`, { base_version: v2, data: grown });
    assert.equal(saved.statusCode, 200, saved.body);
    const live = saved.json().version as number;
    for (const v of [1, v2, live]) {
      const all = await whole(s.id, v);
      for (const [start, count] of [[0, 1], [0, 500], [499, 2], [1_790, 20], [2_000, SHEET_ROWS_WINDOW_MAX], [2_302, 10], [9_000, 5]]) {
        const w = await window(s.id, v, `start=${start}&count=${count}`);
        assert.deepEqual(w.data, all.rows.slice(start, start + count), `version ${v}, rows ${start}+${count}`);
        assert.deepEqual({ row_count: w.row_count, column_count: w.column_count, start: w.start, version_id: w.version_id }, { row_count: all.rows.length, column_count: 2, start, version_id: String(v) });
        assert.equal(w.version, undefined);
      }
    }
    assert.deepEqual((await window(s.id, 1, 'start=1800&count=1')).data, [['r1800', 1_800]]);
    assert.deepEqual((await window(s.id, v2, 'start=1800&count=1')).data, [['r1800', 'changed']]);
    assert.equal((await window(s.id, live, 'start=0&count=1')).row_count, 2_303);
  });

  it("find in a version (its preview's find bar) finds in that version's rows: a text only it has, not one added after, nor the live sheet's; a proposal too; a discarded version is gone", async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Versions find', data: labelled(2_300) })).json());
    const v2 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: 1, changes: [{ row: 1_800, col: 1, value: 'Only in V2' }] })).json().version as number;
    const v3 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: v2, changes: [{ row: 1_800, col: 1, value: 'x' }, { row: 40, col: 0, value: 'added later' }] })).json().version as number;
    const find = async (v: string | number, query: string) => {
      const res = await api.get(`/api/v1/sheets/${s.id}/versions/${v}/find?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return FindResultSchema.parse(res.json());
    };
    const inV2 = await find(v2, 'q=only%20in%20v2');
    assert.deepEqual([inV2.matches, inV2.total, inV2.complete, inV2.version, inV2.row_count], [[[1_800, 1, 1]], 1, true, v2, 2_300]);
    assert.deepEqual((await find(v2, 'q=added%20later')).matches, []);
    assert.deepEqual((await find(v3, 'q=added%20later')).matches, [[40, 0, 1]]);
    assert.deepEqual((await find(1, 'q=only%20in')).matches, []);
    // The live sheet has neither V2's text nor finds it.
    assert.equal((await api.get(`/api/v1/sheets/${s.id}/find?q=only%20in%20v2`)).json().total, 0);
    // Paged as the live find: past a cell, backwards, wrapping.
    const r229 = await find(v2, 'q=r229&after_row=2291&after_col=0&direction=prev&limit=2');
    assert.deepEqual(r229.matches.map(([row]) => row), [2_290, 229]);

    const proposal = await api.post(`/api/v1/sheets/${s.id}/versions`, { data: [['p', 1], ['proposed', 2]], base_version: v3 });
    assert.equal(proposal.statusCode, 201, proposal.body);
    const proposed = await find(proposal.json().version_id as string, 'q=PROPOSED');
    assert.deepEqual([proposed.matches, proposed.version], [[[1, 0, 1]], v3]);

    assert.equal((await api.post(`/api/v1/sheets/${s.id}/versions/${v2}/discard`)).statusCode, 200);
    assert.equal((await api.get(`/api/v1/sheets/${s.id}/versions/${v2}/find?q=only`)).statusCode, 404);
  });

  it('summary=1 carries the version without its rows, as the whole read gives it; a proposal is read the same way', async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Versions summary', data: [['a', 1], ['b', 2]], headers: ['Name', 'N'] })).json());
    const v2 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 1, value: 5 }] })).json().version as number;
    const { rows: _rows, ...head } = await whole(s.id, v2);
    const w = await window(s.id, v2, 'start=0&count=1&summary=1');
    assert.deepEqual(w.version, head);
    assert.deepEqual(w.data, [['a', 5]]);

    const proposal = await api.post(`/api/v1/sheets/${s.id}/versions`, { data: [['p', 1], ['q', 2], ['r', 3]], base_version: v2 });
    assert.equal(proposal.statusCode, 201, proposal.body);
    const id = proposal.json().version_id as string;
    const { rows: proposed, ...proposalHead } = await whole(s.id, id);
    const pw = await window(s.id, id, 'start=1&count=5&summary=1');
    assert.deepEqual(pw.data, proposed.slice(1));
    assert.deepEqual(pw.version, proposalHead);
    assert.equal(pw.row_count, 3);
  });

  it("a proposal's windows read it whole once, not at each window; accepted, only the chunk that differs is parsed, and it is gone", async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Versions proposal windows', data: labelled(3_000) })).json());
    const text = JSON.stringify(labelled(3_000)).length;
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (t: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed += t.length;
      return parse(t, reviver);
    };
    let proposal;
    try {
      proposal = await api.post(`/api/v1/sheets/${s.id}/versions`, { changes: [{ row: 2_999, col: 1, value: 'last' }] });
    } finally {
      JSON.parse = parse;
    }
    assert.equal(proposal.statusCode, 201, proposal.body);
    // Made of changes on a version: only the chunk they touch is parsed, not the version whole.
    assert.ok(parsed < text / 2, `${parsed} characters parsed to propose one cell on a sheet of ${text}`);
    const id = proposal.json().version_id as string;
    // Changes past the last row and column add rows, empty but for them.
    const far = await api.post(`/api/v1/sheets/${s.id}/versions`, { changes: [{ row: 3_001, col: 3, value: 'far' }, { row: 0, col: 0, value: 'first' }] });
    assert.equal(far.statusCode, 201, far.body);
    const grownRows = labelled(3_000).map((row, r) => (r === 0 ? ['first', 0] : row));
    assert.deepEqual((await whole(s.id, far.json().version_id as string)).rows, [...grownRows, [], ['', '', '', 'far']]);
    parsed = 0;
    JSON.parse = (t: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed += t.length;
      return parse(t, reviver);
    };
    const windows = [];
    try {
      for (const start of [0, 2_500, 1_000, 2_990]) {
        const res = await api.get(`/api/v1/sheets/${s.id}/versions/${id}/rows?start=${start}&count=500`);
        windows.push({ start, body: parse(res.body) as { data: GridData; row_count: number } });
      }
    } finally {
      JSON.parse = parse;
    }
    for (const { start, body } of windows) {
      const expected = labelled(3_000).slice(start, start + 500);
      if (start + 500 >= 3_000) expected[expected.length - 1] = ['r2999', 'last'];
      assert.deepEqual(body.data, expected, `rows from ${start}`);
      assert.equal(body.row_count, 3_000);
    }
    // Each window parsed whole: 4 times its text and more (the test app also parses each answer to check it).
    assert.ok(parsed < 3 * text, `${parsed} characters parsed for 4 windows of a proposal of ${text}`);
    // Accepted on the version it was made on: only the chunk that differs is parsed, not the proposal and the sheet whole.
    parsed = 0;
    JSON.parse = (t: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed += t.length;
      return parse(t, reviver);
    };
    let accepted;
    try {
      accepted = await api.post(`/api/v1/sheets/${s.id}/versions/${id}/accept`);
    } finally {
      JSON.parse = parse;
    }
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.ok(parsed < text / 2, `${parsed} characters parsed to accept a proposal of ${text}`);
    const live = (await api.get(`/api/v1/sheets/${s.id}/rows?start=2998&count=5`)).json();
    assert.deepEqual(live.data, [['r2998', 2_998], ['r2999', 'last']]);
    assert.equal(live.row_count, 3_000);
    assert.equal((await api.get(`/api/v1/sheets/${s.id}/versions/${id}/rows?start=0&count=1`)).statusCode, 404);
  });

  it('a version discarded after it was read is not found; an unknown version or sheet neither', async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Versions gone', data: [['a']] })).json());
    const v2 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: 1, changes: [{ row: 0, col: 0, value: 'b' }] })).json().version as number;
    assert.deepEqual((await window(s.id, 1, 'start=0&count=1')).data, [['a']]);
    assert.equal((await api.post(`/api/v1/sheets/${s.id}/versions/1/discard`)).statusCode, 200);
    const gone = await api.get(`/api/v1/sheets/${s.id}/versions/1/rows?start=0&count=1`);
    assert.equal(gone.statusCode, 404, gone.body);
    assert.equal(gone.json().error.message, 'Version not found');
    assert.equal((await api.get(`/api/v1/sheets/${s.id}/versions/${v2 + 5}/rows`)).statusCode, 404);
    assert.equal((await api.get(`/api/v1/sheets/${s.id}/versions/00000000-0000-4000-8000-000000000009/rows`)).statusCode, 404);
    assert.equal((await api.get(`/api/v1/sheets/00000000-0000-4000-8000-000000000009/versions/1/rows`)).statusCode, 404);
    // Each access level on it: the access matrix (access-matrix.test.ts) enumerates this route too.
  });
  it('restoring a version of a 10,000-row sheet brings its cells back and parses only the chunks that differ, not the grid whole', async () => {
    const rows = 10_000;
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Versions restore', data: labelled(rows) })).json());
    const v2 = (await api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: 1, changes: [{ row: 4_321, col: 1, value: 'later' }, { row: 0, col: 0, value: 'first' }] })).json().version as number;
    const gridText = JSON.stringify(labelled(rows)).length;
    // What the api parses meanwhile (JSON.parse of any text): a 10M-cell version parsed whole, and the live grid too, took 11 s and ~1.1 GB.
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed += text.length;
      return parse(text, reviver);
    };
    let res;
    try {
      res = await api.post(`/api/v1/sheets/${s.id}/snapshots/1/restore`);
    } finally {
      JSON.parse = parse;
    }
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, v2 + 1);
    assert.ok(parsed < gridText / 2, `${parsed} characters parsed for a grid of ${gridText}`);
    const back = await window(s.id, v2 + 1, 'start=0&count=5000');
    assert.deepEqual(back.data, labelled(rows).slice(0, 5_000));
    assert.deepEqual((await window(s.id, v2 + 1, 'start=4321&count=1')).data, [['r4321', 4_321]]);
    // The restore is one version changing the cell back (its history shows it, after the edit and the creation).
    const history = (await api.get(`/api/v1/sheets/${s.id}/cells/4321/1/history`)).json();
    assert.deepEqual(history.changes.map((c: { version: number; old: unknown; new: unknown }) => [c.version, c.old, c.new]), [[v2 + 1, 'later', 4_321], [v2, 4_321, 'later'], [1, null, 4_321]]);
  });
});
