// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the gVisor engine's figures.
// Issue 19: Matplotlib (and seaborn) figures and printed DataFrames, with real code in the REAL
// gVisor engine (runsc, Debian's CPython with matplotlib), seen from the runner and from
// POST /hybrid/forward (Agent • Direct Exec) as the chat and the Code tab read it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CODE_RUN_MAX_FIGURES, type CodeRunFigure, HybridResponseSchema } from '@tessera/contracts';
import { type CodeRunner, createCodeRunner } from '../src/runner/code-runner.js';
import { SessionService } from '../src/sessions/session.service.js';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SALES = {
  headers: ['Region', 'Amount'],
  rows: [
    ['North', 10],
    ['South', 5.5],
    ['North', 2],
    ['East', 1],
  ],
};

/** The figure's bytes are a PNG of the size it says (read from its own header), and not an empty one. */
function assertPng(figure: CodeRunFigure | undefined, width: number, height: number): Buffer {
  assert.ok(figure, 'a figure came back');
  assert.equal(figure.mime, 'image/png');
  const png = Buffer.from(figure.data, 'base64');
  assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  assert.equal(png.readUInt32BE(16), width);
  assert.equal(png.readUInt32BE(20), height);
  assert.equal(figure.width, width);
  assert.equal(figure.height, height);
  // A drawn chart, not a blank canvas: Matplotlib's blank canvases here are 0.7–2.4 KB (200×200 to 640×480).
  assert.ok(png.length > 2500, `${png.length} bytes`);
  return png;
}

describe('figures from the gVisor engine', () => {
  let runner: CodeRunner;
  before(async () => {
    runner = createCodeRunner({ engine: 'gvisor', timeoutMs: 20_000, memoryMb: 512, poolSize: 2 });
    assert.equal((await runner.engine())?.name, 'gvisor', runner.status().reason);
  });
  after(() => runner.close());

  test('plt.show() and a figure left open come back as PNGs, in order, beside the grid', async () => {
    const out = await runner.run({
      ...SALES,
      code: [
        'import matplotlib.pyplot as plt',
        'totals = df.groupby("Region")["Amount"].sum()',
        'totals.plot.bar(figsize=(4, 3))',
        'plt.show()',
        'fig, ax = plt.subplots(figsize=(6, 2))',
        'ax.plot(df["Amount"])',
        'result = totals',
      ].join('\n'),
    });
    assert.equal(out.error, undefined);
    assert.equal(out.figures?.length, 2);
    assertPng(out.figures?.[0], 400, 300);
    assertPng(out.figures?.[1], 600, 200);
    assert.equal(out.figures_omitted, undefined);
    assert.deepEqual(out.grid?.rows, [['East', 1], ['North', 12], ['South', 5.5]]);
  });

  test('a Figure, or seaborn\'s Axes, as `result` is a figure (not a result)', async () => {
    const figure = await runner.run({ ...SALES, code: 'import matplotlib.pyplot as plt\nresult = plt.figure(figsize=(3, 3))\nresult.gca().pie([1, 2, 3])' });
    assert.equal(figure.error, undefined);
    assert.equal(figure.result, null);
    assert.equal(figure.grid, undefined);
    assert.equal(figure.figures?.length, 1);
    assertPng(figure.figures?.[0], 300, 300);

    const seaborn = await runner.run({ ...SALES, code: 'import seaborn as sns\nsns.barplot(data=df, x="Region", y="Amount")' });
    assert.equal(seaborn.error, undefined);
    assert.equal(seaborn.result, null);
    assert.equal(seaborn.figures?.length, 1);
    assertPng(seaborn.figures?.[0], 640, 480);
  });

  test(`past ${CODE_RUN_MAX_FIGURES} figures the rest are left out and counted; a huge canvas is drawn smaller`, async () => {
    const many = await runner.run({
      ...SALES,
      code: 'import matplotlib.pyplot as plt\nfor i in range(11):\n    plt.figure(figsize=(2, 2)).gca().plot([0, i])\n    plt.show()',
    });
    assert.equal(many.error, undefined);
    assert.equal(many.figures?.length, CODE_RUN_MAX_FIGURES);
    assert.equal(many.figures_omitted, 11 - CODE_RUN_MAX_FIGURES);

    const huge = await runner.run({ ...SALES, code: 'import matplotlib.pyplot as plt\nplt.figure(figsize=(400, 20)).gca().plot([0, 1])' });
    assert.equal(huge.error, undefined);
    assert.equal(huge.figures?.[0]?.width, 4000);
    assert.equal(huge.figures?.[0]?.height, 200);
  });

  test('print(df) makes the last printed DataFrame the grid, in its column order; `result` still wins; no index column after a sort', async () => {
    const printed = await runner.run({
      ...SALES,
      code: 'print(df.head(1))\nprint("totals:")\nprint(df.groupby("Region", sort=False).sum()[["Amount"]].assign(Rank=[1, 2, 3]))',
    });
    assert.equal(printed.error, undefined);
    assert.match(printed.execution_output, /totals:\n/);
    assert.deepEqual(printed.grid?.headers, ['Region', 'Amount', 'Rank']);
    assert.deepEqual(printed.grid?.rows, [['North', 12, 1], ['South', 5.5, 2], ['East', 1, 3]]);

    const assigned = await runner.run({ ...SALES, code: 'print(df)\nresult = {"headers": ["only"], "rows": [[1]]}' });
    assert.deepEqual(assigned.grid?.headers, ['only']);

    // Sorted or filtered, a frame keeps only its own columns (its leftover row numbers are no column);
    // value_counts()'s unnamed index of values is one.
    const sorted = await runner.run({ ...SALES, code: 'result = df[df.Amount > 1].sort_values("Amount")' });
    assert.deepEqual(sorted.grid?.headers, ['Region', 'Amount']);
    assert.deepEqual(sorted.grid?.rows, [['North', 2], ['South', 5.5], ['North', 10]]);
    const counts = await runner.run({ ...SALES, code: 'result = df.Region.value_counts().rename("Orders")' });
    assert.deepEqual(counts.grid?.headers, ['index', 'Orders']);
    assert.deepEqual(counts.grid?.rows[0], ['North', 2]);
  });
});

