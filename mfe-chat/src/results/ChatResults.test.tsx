import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventMap } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import ChatPanel from '../chat-panel/ChatPanel.js';
import { hybridReply, startFakeServices, testShell } from '../test/fake-services.js';
import { closeAllLoopbackServers, json } from '@tessera/jest-react/loopback';

afterEach(async () => {
  cleanup();
  await closeAllLoopbackServers();
});

const budget = {
  id: 'sheet-1',
  name: 'Budget',
  headers: ['Region', 'Amount'],
  rows: [
    ['North', 10],
    ['South', 5],
    ['East', 7],
  ] as (string | number)[][],
};

/** The panel on Budget, in Standard mode and Direct Exec, with /hybrid/forward answering `reply`. */
async function panelReplying(reply: () => unknown) {
  const services = await startFakeServices({
    routes: (req, res) => (req.path === '/hybrid/forward' ? json(res, 200, reply()) : false),
  });
  const opened: string[] = [];
  const { shell, sent, reloads } = testShell(services.server, budget);
  shell.sheet.open = (id) => opened.push(String(id));
  shell.navigate = (to) => opened.push(`navigate ${to}`);
  const events: string[] = [];
  const record = <K extends keyof EventMap>(name: K) => shell.bus.on(name, (p) => events.push(`${name} ${JSON.stringify(p)}`));
  (['create-sheet-from-chat', 'sheet-created', 'sheet-snapshot-received', 'sheet-snapshot-merged', 'sheet-snapshot-merge-error', 'sheet-proposal'] as const).forEach(record);
  renderInShell(<ChatPanel shell={shell} />);
  await screen.findByText(/^AI service: builtin/);
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  return { services, shell, sent, events, opened, reloads };
}

async function run(code: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: code } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}
const messages = () => screen.getByRole('log', { name: 'Messages' });

test('a result with the sheet’s headers updates the active sheet through live operations', async () => {
  const sorted = { headers: budget.headers, rows: [['East', 7], ['North', 10], ['South', 5]] };
  const { sent, services, reloads } = await panelReplying(() => hybridReply(sorted));
  await run('result = sorted(rows)');
  // The reply's text shows at once and its Markdown once the renderer has loaded: wait for the drawn line.
  await waitFor(() => expect(within(messages()).getByText(/: 6 cells changed\./)).toHaveTextContent('Updated Budget: 6 cells changed.'));
  // On the version the result was computed on (the sheet's, 3): the server moves it through rows inserted since.
  expect(sent).toEqual([{ id: expect.any(String), type: 'cells_update', changes: expect.arrayContaining([{ row: 0, col: 0, value: 'East' }]), source: 'ai', base_version: 3 }]);
  expect(services.server.calls()).not.toContain('POST /api/v1/sheets');
  // Nobody is made to reload: the shell tells this tab's grid each acknowledged operation.
  expect(reloads()).toBe(0);
});

test('a result for a sheet the user may only view becomes a new sheet; nothing is sent to the viewed one', async () => {
  const sorted = { headers: budget.headers, rows: [['East', 7], ['North', 10], ['South', 5]] };
  const services = await startFakeServices({
    routes: (req, res) => {
      if (req.path === '/hybrid/forward') return json(res, 200, hybridReply(sorted));
      if (req.method === 'GET' && req.path === '/api/v1/sheets/sheet-1/access') {
        return json(res, 200, { item: { type: 'sheet', id: 'sheet-1', name: 'Budget' }, access: 'viewer', rows: [], workspace_default: 'editor' });
      }
      return false;
    },
  });
  const { shell, sent } = testShell(services.server, budget);
  renderInShell(<ChatPanel shell={shell} />);
  await screen.findByText(/^AI service: builtin/);
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await run('result = sorted(rows)');
  const note = await within(messages()).findByText(/^You can only view/);
  expect(note).toHaveTextContent(/^You can only view Budget, so the result went to a new sheet\. Created sheet AI Generated Sheet /);
  expect(sent).toEqual([]);
  expect(services.server.calls()).toContain('POST /api/v1/sheets');
  const [[, saved]] = [...services.sheets];
  expect(saved.headers).toEqual(['Region', 'Amount']);
});

test('a result of another shape becomes a new sheet, sized and named by §9, populated after it is created', async () => {
  const totals = { headers: ['Region', 'Total'], rows: [['North', 10], ['South', 5], ['East', 7]] };
  const { services, events, opened } = await panelReplying(() => hybridReply(totals));
  await run('result = totals');

  const note = await within(messages()).findByText(/^Created sheet/);
  expect(note).toHaveTextContent(/^Created sheet AI Generated Sheet \d\d-\d\d-\d\d \(20 rows × 10 cols\)\.$/);
  const create = services.server.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/sheets');
  expect(create?.body).toMatchObject({ name: expect.stringMatching(/^AI Generated Sheet \d\d-\d\d-\d\d$/), metadata: { rows: 20, columns: 10, origin: 'ai' } });
  const [[id, saved]] = [...services.sheets];
  expect(saved.headers).toEqual(['Region', 'Total']);
  expect(saved.data).toHaveLength(20);
  expect(saved.data?.[0]).toEqual(['North', 10, null, null, null, null, null, null, null, null]);
  expect(services.server.calls().filter((c) => c.includes('/api/v1/sheets'))).toEqual(['POST /api/v1/sheets', `PUT /api/v1/sheets/${id}`]);
  expect(events.map((e) => e.split(' ')[0])).toEqual(['create-sheet-from-chat', 'sheet-created']);
  expect(events[1]).toContain(`"sheetId":"${id}"`);

  await userEvent.click(within(messages()).getByRole('button', { name: /^Open AI Generated Sheet/ }));
  expect(opened).toEqual([id]);

  // The same grid again is not made into a second sheet.
  await run('result = totals');
  expect(await within(messages()).findByText('This grid was already made into a sheet.')).toBeInTheDocument();
  expect(services.server.calls().filter((c) => c === 'POST /api/v1/sheets')).toHaveLength(1);
});

