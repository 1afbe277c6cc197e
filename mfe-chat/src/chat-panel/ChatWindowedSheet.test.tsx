import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HYBRID_MAX_CELLS } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { closeAllLoopbackServers, json, type LoopbackRequest as Request } from '@tessera/jest-react/loopback';
import { hybridReply, startFakeServices, testShell, type TestSheet } from '../test/fake-services.js';
import ChatPanel from './ChatPanel.js';

/**
 * Issue 23: the chat on a sheet shown a window at a time. The Workspace reports getData() null
 * for it and its cells through loadData(); an older mfe-sheets reports getData() only, and an
 * older shell forwards no loadData() — the chat reads the cells whichever it gets.
 */
afterEach(async () => {
  cleanup();
  await closeAllLoopbackServers();
});

const rows = Array.from({ length: 40 }, (_, r) => [`r${r}`, r]);
const sheetOf = (fields: Partial<TestSheet> = {}): TestSheet => ({ id: 'sheet-1', name: 'Big', headers: ['Name', 'N'], rows, ...fields });
const windowed = sheetOf({ windowed: {} });

async function openPanel(sheet: TestSheet, options: { oldShell?: boolean; reply?: () => unknown } = {}) {
  const services = await startFakeServices({
    routes: (req, res) => {
      if (req.path === '/vertex/stream') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`data: ${JSON.stringify({ text: 'ok', finished: true, error: null, session_id: null })}\n\n`);
      if (req.path === '/hybrid/forward') return json(res, 200, options.reply ? options.reply() : hybridReply(null));
      return false;
    },
  });
  const test = testShell(services.server, sheet);
  // A shell built before loadData forwards getData() only.
  if (options.oldShell) delete test.shell.sheet.loadData;
  renderInShell(<ChatPanel shell={test.shell} />);
  await screen.findByText(/^AI service: builtin/);
  return { services, ...test };
}

const messages = () => screen.getByRole('log', { name: 'Messages' });
const hybridCalls = (requests: Request[]) => requests.filter((r) => r.path === '/hybrid/forward');

async function directExec(code: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: code } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}

async function chat(text: string) {
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), `${text}{Enter}`);
  await within(messages()).findByText('ok');
}

describe.each([
  ['a windowed sheet (loadData)', windowed, false],
  ['a sheet reported by an older mfe-sheets (getData only)', sheetOf(), false],
  ['a sheet in an older shell (no loadData forwarded)', sheetOf(), true],
])('on %s', (_name, sheet, oldShell) => {
  test('a chat message carries the first rows and the selected cell', async () => {
    const { services, shell, loads } = await openPanel(sheet, { oldShell });
    shell.sheet.select(30, 0);
    await chat('What is there?');
    const call = services.server.requests.find((r) => r.path === '/vertex/stream');
    expect(call?.body).toMatchObject({
      workspace_context: { current_sheet: { id: 'sheet-1', total_rows: 40, total_columns: 2, sample_rows: rows.slice(0, 5), selected_cells: [{ row: 30, col: 0, value: 'r30' }] } },
    });
    // Only the rows the model is shown are read of a windowed sheet, never the whole of it.
    expect(loads).toEqual(sheet.windowed ? [{ start: 0, count: 5 }, { start: 30, count: 1 }] : []);
  });

  test('Direct Exec sends every row of the sheet', async () => {
    const { services, loads } = await openPanel(sheet, { oldShell });
    await directExec('print(len(rows))');
    await within(messages()).findByText('Code executed successfully');
    const [call] = hybridCalls(services.server.requests);
    expect(call.body).toMatchObject({ sheet_context: { rowCount: 40, columnCount: 2 }, handsontable_data: { spreadsheet_data: { headers: ['Name', 'N'], rows } } });
    expect(loads).toEqual(sheet.windowed ? [undefined] : []);
  });

  test('a result with the sheet’s headers changes only the cells that differ from the sheet’s', async () => {
    const result = rows.map((row, r) => (r < 3 ? [row[0], 100 + r] : row));
    const { sent } = await openPanel(sheet, { oldShell, reply: () => hybridReply({ headers: ['Name', 'N'], rows: result }) });
    await directExec('rows[0:3] += 100');
    await waitFor(() => expect(within(messages()).getByText(/cells changed\./)).toHaveTextContent('Updated Big: 3 cells changed.'));
    expect(sent).toEqual([expect.objectContaining({ type: 'cells_update', changes: [0, 1, 2].map((r) => ({ row: r, col: 1, value: 100 + r })) })]);
  });
});

test('a windowed sheet past the cells a job may carry is refused with the route’s text before any row is read', async () => {
  const size = { rows: 1_000_000, cols: 10 };
  const { services, loads } = await openPanel(sheetOf({ windowed: { size } }));
  await directExec('print(len(rows))');
  await within(messages()).findByText(`Error: the sheet has ${size.rows * 10} cells (rows × columns); at most ${HYBRID_MAX_CELLS} can be sent`);
  expect(hybridCalls(services.server.requests)).toEqual([]);
  expect(loads).toEqual([]);
});

test('a windowed sheet whose rows cannot be read: the result is not applied, the reason is told', async () => {
  const result = rows.map((row, r) => (r === 0 ? [row[0], 'x'] : row));
  const { shell, sent } = await openPanel(windowed, { reply: () => hybridReply({ headers: ['Name', 'N'], rows: result }) });
  // The sheet is read for the job; the read for placing the result fails.
  const load = shell.sheet.loadData!.bind(shell.sheet);
  let reads = 0;
  shell.sheet.loadData = (range) => (++reads > 1 ? Promise.reject(new Error("The sheet's rows could not be read")) : load(range));
  await directExec('rows[0][1] = "x"');
  await within(messages()).findByText("Error: The sheet's rows could not be read");
  expect(sent).toEqual([]);
});
