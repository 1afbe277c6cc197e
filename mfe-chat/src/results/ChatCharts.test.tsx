import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TEXTS, AI_CHART_TEXTS, type AiChartRequest } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import ChatPanel from '../chat-panel/ChatPanel.js';
import { hybridReply, startFakeServices, testShell } from '../test/fake-services.js';
import { closeAllLoopbackServers, json } from '@tessera/jest-react/loopback';

// Issue 20: a chart the AI made is linked from its message; one over the result is made on the
// result's new sheet through the api's chart route.
afterEach(async () => {
  cleanup();
  await closeAllLoopbackServers();
});

const budget = { id: 'sheet-1', name: 'Budget', headers: ['Region', 'Amount'], rows: [['North', 10], ['South', 5]] as (string | number)[][] };
const CHART_ID = '7b0e3f4c-1c1d-4a39-9a43-5a8c3a0c0a07';
const request = (over: Partial<AiChartRequest> = {}): AiChartRequest => ({
  target: 'result',
  type: 'column',
  range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 },
  categories: 'first_column',
  title: 'Total by Region',
  x_axis_title: 'Region',
  y_axis_title: 'Total',
  ...over,
});

async function panelReplying(reply: unknown, chartStatus = 201) {
  const posted: { path: string; body: Record<string, unknown> }[] = [];
  const services = await startFakeServices({
    routes: (req, res) => {
      if (req.path === '/hybrid/forward') return json(res, 200, reply);
      if (req.method === 'POST' && /^\/api\/v1\/sheets\/[^/]+\/charts$/.test(req.path)) {
        const body = req.body as Record<string, unknown>;
        posted.push({ path: req.path, body });
        if (chartStatus !== 201) return json(res, chartStatus, { error: { code: 'forbidden', message: ACCESS_TEXTS.viewOnly } });
        const chart = { ...body, id: CHART_ID };
        return json(res, 201, { version: 3, charts: [chart], chart });
      }
      return false;
    },
  });
  const opened: string[] = [];
  const focused: string[] = [];
  const { shell } = testShell(services.server, budget);
  shell.sheet.open = (id) => opened.push(String(id));
  shell.bus.on('chart-focus', (e) => focused.push(`${e.sheetId} ${e.chartId}`));
  renderInShell(<ChatPanel shell={shell} />);
  await screen.findByText(/^AI service: builtin/);
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'chart of Amount by Region' } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  return { services, posted, opened, focused };
}
const messages = () => screen.getByRole('log', { name: 'Messages' });

test("a chart over the result is made on the result's new sheet (a column chart over its table, beside it); 'Show chart' opens that sheet and shows the chart", async () => {
  const totals = { headers: ['Region', 'Total'], rows: [['North', 10], ['South', 5]] };
  const { services, posted, opened, focused } = await panelReplying(hybridReply(totals, { chart: { request: request() } }));
  const link = await within(messages()).findByRole('button', { name: AI_CHART_TEXTS.show('Total by Region') });
  const [[sheetId]] = [...services.sheets];
  expect(posted).toEqual([
    {
      path: `/api/v1/sheets/${sheetId}/charts`,
      body: {
        type: 'column',
        range: { start_row: 0, start_col: 0, end_row: 1, end_col: 1 },
        categories: 'first_column',
        title: 'Total by Region',
        x_axis_title: 'Region',
        y_axis_title: 'Total',
        legend: 'bottom',
        stacked: false,
        box: { row: 0, col: 2, dx: 24, dy: 0, width: 480, height: 300 },
      },
    },
  ]);
  await userEvent.click(link);
  expect(opened).toEqual([sheetId]);
  expect(focused).toEqual([`${sheetId} ${CHART_ID}`]);
});

test("a chart the ai-middleware made on the active sheet is linked as it is; one it could not make says the api's reason", async () => {
  const made = { chart: { request: request({ target: 'sheet', title: 'Amounts' }), sheet_id: 'sheet-1', chart_id: CHART_ID } };
  const first = await panelReplying(hybridReply(null, made));
  await userEvent.click(await within(messages()).findByRole('button', { name: AI_CHART_TEXTS.show('Amounts') }));
  // Budget is shown already: not opened again, the chart is shown.
  expect(first.opened).toEqual([]);
  expect(first.focused).toEqual([`sheet-1 ${CHART_ID}`]);
  expect(first.posted).toEqual([]);
  cleanup();
  await closeAllLoopbackServers();

  const refused = { chart: { request: request({ target: 'sheet' }), sheet_id: 'sheet-1', error: ACCESS_TEXTS.viewOnly } };
  const second = await panelReplying(hybridReply(null, refused));
  expect(await within(messages()).findByText(AI_CHART_TEXTS.notMade(ACCESS_TEXTS.viewOnly), { exact: false })).toBeInTheDocument();
  expect(within(messages()).queryByRole('button', { name: /^Show chart/ })).toBeNull();
  expect(second.posted).toEqual([]);
});
