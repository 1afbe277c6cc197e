// Issue 20: charts are part of their sheet — kept in its metadata, one version per change,
// moved with its rows and columns, previewed, restored and duplicated with it; editors only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS, CHART_TEXTS, type ChartOptions, ChartsResultSchema, chartsOf, ERROR_CODES, SHEET_REPLACED_TEXT, SheetSchema, SheetVersionSchema } from '@tessera/contracts';
import { LiveClient } from './live-client.js';
import { apiClient } from './support/api-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';
import { signedInMember } from './support/members.js';

const options = (over: Partial<ChartOptions> = {}): ChartOptions => ({
  type: 'column',
  range: { start_row: 0, start_col: 0, end_row: 3, end_col: 1 },
  categories: 'first_column',
  title: 'Amount by region',
  x_axis_title: 'Region',
  y_axis_title: 'Amount',
  legend: 'bottom',
  stacked: false,
  box: { row: 2, col: 3, dx: 10, dy: 4, width: 480, height: 300 },
  ...over,
});

describe('charts on a sheet', () => {
  let { t, base, admin, api } = {} as LiveStack;
  const open: LiveClient[] = [];
  before(async () => ({ t, base, admin, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const grid = () => [
    ['North', 10],
    ['South', 20],
    ['East', 30],
    ['West', 40],
  ];
  const sheet = async () => {
    const res = await api.post('/api/v1/sheets', { name: `Charts ${Math.random().toString(36).slice(2, 8)}`, headers: ['Region', 'Amount'], data: grid() });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const read = async (id: string) => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const chartsNow = async (id: string) => chartsOf((await read(id)).metadata);
  const addChart = async (id: string, over: Partial<ChartOptions> = {}) => {
    const res = await api.post(`/api/v1/sheets/${id}/charts`, options(over));
    assert.equal(res.statusCode, 201, res.body);
    return ChartsResultSchema.parse(res.json());
  };

  it('a chart made from a range is in the sheet’s metadata, as one new version; changed and deleted the same way', async () => {
    const s = await sheet();
    const made = await addChart(s.id);
    assert.equal(made.version, s.version + 1);
    assert.ok(made.chart);
    const stored = await read(s.id);
    assert.equal(stored.version, made.version);
    assert.deepEqual(chartsOf(stored.metadata), [made.chart]);
    assert.deepEqual(stored.data, grid(), 'the cells are as they were');

    const changed = await api.put(`/api/v1/sheets/${s.id}/charts/${made.chart.id}`, options({ type: 'line', title: 'Trend' }));
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(
      (await chartsNow(s.id)).map((c) => [c.id, c.type, c.title]),
      [[made.chart.id, 'line', 'Trend']],
    );

    const deleted = await api.delete(`/api/v1/sheets/${s.id}/charts/${made.chart.id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(await chartsNow(s.id), []);
    assert.equal((await read(s.id)).version, made.version + 2);
  });

  it('a save that sends metadata.charts back (or makes them up) does not change them', async () => {
    const s = await sheet();
    const { chart } = await addChart(s.id);
    const forged = { ...chart!, title: 'Forged' };
    const put = await api.put(`/api/v1/sheets/${s.id}`, { metadata: { charts: [forged, { junk: true }], origin: 'x' } });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(await chartsNow(s.id), [chart]);
    const created = await api.post('/api/v1/sheets', { name: 'Made with charts', metadata: { charts: [forged] } });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(chartsOf(created.json().metadata), []);
  });

  it('an older version’s preview shows its charts; restoring it brings them back', async () => {
    const s = await sheet();
    const first = await addChart(s.id, { title: 'First' });
    await api.put(`/api/v1/sheets/${s.id}/charts/${first.chart!.id}`, options({ title: 'Second', type: 'area' }));
    const before = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${s.version}`)).json());
    assert.deepEqual(before.charts, [], 'no chart yet at the first version');
    const old = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${first.version}`)).json());
    assert.deepEqual(
      old.charts?.map((c) => [c.title, c.type]),
      [['First', 'column']],
    );
    const restored = await api.post(`/api/v1/sheets/${s.id}/versions/${first.version}/checkout`, {});
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual(
      (await chartsNow(s.id)).map((c) => [c.title, c.type]),
      [['First', 'column']],
    );
    // And back to a version with none.
    await api.post(`/api/v1/sheets/${s.id}/versions/${s.version}/checkout`, {});
    assert.deepEqual(await chartsNow(s.id), []);
  });

  it('a duplicate of the sheet has its charts, in its own first version', async () => {
    const s = await sheet();
    const { chart } = await addChart(s.id);
    const copy = await api.post(`/api/v1/sheets/${s.id}/duplicate`, {});
    assert.equal(copy.statusCode, 201, copy.body);
    assert.deepEqual(chartsOf(copy.json().metadata), [chart]);
    const v1 = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${copy.json().id}/versions/1`)).json());
    assert.deepEqual(v1.charts, [chart]);
  });

  it('rows inserted above move a chart, inserted inside grow it, removing all its rows leaves it with no range — on the server, live', async () => {
    const s = await sheet();
    const { chart } = await addChart(s.id, { range: { start_row: 1, start_col: 0, end_row: 2, end_col: 1 } });
    const a = await LiveClient.join(base, s.id, admin.accessToken, { since: s.version + 1 });
    open.push(a);
    const op = (id: string, type: string, index: number, count: number) => ({ type: 'operation', sheet_id: s.id, operation: { id, type, index, count } });
    a.send(op('above', 'rows_insert', 0, 2));
    await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].range, { start_row: 3, start_col: 0, end_row: 4, end_col: 1 });
    // Its box, anchored to C4 (row 2) with its cells, is 2 rows down too; rows below it do not move it.
    assert.deepEqual((await chartsNow(s.id))[0].box, { ...chart!.box, row: 4 });
    a.send(op('inside', 'rows_insert', 4, 1));
    const inside = await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].range, { start_row: 3, start_col: 0, end_row: 5, end_col: 1 });
    a.send(op('cols', 'columns_insert', 0, 1));
    await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].range, { start_row: 3, start_col: 1, end_row: 5, end_col: 2 });
    // (The rows inserted at row 4 were at its box's row: it moved down with that row.)
    assert.deepEqual((await chartsNow(s.id))[0].box, { ...chart!.box, row: 5, col: 4 });
    a.send(op('below', 'rows_insert', 7, 1));
    await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].box, { ...chart!.box, row: 5, col: 4 });
    // The version of that op shows the chart where it was then.
    const then = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${inside.data.version}`)).json());
    assert.deepEqual(then.charts?.[0].range, { start_row: 3, start_col: 0, end_row: 5, end_col: 1 });
    a.send(op('gone', 'rows_remove', 2, 5));
    const gone = await a.next('ack');
    // Its cells are gone: the chart stays, with no range (it says so), its options kept.
    // Its box's row went too: it sits at the edge of the row that took that place.
    assert.deepEqual(await chartsNow(s.id), [{ ...chart!, range: null, box: { ...chart!.box, row: 2, col: 4, dy: 0 } }]);
    const atGone = SheetVersionSchema.parse((await api.get(`/api/v1/sheets/${s.id}/versions/${gone.data.version}`)).json());
    assert.deepEqual(atGone.charts?.[0].range, null);
    // Rows inserted where it was do not bring it back.
    a.send(op('back', 'rows_insert', 0, 3));
    await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].range, null);
    // An editor may still move it (range null kept), then give it a new range.
    const moved = await api.put(`/api/v1/sheets/${s.id}/charts/${chart!.id}`, { ...options({ box: { row: 0, col: 5, dx: 20, dy: 0, width: 480, height: 300 } }), range: null });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual((await chartsNow(s.id))[0], { ...chart!, range: null, box: { row: 0, col: 5, dx: 20, dy: 0, width: 480, height: 300 } });
    const fresh = { start_row: 0, start_col: 0, end_row: 1, end_col: 1 };
    const revived = await api.put(`/api/v1/sheets/${s.id}/charts/${chart!.id}`, options({ range: fresh }));
    assert.equal(revived.statusCode, 200, revived.body);
    assert.deepEqual((await chartsNow(s.id))[0].range, fresh);
  });

  it('a chart written on an older version (base_version) charts the same cells after another user’s inserts (and a block cleared); a new one on cells removed since: 409, nothing stored; a changed one keeps no range', async () => {
    const s = await sheet();
    const made = await addChart(s.id, { range: { start_row: 1, start_col: 0, end_row: 2, end_col: 1 } });
    const seen = made.version; // what the chart's author has on screen
    const other = await LiveClient.join(base, s.id, admin.accessToken, { since: seen });
    open.push(other);
    // Someone else inserts 2 rows above and a column before the range.
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'up', type: 'rows_insert', index: 0, count: 2 } });
    await other.next('ack');
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'left', type: 'columns_insert', index: 0, count: 1 } });
    await other.next('ack');
    // And empties a block (a whole-column Delete): it moves no row or column, so no chart.
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'clear', type: 'cells_clear', rows: { start: 0, count: 2 }, columns: { start: 0, count: 1 } } });
    await other.next('ack');
    const moved = { start_row: 3, start_col: 1, end_row: 4, end_col: 2 };
    assert.deepEqual((await chartsNow(s.id))[0].range, moved);

    // The author, not yet told, drags the chart: the PUT carries the range it saw, on its version; the range is not put back.
    // Its box dropped on D2 (row 1, column 3) of that view is on the same cell now: 2 rows down, 1 column right.
    const drag = await api.put(`/api/v1/sheets/${s.id}/charts/${made.chart!.id}`, { ...options({ range: made.chart!.range!, box: { row: 1, col: 3, dx: 8, dy: 2, width: 480, height: 300 } }), base_version: seen });
    assert.equal(drag.statusCode, 200, drag.body);
    assert.deepEqual((await chartsNow(s.id))[0].range, moved);
    assert.deepEqual((await chartsNow(s.id))[0].box, { row: 3, col: 4, dx: 8, dy: 2, width: 480, height: 300 });
    // A new chart drawn on that old view (rows 1–2, columns A–B) charts the same cells: moved, in the answer and stored.
    const added = await api.post(`/api/v1/sheets/${s.id}/charts`, { ...options({ range: { start_row: 1, start_col: 0, end_row: 2, end_col: 1 } }), base_version: seen });
    assert.equal(added.statusCode, 201, added.body);
    const result = ChartsResultSchema.parse(added.json());
    assert.deepEqual(result.chart?.range, moved);
    assert.deepEqual((await chartsNow(s.id)).map((c) => c.range), [moved, moved]);

    // Those rows are removed; a chart drawn on them from the old view has nothing left to chart.
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'gone', type: 'rows_remove', index: 3, count: 2 } });
    await other.next('ack');
    const before = await read(s.id);
    const stale = await api.post(`/api/v1/sheets/${s.id}/charts`, { ...options({ range: { start_row: 1, start_col: 0, end_row: 2, end_col: 1 } }), base_version: seen });
    assert.equal(stale.statusCode, 409, stale.body);
    assert.deepEqual(stale.json().error, { code: ERROR_CODES.conflict, message: CHART_TEXTS.rangeGone });
    const afterAll = await read(s.id);
    assert.equal(afterAll.version, before.version);
    assert.deepEqual(chartsOf(afterAll.metadata), chartsOf(before.metadata));
    assert.deepEqual(chartsOf(afterAll.metadata).map((c) => c.range), [null, null], 'both charts of those rows are left with no range');
    // The first chart's author, still on the old view, retitles it: it keeps no range (not the old one).
    const retitled = await api.put(`/api/v1/sheets/${s.id}/charts/${made.chart!.id}`, { ...options({ range: made.chart!.range!, title: 'Late' }), base_version: seen });
    assert.equal(retitled.statusCode, 200, retitled.body);
    const late = (await chartsNow(s.id)).find((c) => c.id === made.chart!.id)!;
    assert.deepEqual([late.title, late.range], ['Late', null]);
    // Without base_version the range is taken as it is sent.
    const plain = await api.post(`/api/v1/sheets/${s.id}/charts`, options({ range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 } }));
    assert.equal(plain.statusCode, 201, plain.body);
    assert.deepEqual(ChartsResultSchema.parse(plain.json()).chart?.range, { start_row: 0, start_col: 0, end_row: 1, end_col: 1 });
  });

  it('a chart written on a version before a restore replaced the sheet is refused (409), as a live edit would be', async () => {
    const s = await sheet();
    const made = await addChart(s.id);
    // A row inserted, then the first version restored: the whole grid is written back.
    const other = await LiveClient.join(base, s.id, admin.accessToken, { since: made.version });
    open.push(other);
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'row', type: 'rows_insert', index: 0, count: 1 } });
    await other.next('ack');
    const restored = await api.post(`/api/v1/sheets/${s.id}/versions/${s.version}/checkout`, {});
    assert.equal(restored.statusCode, 200, restored.body);
    const before = await read(s.id);
    const res = await api.post(`/api/v1/sheets/${s.id}/charts`, { ...options(), base_version: made.version });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error.message, SHEET_REPLACED_TEXT);
    assert.equal((await read(s.id)).version, before.version);
  });

  it('another user on the sheet gets each chart change as a chart frame (the chart itself, never a sync of the sheet); a reconnect replays them', async () => {
    const s = await sheet();
    const other = await LiveClient.join(base, s.id, admin.accessToken, { since: s.version });
    open.push(other);
    const made = await addChart(s.id);
    const added = await other.next('chart');
    assert.deepEqual(added.data, { ...added.data, sheet_id: s.id, version: made.version, chart_id: made.chart!.id, chart: made.chart, user_id: admin.userId });

    const changed = await api.put(`/api/v1/sheets/${s.id}/charts/${made.chart!.id}`, options({ type: 'line', box: { row: 0, col: 6, dx: 0, dy: 12, width: 400, height: 250 } }));
    assert.equal(changed.statusCode, 200, changed.body);
    const moved = await other.next('chart', (f) => f.data.version === made.version + 1);
    assert.deepEqual(moved.data.chart, { ...made.chart!, type: 'line', box: { row: 0, col: 6, dx: 0, dy: 12, width: 400, height: 250 } });

    // An edit made on the version before those chart changes is taken as it is: a chart moves no cell.
    other.send({ type: 'operation', sheet_id: s.id, operation: { id: 'late-cell', type: 'cell_update', position: { row: 0, column: 1 }, value: 11, base_version: s.version } });
    const ack = await other.next('ack');
    assert.equal(ack.data.version, made.version + 2);
    assert.deepEqual((await read(s.id)).data[0], ['North', 11]);

    const deleted = await api.delete(`/api/v1/sheets/${s.id}/charts/${made.chart!.id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    const gone = await other.next('chart', (f) => f.data.version === made.version + 3);
    assert.deepEqual([gone.data.chart_id, gone.data.chart], [made.chart!.id, null]);
    assert.deepEqual(
      other.frames.filter((f) => f.type === 'sync'),
      [],
      'nobody was sent the whole sheet for a chart',
    );

    // A client that was away since before the chart was made gets the three changes (and the cell), not the sheet.
    const back = await LiveClient.join(base, s.id, admin.accessToken, { since: s.version });
    open.push(back);
    const replayed = await back.waitFor((frames) => {
      const charts = frames.filter((f) => f.type === 'chart');
      return charts.length === 3 ? charts : undefined;
    }, 'three chart frames');
    assert.deepEqual(
      replayed.map((f) => [f.data.version, f.data.chart_id, f.data.chart?.type ?? null]),
      [
        [made.version, made.chart!.id, 'column'],
        [made.version + 1, made.chart!.id, 'line'],
        [made.version + 3, made.chart!.id, null],
      ],
    );
    await back.next('operation', (f) => f.data.version === made.version + 2);
    assert.equal(back.frames.filter((f) => f.type === 'sync').length, 0);
  });

  it('a chart stored with a box in pixels (before boxes were anchored) is read anchored to the cell under it, and moves with it from then on', async () => {
    const s = await sheet();
    const { chart } = await addChart(s.id);
    // As an older api stored it: pixels from the grid's top left (314, 76: 24 px into C3 on the nominal grid).
    const legacy = { ...chart!, box: { x: 314, y: 76, width: 480, height: 300 } };
    const row = await t.app.db.selectFrom('sheets').select('extra').where('id', '=', s.id).executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('sheets')
      .set({ extra: JSON.stringify({ ...(row.extra as object), charts: [legacy] }) })
      .where('id', '=', s.id)
      .execute();
    const anchored = { row: 2, col: 2, dx: 24, dy: 0, width: 480, height: 300 };
    assert.deepEqual((await chartsNow(s.id))[0].box, anchored);
    const a = await LiveClient.join(base, s.id, admin.accessToken, { since: (await read(s.id)).version });
    open.push(a);
    a.send({ type: 'operation', sheet_id: s.id, operation: { id: 'up', type: 'rows_insert', index: 1, count: 3 } });
    await a.next('ack');
    assert.deepEqual((await chartsNow(s.id))[0].box, { ...anchored, row: 5 });
    // An older client's write in pixels is read the same way.
    const old = await api.put(`/api/v1/sheets/${s.id}/charts/${chart!.id}`, { ...options(), box: { x: 50, y: 30, width: 480, height: 300 } });
    assert.equal(old.statusCode, 200, old.body);
    assert.deepEqual((await chartsNow(s.id))[0].box, { row: 0, col: 0, dx: 0, dy: 0, width: 480, height: 300 });
  });

  it('a viewer sees the charts but cannot add, change or delete one (403, nothing changed)', async () => {
    const s = await sheet();
    const { chart } = await addChart(s.id);
    const viewer = await signedInMember(t.app, 'user');
    const shared = await api.put(`/api/v1/sheets/${s.id}/access`, {
      entries: [
        { user_id: viewer.userId, level: 'viewer' },
        { user_id: null, level: 'none' },
      ],
    });
    assert.equal(shared.statusCode, 200, shared.body);
    const v = apiClient(t.app, viewer.accessToken);
    const seen = SheetSchema.parse((await v.get(`/api/v1/sheets/${s.id}`)).json());
    assert.deepEqual(chartsOf(seen.metadata), [chart]);
    const before = await read(s.id);
    for (const res of [
      await v.post(`/api/v1/sheets/${s.id}/charts`, options()),
      await v.put(`/api/v1/sheets/${s.id}/charts/${chart!.id}`, options({ title: 'Mine' })),
      await v.delete(`/api/v1/sheets/${s.id}/charts/${chart!.id}`),
    ]) {
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().error.message, ACCESS_TEXTS.viewOnly);
    }
    const afterAll = await read(s.id);
    assert.equal(afterAll.version, before.version);
    assert.deepEqual(chartsOf(afterAll.metadata), [chart]);
  });
});
