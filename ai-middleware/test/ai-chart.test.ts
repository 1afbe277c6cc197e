// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the AI's charts through the real api.
// Issue 20: the AI makes Tessera charts. A model's ```chart-json block over the active sheet
// becomes a chart through the REAL api's chart route (its build, on PGlite or PostgreSQL) with
// the user's own token — a viewer's is refused with the route's own text and nothing is stored;
// one over the result is handed to the panel (which makes the result's sheet) with its range.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACCESS_TEXTS, type HybridResponse, HybridResponseSchema, SheetSchema, chartsOf } from '@tessera/contracts';
import { extractChartRequest } from '../src/hybrid/ai-chart.js';
import { codeSystemPrompt } from '../src/hybrid/code-prompt.js';
import { type RealApi, startRealApi } from './helpers/real-api.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';
import { type FakeOpenAi, startFakeOpenAi } from './support/fake-openai.js';

const backend = process.env.TEST_PG_URL ? 'PostgreSQL' : 'PGlite';
const HEADERS = ['Region', 'Amount'];
const ROWS = [
  ['North', 10],
  ['South', 5.5],
  ['East', 1],
];
const TOTALS_CODE = 'result = {"headers": ["Region", "Total"], "rows": [[r[0], r[1]] for r in rows]}\nprint("done")';
const reply = (chart: object | string) => ({
  chunks: [`\`\`\`python\n${TOTALS_CODE}\n\`\`\`\n`, `\`\`\`chart-json\n${typeof chart === 'string' ? chart : JSON.stringify(chart)}\n\`\`\`\n`],
});

describe('a chart-json block in a model reply', () => {
  const grid = { headers: ['Region', 'Total'], rows: [['North', 10], ['South', 5.5]] };
  test('is read as a chart request: A1 ranges (A1 the first row under the headers), defaults, the whole result when no range', () => {
    const text = (o: object) => `\`\`\`python\nx=1\n\`\`\`\n\`\`\`chart-json\n${JSON.stringify(o)}\n\`\`\``;
    assert.deepEqual(extractChartRequest(text({ target: 'sheet', range: 'b3:A1', title: 'Sales' }), undefined), {
      target: 'sheet',
      type: 'column',
      range: { start_row: 0, start_col: 0, end_row: 2, end_col: 1 },
      categories: 'first_column',
      title: 'Sales',
      x_axis_title: '',
      y_axis_title: '',
    });
    assert.deepEqual(extractChartRequest(text({ target: 'result', type: 'line' }), grid), {
      target: 'result',
      type: 'line',
      range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 },
      categories: 'first_column',
      title: '',
      x_axis_title: '',
      y_axis_title: '',
    });
    assert.equal(extractChartRequest('```python\nx=1\n```', grid), null);
  });
  test('what is not a chart is said so, and nothing is asked', () => {
    assert.deepEqual(extractChartRequest('```chart-json\n{nope\n```', grid), { error: 'The chart-json block is not JSON' });
    assert.deepEqual(extractChartRequest('```chart-json\n{"target":"sheet","range":"A0:B2"}\n```', grid), {
      error: 'The chart-json range "A0:B2" is not a range like A1:B10',
    });
    assert.deepEqual(extractChartRequest('```chart-json\n{"target":"sheet"}\n```', grid), { error: 'The chart-json block names no range' });
    assert.match((extractChartRequest('```chart-json\n{"target":"elsewhere","range":"A1:B2"}\n```', grid) as { error: string }).error, /^The chart-json block is not a chart/);
  });
  test('the model is told how to ask for one, on either engine', () => {
    for (const prompt of [codeSystemPrompt(), codeSystemPrompt({ name: 'gvisor', packages: { pandas: '1.5.3' } })]) {
      assert.match(prompt, /```chart-json block/);
      assert.match(prompt, /"target": "result".*or "sheet"/);
    }
  });
});

describe(`the AI's chart through the real api (${backend})`, () => {
  let api: RealApi;
  let auth: Record<string, string>;
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let sheetId: string;

  const sheetNow = async () => SheetSchema.parse(await (await fetch(`${api.base}/api/v1/sheets/${sheetId}`, { headers: auth })).json());
  const forward = async (authorization: string): Promise<HybridResponse> => {
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        sheet_context: { id: sheetId, name: 'Sales', version: 1 },
        handsontable_data: { spreadsheet_data: { headers: HEADERS, rows: ROWS } },
        problem: 'chart the amounts by region',
        enable_ai_generation: true,
        merge_timeline: false,
      }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return HybridResponseSchema.parse(await res.json());
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
    fake = await startFakeOpenAi();
    t = await startTestApp(api.base, {
      provider: 'openai',
      openai: { baseUrl: fake.baseUrl, model: 'fake-coder-1', apiKey: 'sk-fake' },
      runner: { engine: 'pyodide', timeoutMs: 8000, memoryMb: 256, poolSize: 1 },
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await api?.close();
  });

  test("over the active sheet: made by the api for the user, on the sheet's cells, and the reply names it", async () => {
    fake.reply(reply({ target: 'sheet', type: 'column', range: 'A1:B3', title: 'Amount by region', x_axis_title: 'Region', y_axis_title: 'Amount' }));
    const response = await forward(auth.authorization);
    assert.equal(response.success, true, response.error);
    assert.equal(response.chart?.error, undefined);
    assert.equal(response.chart?.sheet_id, sheetId);
    const stored = chartsOf((await sheetNow()).metadata);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].id, response.chart?.chart_id);
    assert.deepEqual(
      { type: stored[0].type, title: stored[0].title, range: stored[0].range, row: stored[0].box.row, col: stored[0].box.col },
      { type: 'column', title: 'Amount by region', range: { start_row: 0, start_col: 0, end_row: 2, end_col: 1 }, row: 0, col: 2 },
    );
    // The result table is still the answer (the figures and grids of issue 19 are untouched).
    assert.deepEqual(response.grid_update?.headers, ['Region', 'Total']);
  });

  test("a viewer's request is refused with the chart route's own text; nothing is stored", async () => {
    const bob = await api.viewerOf(auth, sheetId, 'viewer-bob');
    const before = await sheetNow();
    fake.reply(reply({ target: 'sheet', range: 'A1:B3', title: 'Mine' }));
    const response = await forward(bob);
    assert.equal(response.success, true, response.error);
    assert.equal(response.chart?.error, ACCESS_TEXTS.viewOnly);
    assert.equal(response.chart?.chart_id, undefined);
    const afterAll = await sheetNow();
    assert.equal(afterAll.version, before.version);
    assert.deepEqual(chartsOf(afterAll.metadata), chartsOf(before.metadata));
  });

  test('over the result: handed to the panel with the whole result as its range; nothing is made on the active sheet', async () => {
    const before = await sheetNow();
    fake.reply(reply({ target: 'result', type: 'bar', title: 'Totals' }));
    const response = await forward(auth.authorization);
    assert.equal(response.success, true, response.error);
    assert.deepEqual(response.chart, {
      request: { target: 'result', type: 'bar', range: { start_row: 0, start_col: 0, end_row: 2, end_col: 1 }, categories: 'first_column', title: 'Totals', x_axis_title: '', y_axis_title: '' },
    });
    assert.equal((await sheetNow()).version, before.version);
  });
});
