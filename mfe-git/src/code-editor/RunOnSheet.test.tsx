import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HYBRID_MAX_CELLS, HybridForwardRequestSchema, createDevShellContext, type HybridResponse, type ShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { json, startLoopbackServer, type LoopbackServer } from '@tessera/jest-react/loopback';
import { EditorLoaderContext, type EditorLoader } from '../editor/editor-loader.js';
import { startGitApi, type GitTestApi } from '../test-support/git-test-api.js';
import { recordingLive, type RecordingLive } from '../test-support/recording-live.js';
import CodeEditor from './CodeEditor.js';

const pendingEditor: EditorLoader = () => new Promise(() => {});

let git: GitTestApi;
let live: RecordingLive;
let sheetsApi: LoopbackServer;

const SHEET_ROWS = [['Rent', 1200], ['Food', 300]];

/** What the ai-middleware answers for Direct Exec (spec 02 §3 hybrid response), given the grid the code produced. */
function reply(fields: Partial<HybridResponse>): HybridResponse {
  return {
    success: true,
    status: 'success',
    message: 'Code executed',
    mode: 'agent-direct',
    execution_output: '',
    result: null,
    has_grid: false,
    langchain_result: { status: 'success', message: 'Code executed' },
    ...fields,
  };
}
const gridReply = (headers: string[], rows: (string | number | null)[][], output = '') =>
  reply({
    execution_output: output,
    has_grid: true,
    grid_update: { headers, rows, updated: true, source: 'list_of_lists', metadata: { hash: 'h', detected_by: 'list_of_lists' } },
  });

beforeEach(async () => {
  git = await startGitApi();
  git.commitAs('ann', { 'README.md': '# r\n', 'jobs/raise.py': 'rows = [[r[0], r[1] * 2] for r in rows]\nrows\n' });
  live = recordingLive(7);
  // The api's sheet routes the new-sheet path uses (POST /sheets, PUT /sheets/{id}).
  sheetsApi = await startLoopbackServer((req, res) => {
    const name = req.method === 'POST' ? (req.body as { name: string }).name : 'AI Generated Sheet';
    const now = new Date().toISOString();
    json(res, req.method === 'POST' ? 201 : 200, {
      id: 'new-sheet',
      name,
      version: 1,
      created_at: now,
      updated_at: now,
      group_id: null,
      position: 0,
      is_favorite: false,
      metadata: { headers: [], description: '', tags: [], rows: 0, columns: 0, groupId: null, position: 0, category: 'General' },
    });
  });
});
afterEach(async () => {
  await git.close();
  await sheetsApi.close();
});

/** The Code tab with the Budget sheet open (as the Workspace reports it to the shell), or with none. */
function shellWith(sheet: boolean): ShellContext {
  const shell = createDevShellContext({ aiBaseURL: git.url, apiBaseURL: sheetsApi.url, sheetId: sheet ? 's-1' : null });
  if (sheet) {
    shell.sheet.report({ id: 's-1', name: 'Budget', headers: ['Item', 'Cost'], size: { rows: 2, cols: 2 }, version: 7, getData: () => SHEET_ROWS.map((r) => [...r]) });
  }
  return { ...shell, live };
}

