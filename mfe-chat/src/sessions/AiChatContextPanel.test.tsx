import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { SESSION_TEXTS, type ShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import ChatPanel from '../chat-panel/ChatPanel.js';
import { session, startFakeServices, testShell, type FakeServicesOptions } from '../test/fake-services.js';
import { closeAllLoopbackServers, json } from '@tessera/jest-react/loopback';

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await closeAllLoopbackServers();
});

const sheet = { id: 'sheet-1', name: 'Budget', headers: ['Region', 'Amount'], rows: [['North', 10]] as (string | number)[][] };

async function openContext(options: FakeServicesOptions = {}) {
  const services = await startFakeServices(options);
  const { shell } = testShell(services.server, sheet);
  shell.sheet.select(0, 1);
  const { rerender } = renderInShell(<ChatPanel shell={shell} />);
  await screen.findByText(/^AI service: builtin/);
  await userEvent.click(screen.getByRole('button', { name: 'Show Context' }));
  /** The shell hands the panel a new context, as it does when the selection moves. */
  const newContext = (next: ShellContext) => rerender(<ChakraProvider value={defaultSystem}><ChatPanel shell={next} /></ChakraProvider>);
  return { services, shell, newContext, panel: screen.getByRole('region', { name: 'AI Chat Context' }) };
}

const sessionNames = () =>
  within(screen.getByRole('list', { name: 'Sessions' }))
    .getAllByRole('button', { name: /^(?!Delete )/ })
    .map((b) => b.textContent);

test('the current session card shows the most recently active session; the Switch list all of them', async () => {
  const { panel } = await openContext({
    sessions: [session('Older', 120), session('Budget review', 5, { message_count: 4, context_summary: 'Totals by region', tags: ['finance'] })],
  });
  const card = await within(panel).findByRole('group', { name: 'Current session' });
  expect(card).toHaveTextContent('Budget review');
  expect(card).toHaveTextContent('4 messages • last active 5m ago');
  expect(card).toHaveTextContent('Totals by region');
  expect(card).toHaveTextContent('finance');
  expect(sessionNames()).toEqual(['Budget review', 'Older']);
  expect(within(panel).getByRole('group', { name: 'Workspace Context' })).toHaveTextContent('Sheet: Budget (1 × 2) • Selected: B1');
});

test('the Workspace Context follows the selected cell as the selection moves, and says nothing once none is selected', async () => {
  const { shell, newContext, panel } = await openContext();
  const context = within(panel).getByRole('group', { name: 'Workspace Context' });
  expect(context).toHaveTextContent('Selected: B1');
  newContext({ ...shell, sheet: { ...shell.sheet, selection: { row: 6, col: 0 } } });
  expect(context).toHaveTextContent('Sheet: Budget (1 × 2) • Selected: A7');
  newContext({ ...shell, sheet: { ...shell.sheet, selection: null } });
  expect(context).toHaveTextContent('Sheet: Budget (1 × 2)');
  expect(context).not.toHaveTextContent('Selected');
});

test('a reload comes back to the session the user was in, with its messages (its id is kept in local storage)', async () => {
  const first = session('Newest', 1);
  const older = session('Oldest', 300);
  const { panel } = await openContext({ sessions: [first, older] });
  await within(panel).findByRole('group', { name: 'Current session' });
  await userEvent.click(within(panel).getByRole('button', { name: 'Oldest' }));
  await waitFor(() => expect(within(panel).getByRole('group', { name: 'Current session' })).toHaveTextContent('Oldest'));

  // The page reloads: a new panel over the same browser storage.
  cleanup();
  await closeAllLoopbackServers();
  const again = await openContext({ sessions: [first, older] });
  await waitFor(() => expect(within(again.panel).getByRole('group', { name: 'Current session' })).toHaveTextContent('Oldest'));
  const log = screen.getByRole('log', { name: 'Messages' });
  expect(await within(log).findByText('earlier question in Oldest')).toBeInTheDocument();
  expect(again.services.server.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ action: 'switch', session_id: older.session_id });
});