test('a merged result (snapshot with a proposal) is accepted, not applied again', async () => {
  const sorted = { headers: budget.headers, rows: [['East', 7], ['North', 10], ['South', 5]] };
  const { sent, services, events } = await panelReplying(() =>
    hybridReply(sorted, { snapshot: { sheet_id: 'sheet-1', version_id: '11111111-2222-4333-8444-555555555555', status: 'proposed', base_version: 3 } }),
  );
  await run('result = sorted(rows)');
  expect(await within(messages()).findByText(/as version 4/)).toHaveTextContent('Applied to Budget as version 4.');
  expect(services.versions).toEqual(['accept 11111111-2222-4333-8444-555555555555']);
  expect(sent).toEqual([]);
  expect(events).toEqual([
    'sheet-snapshot-received {"sheetId":"sheet-1","version":4}',
    'sheet-snapshot-merged {"sheetId":"sheet-1","version":4}',
  ]);
});

test('a snapshot error is told with sheet-snapshot-merge-error and the result is applied by the panel', async () => {
  const edited = { headers: budget.headers, rows: [['North', 11], ['South', 5], ['East', 7]] };
  const { sent, events } = await panelReplying(() => hybridReply(edited, { snapshot: { sheet_id: 'sheet-1', error: 'HTTP 409: Base version 3 is stale' } }));
  await run('rows[0][1] = 11\nresult = {"headers": headers, "rows": rows}');
  await within(messages()).findByText(/1 cell changed/);
  expect(events).toEqual(['sheet-snapshot-merge-error {"sheetId":"sheet-1","error":"HTTP 409: Base version 3 is stale"}']);
  expect(sent).toEqual([{ id: expect.any(String), type: 'cells_update', changes: [{ row: 0, col: 1, value: 11 }], source: 'ai', base_version: 3 }]);
});

test('a failed run shows its error and changes nothing', async () => {
  const { sent, services } = await panelReplying(() => ({
    ...hybridReply(null, { success: false, status: 'failed', message: 'Execution failed', error: 'NameError: name "x" is not defined' }),
    langchain_result: { status: 'failed', message: 'NameError: name "x" is not defined' },
  }));
  await run('print(x)');
  expect(await within(messages()).findByText('Error: NameError: name "x" is not defined')).toBeInTheDocument();
  expect(screen.getByRole('status', { name: 'Progress' })).toHaveTextContent('Final response: failed');
  expect(sent).toEqual([]);
  expect(services.server.calls()).not.toContain('POST /api/v1/sheets');
});

test('git files and commits a reply names are links to the git tab', async () => {
  const { opened } = await panelReplying(() =>
    hybridReply(null, { langgraph_data: { frontend_panels: { git_history: [{ path: 'src/solver.py' }, { hash: 'abcdef1234', message: 'Add solver' }] } } }),
  );
  await run('print(1)');
  await userEvent.click(await within(messages()).findByRole('button', { name: 'src/solver.py' }));
  await userEvent.click(within(messages()).getByRole('button', { name: 'abcdef1' }));
  expect(opened).toEqual(['navigate /sheets/sheet-1?tab=git', 'navigate /sheets/sheet-1?tab=git']);
});

/** Two real PNGs (1×1 and 2×1), as the gVisor engine returns Matplotlib figures. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_2X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP8z8DwnwEIGAEAIPYD/8A/UhsAAAAASUVORK5CYII=';

test('figures the code made are shown in the reply, in order, each with a download; left-out ones are counted', async () => {
  const { sent, services } = await panelReplying(() =>
    hybridReply(null, {
      message: 'Code executed: 2 figures',
      figures: [
        { mime: 'image/png', data: PNG_1X1, width: 1, height: 1 },
        { mime: 'image/png', data: PNG_2X1, width: 2, height: 1 },
      ],
      figures_omitted: 3,
    }),
  );
  await run('import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()');
  const figures = await within(messages()).findByRole('group', { name: 'Figures' });
  const images = within(figures).getAllByRole('img');
  expect(images.map((img) => img.getAttribute('alt'))).toEqual(['Figure 1', 'Figure 2']);
  expect(images[0]).toHaveAttribute('src', `data:image/png;base64,${PNG_1X1}`);
  expect(images[1]).toHaveAttribute('src', `data:image/png;base64,${PNG_2X1}`);
  const download = within(figures).getByRole('link', { name: 'Download figure 2 (PNG)' });
  expect(download).toHaveAttribute('download', 'figure-2.png');
  expect(download).toHaveAttribute('href', `data:image/png;base64,${PNG_2X1}`);
  expect(within(figures).getByText('3 figures were left out (at most 8 per run, 2 MB each)')).toBeInTheDocument();
  expect(within(messages()).getByText('Code executed: 2 figures')).toBeInTheDocument();
  // A figure is no grid: nothing is sent to the sheet, no sheet is made.
  expect(sent).toEqual([]);
  expect(services.server.calls()).not.toContain('POST /api/v1/sheets');
});