async function openCodeTab(shell = shellWith(true)) {
  renderInShell(
    <EditorLoaderContext.Provider value={pendingEditor}>
      <CodeEditor shell={shell} />
    </EditorLoaderContext.Provider>,
  );
  await screen.findByText(/rows = \[\[r\[0\]/);
  return { shell, button: screen.getByRole('button', { name: 'Run on sheet' }) };
}

test('Run on sheet sends the open .py file with the sheet to Direct Exec; a result with the same headers goes to the sheet as live operations (no reload: the shell tells this tab\'s grid each acknowledged one)', async () => {
  const bodies: unknown[] = [];
  git.hybridForward = (body) => {
    bodies.push(body);
    return { status: 200, body: gridReply(['Item', 'Cost'], [['Rent', 2400], ['Food', 600]], 'doubled\n') };
  };
  const { button } = await openCodeTab();
  live.hold();
  await userEvent.click(button);

  expect(await screen.findByTestId('run-status')).toHaveTextContent('Updating the sheet: 2 cells...');
  expect(screen.getByTestId('run-output')).toHaveTextContent('doubled');
  const sent = HybridForwardRequestSchema.parse(bodies[0]);
  expect(sent).toMatchObject({
    enable_ai_generation: false,
    code: 'rows = [[r[0], r[1] * 2] for r in rows]\nrows\n',
    sheet_id: 's-1',
    merge_timeline: false,
    sheet_context: { id: 's-1', name: 'Budget', headers: ['Item', 'Cost'], rowCount: 2, columnCount: 2, version: 7 },
    handsontable_data: { spreadsheet_data: { headers: ['Item', 'Cost'], rows: SHEET_ROWS } },
  });
  expect(live.sent).toEqual([
    // On the version the sheet was at when the result was computed (7): rows inserted meanwhile do not shift it.
    { id: expect.any(String), type: 'cells_update', changes: [{ row: 0, col: 1, value: 2400 }, { row: 1, col: 1, value: 600 }], source: 'ai', base_version: 7 },
  ]);
  expect(live.reloads).toBe(0);

  // The server stores the operation and acknowledges it: done, and nobody is made to reload.
  live.release();
  await waitFor(() => expect(screen.getByTestId('run-status')).toHaveTextContent('Updated the sheet: 2 cells changed'));
  expect(live.reloads).toBe(0);
});

test('a result of another shape becomes a new sheet (AI Generated Sheet + time), announced on the bus', async () => {
  git.hybridForward = () => ({ status: 200, body: gridReply(['Total'], [[1500]]) });
  const { shell, button } = await openCodeTab();
  const events: string[] = [];
  shell.bus.on('create-sheet-from-chat', (e) => events.push(`announce ${e.name} ${e.origin}`));
  shell.bus.on('sheet-created', (e) => events.push(`created ${e.sheetId}`));
  await userEvent.click(button);

  await waitFor(() => expect(screen.getByTestId('run-status')).toHaveTextContent(/^Created sheet AI Generated Sheet \d\d-\d\d-\d\d$/), { timeout: 5000 });
  expect(live.sent).toEqual([]);
  expect(sheetsApi.requests.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/sheets', 'PUT /api/v1/sheets/new-sheet']);
  const put = sheetsApi.requests[1].body as { headers: string[]; data: unknown[][] };
  expect(put.headers).toEqual(['Total']);
  // Spec 02 §9: result rows + 5, at least 20 rows; at least 10 columns.
  expect(put.data).toHaveLength(20);
  expect(put.data[0]).toEqual([1500, null, null, null, null, null, null, null, null, null]);
  expect(events).toEqual([expect.stringMatching(/^announce AI Generated Sheet \d\d-\d\d-\d\d ai$/), 'created new-sheet']);
});

/** A real 1×1 PNG, as the gVisor engine returns a Matplotlib figure. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('figures the code made are shown under its output with a download; the sheet is left alone', async () => {
  git.hybridForward = () => ({
    status: 200,
    body: reply({ execution_output: 'plotted\n', message: 'Code executed: 1 figure', figures: [{ mime: 'image/png', data: PNG_1X1, width: 1, height: 1 }], figures_omitted: 1 }),
  });
  const { button } = await openCodeTab();
  await userEvent.click(button);
  const figures = await screen.findByRole('group', { name: 'Figures' });
  expect(within(figures).getByRole('img', { name: 'Figure 1' })).toHaveAttribute('src', `data:image/png;base64,${PNG_1X1}`);
  expect(within(figures).getByRole('link', { name: 'Download figure 1 (PNG)' })).toHaveAttribute('download', 'figure-1.png');
  expect(within(figures).getByText('1 figure was left out (at most 8 per run, 2 MB each)')).toBeInTheDocument();
  expect(screen.getByTestId('run-output')).toHaveTextContent('plotted');
  expect(screen.getByTestId('run-status')).toHaveTextContent('Ran on the sheet (no grid in the result)');
  expect(live.sent).toEqual([]);
});

test('a Python error shows the traceback and what was printed; the sheet is left alone', async () => {
  git.hybridForward = () => ({
    status: 200,
    body: reply({ success: false, status: 'failed', message: 'Execution failed', execution_output: 'started\n', error: 'Traceback:\nZeroDivisionError: division by zero' }),
  });
  const { button } = await openCodeTab();
  await userEvent.click(button);
  expect(await screen.findByTestId('run-status')).toHaveTextContent('Run failed');
  expect(screen.getByRole('alert')).toHaveTextContent('ZeroDivisionError: division by zero');
  expect(screen.getByTestId('run-output')).toHaveTextContent('started');
  expect(live.sent).toEqual([]);
});

test('a refused request shows the server message', async () => {
  git.hybridForward = () => ({ status: 503, body: { error: { code: 'code_runner_unavailable', message: 'The code runner needs root' } } });
  const { button } = await openCodeTab();
  await userEvent.click(button);
  expect(await screen.findByRole('alert')).toHaveTextContent('The code runner needs root');
});

test('disabled without a sheet, and for a file that is not Python', async () => {
  const { button } = await openCodeTab(shellWith(false));
  expect(button).toBeDisabled();
  await userEvent.click(within(screen.getByRole('tree', { name: 'Repository files' })).getByRole('button', { name: 'README.md' }));
  await screen.findByText('# r');
  expect(screen.getByRole('button', { name: 'Run on sheet' })).toBeDisabled();
});

test('enabled with a sheet and a .py file open; disabled when a non-.py file is opened', async () => {
  const { button } = await openCodeTab();
  expect(button).toBeEnabled();
  await userEvent.click(within(screen.getByRole('tree', { name: 'Repository files' })).getByRole('button', { name: 'README.md' }));
  await screen.findByText('# r');
  expect(screen.getByRole('button', { name: 'Run on sheet' })).toBeDisabled();
});

/** The Budget sheet as a windowed sheet is reported (issue 23): getData() null, its cells through loadData(). */
function windowedShell(size = { rows: 2, cols: 2 }): { shell: ShellContext; loads: unknown[] } {
  const shell = createDevShellContext({ aiBaseURL: git.url, apiBaseURL: sheetsApi.url, sheetId: 's-1' });
  const loads: unknown[] = [];
  shell.sheet.report({
    id: 's-1',
    name: 'Budget',
    headers: ['Item', 'Cost'],
    size,
    version: 7,
    getData: () => null,
    loadData: async (rows) => {
      loads.push(rows);
      return SHEET_ROWS.map((r) => [...r]);
    },
  });
  return { shell: { ...shell, live }, loads };
}

/** An older shell: the report is forwarded without loadData(). */
function olderShell(): ShellContext {
  const shell = shellWith(true);
  const { loadData: _dropped, ...sheet } = shell.sheet;
  return { ...shell, sheet: sheet as ShellContext['sheet'] };
}

test.each([
  ['a windowed sheet (loadData)', () => windowedShell().shell],
  ['an older shell (getData only)', olderShell],
])('on %s, Run on sheet sends the sheet\'s rows and a same-shaped result changes only the cells that differ', async (_name, makeShell) => {
  const bodies: unknown[] = [];
  git.hybridForward = (body) => {
    bodies.push(body);
    return { status: 200, body: gridReply(['Item', 'Cost'], [['Rent', 2400], ['Food', 300]]) };
  };
  const { button } = await openCodeTab(makeShell());
  await userEvent.click(button);
  await waitFor(() => expect(screen.getByTestId('run-status')).toHaveTextContent('Updated the sheet: 1 cell changed'));
  expect(HybridForwardRequestSchema.parse(bodies[0]).handsontable_data).toEqual({ spreadsheet_data: { headers: ['Item', 'Cost'], rows: SHEET_ROWS } });
  // Diffed against the real cells, not an empty grid (which would make all four cells changes).
  expect(live.sent).toEqual([{ id: expect.any(String), type: 'cells_update', changes: [{ row: 0, col: 1, value: 2400 }], source: 'ai', base_version: 7 }]);
});

test('a windowed sheet past the cells a job may carry is refused with the route\'s text, before its rows are read', async () => {
  const bodies: unknown[] = [];
  git.hybridForward = (body) => {
    bodies.push(body);
    return { status: 200, body: reply({}) };
  };
  const { shell, loads } = windowedShell({ rows: 1_000_000, cols: 10 });
  const { button } = await openCodeTab(shell);
  await userEvent.click(button);
  expect(await screen.findByText(`the sheet has 10000000 cells (rows × columns); at most ${HYBRID_MAX_CELLS} can be sent`, { exact: false })).toBeInTheDocument();
  expect(bodies).toEqual([]);
  expect(loads).toEqual([]);
});