test("after a reload a stored answer shows its chart with its download, and says which figures it no longer keeps", async () => {
  const charts = session('Charts', 1);
  // A 1×1 PNG, as the middleware stores a run's figures.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  const stored = (id: string, metadata: Record<string, unknown>) => ({ id, session_id: charts.session_id, role: 'assistant', content: `answer ${id}`, created_at: charts.created_at, metadata });
  const { panel } = await openContext({
    sessions: [charts],
    routes: (req, res) =>
      req.method === 'POST' && req.path === '/vertex/user-sessions' && (req.body as { action: string }).action === 'switch'
        ? json(res, 200, {
            session: charts,
            messages: [
              stored('old', { figures_not_kept: 2 }),
              stored('new', { figures: [{ mime: 'image/png', data: png, width: 1, height: 1 }] }),
              // Not a PNG's base64: left out, never made an image.
              stored('bad', { figures: [{ mime: 'image/png', data: '<svg onload=alert(1)>', width: 1, height: 1 }] }),
            ],
          })
        : false,
  });
  await within(panel).findByRole('group', { name: 'Current session' });
  await userEvent.click(within(panel).getByRole('button', { name: 'Charts' }));
  const log = screen.getByRole('log', { name: 'Messages' });
  await within(log).findByText('answer new');
  const images = within(log).getAllByRole('img');
  expect(images).toHaveLength(1);
  expect(images[0]).toHaveAttribute('src', `data:image/png;base64,${png}`);
  expect(within(log).getByRole('link', { name: 'Download figure 1 (PNG)' })).toHaveAttribute('download', 'figure-1.png');
  expect(within(log).getByText('2 figures of this answer are no longer kept: chats keep only the newest figures. Run the code again to see them.')).toBeInTheDocument();
});

test('New Chat creates a session by a non-blank name and puts it first; Cancel leaves', async () => {
  const { panel, services } = await openContext({ sessions: [session('Older', 120)] });
  await within(panel).findByRole('group', { name: 'Current session' });
  await userEvent.click(within(panel).getByRole('button', { name: 'New Chat' }));
  await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
  expect(within(panel).queryByRole('textbox', { name: 'Session name' })).not.toBeInTheDocument();

  await userEvent.click(within(panel).getByRole('button', { name: 'New Chat' }));
  const name = within(panel).getByRole('textbox', { name: 'Session name' });
  await userEvent.type(name, '   ');
  expect(within(panel).getByRole('button', { name: 'Create' })).toBeDisabled();
  await userEvent.type(name, 'Q3 plan');
  await userEvent.click(within(panel).getByRole('button', { name: 'Create' }));

  await waitFor(() => expect(within(panel).getByRole('group', { name: 'Current session' })).toHaveTextContent('Q3 plan'));
  expect(sessionNames()).toEqual(['Q3 plan', 'Older']);
  expect(services.server.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ action: 'create', session_name: 'Q3 plan', user_id: 'dev-user' });
});