describe('POST /hybrid/forward (Direct Exec) on the gVisor engine: the figures in the reply', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let auth: Record<string, string>;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl, { runner: { engine: 'gvisor', timeoutMs: 20_000, memoryMb: 512, poolSize: 1 } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    auth = { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` };
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('a bar chart comes back as a PNG the panel can show, the message counts it, and the session keeps it', async () => {
    const sessions = new SessionService(t.app.db);
    const session = await sessions.create('user-1', { session_name: 'Charts' });
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        problem: '',
        enable_ai_generation: false,
        merge_timeline: false,
        sheet_context: { name: 'Sales' },
        session_id: session.session_id,
        handsontable_data: { spreadsheet_data: SALES },
        code: 'import matplotlib.pyplot as plt\ndf.groupby("Region")["Amount"].sum().plot.bar()\nplt.show()',
      }),
    });
    assert.equal(res.status, 200);
    const reply = HybridResponseSchema.parse(await res.json());
    assert.equal(reply.success, true);
    assert.equal(reply.message, 'Code executed: 1 figure');
    assert.equal(reply.has_grid, false);
    assert.equal(reply.figures?.length, 1);
    assertPng(reply.figures?.[0], 640, 480);
    // A reload of the chat reads the session: the answer still has its chart.
    const [, answer] = await sessions.lastMessages('user-1', session.session_id, 10, { withFigures: true });
    assert.equal(answer?.role, 'assistant');
    assert.deepEqual(answer?.metadata.figures, reply.figures);
  });

  // The built-in assistant (no model) writes pandas on this engine, with the answers of its plain
  // Python on Pyodide: blanks left out, "1,200" counted, the rows of a top N as the sheet has them.
  const SHEET = {
    headers: ['Region', 'Product', 'Amount'],
    rows: [
      ['North', 'Tea', 10],
      ['South', 'Coffee', '5.5'],
      ['North', 'Cake', 2],
      ['East', 'Tea', '1,200'],
      [' ', 'Tea', 3],
      [null, null, null],
    ],
  };
  const askBuiltin = async (problem: string) => {
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ problem, enable_ai_generation: true, merge_timeline: false, sheet_context: { name: 'Sales' }, handsontable_data: { spreadsheet_data: SHEET } }),
    });
    assert.equal(res.status, 200);
    const reply = HybridResponseSchema.parse(await res.json());
    assert.equal(reply.provider, 'builtin');
    return reply;
  };

  test('the built-in assistant writes pandas: totals by a column, describe, top N', async () => {
    const totals = await askBuiltin('total of Amount by Region');
    assert.equal(totals.success, true, totals.error);
    assert.match(totals.code ?? '', /^# Written by the built-in assistant \(no AI model\): pandas/);
    assert.match(totals.code ?? '', /\.groupby\(keys, sort=False\)\.sum\(\)/);
    assert.deepEqual(totals.grid_update?.headers, ['Region', 'Total of Amount']);
    assert.deepEqual(totals.grid_update?.rows, [['(blank)', 3], ['East', 1200], ['North', 12], ['South', 5.5]]);

    const described = await askBuiltin('describe Amount and Region');
    assert.deepEqual(described.grid_update?.rows, [
      ['Amount', 5, 1220.5, 244.1, 2, 1200, 5],
      ['Region', 4, null, null, 'East', 'South', 3],
    ]);

    const top = await askBuiltin('top 2 by Amount');
    assert.match(top.code ?? '', /nlargest\(2, keep="first"\)/);
    assert.deepEqual(top.grid_update?.rows, [SHEET.rows[3], SHEET.rows[0]]);
  });

  test("'chart of Amount by Region': a Matplotlib bar chart, with the table behind it", async () => {
    const reply = await askBuiltin('chart of Amount by Region');
    assert.equal(reply.success, true, reply.error);
    assert.match(reply.code ?? '', /ax\.bar\(/);
    assert.equal(reply.figures?.length, 1);
    assertPng(reply.figures?.[0], 800, 450);
    assert.deepEqual(reply.grid_update?.rows, [['(blank)', 3], ['East', 1200], ['North', 12], ['South', 5.5]]);
    // And a Tessera column chart over that table, made on the sheet the panel creates of it (issue 20).
    assert.deepEqual(reply.chart, {
      request: {
        target: 'result',
        type: 'column',
        range: { start_row: 0, start_col: 0, end_row: 3, end_col: 1 },
        categories: 'first_column',
        title: 'Total of Amount by Region',
        x_axis_title: 'Region',
        y_axis_title: 'Total of Amount',
      },
    });
  });
});