test('switching restores the session’s messages; deleting the current one moves to the most recent remaining', async () => {
  const first = session('Newest', 1);
  const second = session('Middle', 30);
  const third = session('Oldest', 300);
  const { panel, services } = await openContext({ sessions: [third, first, second] });
  await within(panel).findByRole('group', { name: 'Current session' });

  await userEvent.click(within(panel).getByRole('button', { name: 'Oldest' }));
  await waitFor(() => expect(within(panel).getByRole('group', { name: 'Current session' })).toHaveTextContent('Oldest'));
  const log = screen.getByRole('log', { name: 'Messages' });
  expect(within(log).getByText('earlier question in Oldest')).toBeInTheDocument();
  expect(within(log).getByText('earlier answer in Oldest')).toBeInTheDocument();

  // × asks first; Cancel keeps it.
  await userEvent.click(within(panel).getByRole('button', { name: 'Delete Oldest' }));
  const confirm = within(panel).getByRole('alertdialog', { name: 'Delete session' });
  expect(confirm).toHaveTextContent(SESSION_TEXTS.confirmDelete);
  await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  expect(services.server.calls()).not.toContain('DELETE /vertex/user-sessions');

  await userEvent.click(within(panel).getByRole('button', { name: 'Delete Oldest' }));
  await userEvent.click(within(panel).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(within(panel).getByRole('group', { name: 'Current session' })).toHaveTextContent('Newest'));
  expect(sessionNames()).toEqual(['Newest', 'Middle']);
  expect(services.server.requests.find((r) => r.method === 'DELETE')?.query.get('session_id')).toBe(third.session_id);
});

test('deleting the last session leaves none; a failed call says what failed', async () => {
  const only = session('Only', 1);
  const { panel } = await openContext({
    sessions: [only],
    routes: (req, res) => (req.method === 'POST' && req.path === '/vertex/user-sessions' ? json(res, 500, { error: { code: 'internal_error', message: 'database down' } }) : false),
  });
  await within(panel).findByRole('group', { name: 'Current session' });
  await userEvent.click(within(panel).getByRole('button', { name: 'Delete Only' }));
  await userEvent.click(within(panel).getByRole('button', { name: 'Delete' }));
  expect(await within(panel).findByText(SESSION_TEXTS.noActiveSession)).toBeInTheDocument();
  expect(within(panel).queryByRole('group', { name: 'Current session' })).not.toBeInTheDocument();

  await userEvent.click(within(panel).getByRole('button', { name: 'New Chat' }));
  await userEvent.type(within(panel).getByRole('textbox', { name: 'Session name' }), 'Again{Enter}');
  expect(await within(panel).findByRole('alert')).toHaveTextContent('Failed to create session: HTTP 500: database down');
});

test('when the session list cannot be read, context features are unavailable', async () => {
  const { panel } = await openContext({
    routes: (req, res) => (req.path === '/vertex/user-sessions' ? json(res, 503, { error: { code: 'unavailable', message: 'no database' } }) : false),
  });
  expect(await within(panel).findByText('Context features unavailable')).toBeInTheDocument();
  expect(within(panel).queryByRole('button', { name: 'New Chat' })).not.toBeInTheDocument();
});

test('a chat reply in Standard mode goes through the enhanced conversation of the current session', async () => {
  const current = session('Budget review', 1);
  const { services } = await openContext({
    sessions: [current],
    routes: (req, res) =>
      req.path === '/vertex/enhanced-conversation'
        ? json(res, 200, { success: true, response: 'North leads with **10**.', session_id: current.session_id, provider: 'builtin', model: null, context: { messages: 0, sheet: 'Budget', git_commits: 0 } })
        : false,
  });
  await within(screen.getByRole('region', { name: 'AI Chat Context' })).findByRole('group', { name: 'Current session' });
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Who leads?{Enter}');
  expect(await within(screen.getByRole('log', { name: 'Messages' })).findByText('10', { selector: 'strong' })).toBeInTheDocument();
  const call = services.server.requests.find((r) => r.path === '/vertex/enhanced-conversation');
  expect(call?.body).toMatchObject({
    message: 'Who leads?',
    session_id: current.session_id,
    temperature: 0.7,
    conversation_context: [],
    preferences: { response_format: 'markdown', include_code_examples: true, detail_level: 'detailed' },
    workspace_context: { current_sheet: { name: 'Budget', selected_cells: [{ row: 0, col: 1, value: 10 }] }, git_context: { selected_files: [] } },
  });
  // The session list is read again: its message count changed.
  await waitFor(() => expect(services.server.calls().filter((c) => c === 'GET /vertex/user-sessions')).toHaveLength(2));
});
