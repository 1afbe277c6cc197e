import { cleanup, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MIDDLEWARE_UNAVAILABLE_MESSAGE, finalResponseEvent, hybridStageEvent, jobQueuedEvent, HybridResponseSchema } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { closeAllLoopbackServers, json, sse, type LoopbackRequest as Request } from '@tessera/jest-react/loopback';
import { hybridReply, startFakeServices, streamHybrid, testShell, type FakeServicesOptions } from '../test/fake-services.js';
import ChatPanel from './ChatPanel.js';

afterEach(async () => {
  cleanup(); // unmounted first: the panel cancels its calls before the servers close
  await closeAllLoopbackServers();
});

const budget = { id: 'sheet-1', name: 'Budget', headers: ['Region', 'Amount'], rows: [['North', 10], ['South', 5], ['North', 7]] as (string | number)[][] };

async function openPanel(options: FakeServicesOptions = {}, sheet: typeof budget | undefined = budget) {
  const services = await startFakeServices(options);
  const { shell, sent } = testShell(services.server, sheet);
  renderInShell(<ChatPanel shell={shell} />);
  await screen.findByText(/^AI service: builtin/);
  return { services, shell, sent };
}

const input = () => screen.getByRole('textbox', { name: 'Message' });
const messages = () => screen.getByRole('log', { name: 'Messages' });
const hybridCalls = (requests: Request[]) => requests.filter((r) => r.path === '/hybrid/forward');

async function chooseMode(label: string) {
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), label);
}

/** Types a fenced Python block (Shift+Enter between lines) and sends it. */
async function sendCode(lines: string[]) {
  const text = ['```python', ...lines, '```'].join('\n');
  fireEvent.change(input(), { target: { value: text } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}

test('while /health fails the panel warns once and sending stays off', async () => {
  await openPanel({ healthy: false });
  // Asked afresh at each try (getBy: exactly one warning): the message first shows as plain text
  // until its Markdown renderer (lazy, MessageContent) has loaded, then is drawn anew by it, and an
  // element found before that is no longer in the document.
  await waitFor(() => expect(within(messages()).getByText(MIDDLEWARE_UNAVAILABLE_MESSAGE)).toBeInTheDocument());
  await userEvent.type(input(), 'hello');
  const send = screen.getByRole('button', { name: 'Send' });
  expect(send).toBeDisabled();
  expect(send).toHaveAccessibleDescription(MIDDLEWARE_UNAVAILABLE_MESSAGE);
});

test('Direct Exec streams through the stages and shows the reply with its output', async () => {
  const { services } = await openPanel({
    routes: (req, res) => {
      if (req.path === '/hybrid/forward') return void streamHybrid(res, hybridReply(null, { execution_output: 'total 22\n' }));
      return false;
    },
  });
  await screen.findByRole('button', { name: 'Send' });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['total = sum(r[1] for r in rows)', 'print("total", total)']);

  await within(messages()).findByText('Code executed successfully');
  const [call] = hybridCalls(services.server.requests);
  expect(call.headers.accept).toBe('text/event-stream');
  expect(call.body).toMatchObject({
    code: 'total = sum(r[1] for r in rows)\nprint("total", total)\n',
    enable_ai_generation: false,
    stream_mode: true,
    sheet_id: 'sheet-1',
    merge_timeline: true,
    files: [],
    sheet_context: { id: 'sheet-1', name: 'Budget', headers: ['Region', 'Amount'], rowCount: 3, columnCount: 2, version: 3 },
    handsontable_data: { spreadsheet_data: { headers: ['Region', 'Amount'], rows: budget.rows } },
  });
  // The printed output shows as a code block; the progress bar ends on the final stage.
  expect(within(messages()).getByText('total 22').closest('pre')).not.toBeNull();
  expect(screen.getByRole('status', { name: 'Progress' })).toHaveTextContent('Final response: complete');
  expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
});

test('a job that waits in the server\'s queue shows its place on the progress bar and in the reply, then runs', async () => {
  let moveUp: (() => void) | undefined;
  await openPanel({
    routes: (req, res) => {
      if (req.path !== '/hybrid/forward') return false;
      const stream = sse(res);
      stream.send(jobQueuedEvent(2));
      moveUp = () => {
        stream.send(jobQueuedEvent(1));
        moveUp = () => {
          stream.send(hybridStageEvent('analysis', 'Direct Exec on Budget (3 rows × 2 columns)'));
          stream.send(finalResponseEvent(HybridResponseSchema.parse(hybridReply(null))));
          stream.end();
        };
      };
    },
  });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['print(1)']);

  const bar = () => screen.getByRole('status', { name: 'Progress' });
  await waitFor(() => expect(bar()).toHaveTextContent('Waiting in queue (position 2)'));
  expect(within(messages()).getByText('Waiting in queue (position 2)')).toBeInTheDocument();
  moveUp!();
  await waitFor(() => expect(bar()).toHaveTextContent('Waiting in queue (position 1)'));
  // Each new place replaces the last line: the reply does not pile up places.
  expect(within(messages()).queryByText('Waiting in queue (position 2)')).not.toBeInTheDocument();
  moveUp!();
  await waitFor(() => expect(bar()).toHaveTextContent('Final response: complete'));
  expect(within(messages()).queryByText(/Waiting in queue/)).not.toBeInTheDocument();
});

test('Send reads Stop while streaming; Stop ends the request and the panel can send again', async () => {
  let closed: Promise<void> | undefined;
  await openPanel({
    routes: async (req, res) => {
      if (req.path !== '/hybrid/forward') return false;
      const stream = await streamHybrid(res, hybridReply(null), { holdAfter: 'analysis' });
      closed = stream.closed;
    },
  });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['print(1)']);

  expect(await screen.findByText('Analysis 20%')).toBeInTheDocument();
  expect(within(messages()).getByText('Reading the sheet: 3 rows × 2 columns')).toBeInTheDocument();
  const stops = screen.getAllByRole('button', { name: 'Stop' });
  expect(stops).toHaveLength(2); // the progress bar's and the composer's
  await userEvent.click(stops[1]);

  await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument());
  await closed; // the server saw the client go
  expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  expect(screen.queryByText('Stream Error')).not.toBeInTheDocument();
});

test('Standard sends one JSON request; a failure shows HTTP status and body, and Reload sends it again', async () => {
  let calls = 0;
  const { services } = await openPanel({
    routes: (req, res) => {
      if (req.path !== '/hybrid/forward') return false;
      calls++;
      if (calls === 1) return json(res, 400, { error: { code: 'validation_failed', message: 'code is required' } });
      return json(res, 200, hybridReply(null, { message: 'Ran on the second try' }));
    },
  });
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  expect(screen.getByRole('button', { name: 'Standard' })).toHaveAttribute('aria-pressed', 'false');
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['print(1)']);

  expect(await within(messages()).findByText('Error: HTTP 400: code is required')).toBeInTheDocument();
  const box = screen.getByRole('alert');
  expect(box).toHaveTextContent('Stream Error');
  expect(box).toHaveTextContent('HTTP 400: code is required');
  expect(hybridCalls(services.server.requests)[0].body).toMatchObject({ stream_mode: false });
  expect(hybridCalls(services.server.requests)[0].headers.accept).not.toContain('text/event-stream');

  await userEvent.click(within(box).getByRole('button', { name: 'Reload' }));
  expect(await within(messages()).findByText('Ran on the second try')).toBeInTheDocument();
  expect(screen.queryByText('Stream Error')).not.toBeInTheDocument();
  expect(hybridCalls(services.server.requests)).toHaveLength(2);
});

test('Chat mode streams /vertex/stream chunks into one reply with Markdown', async () => {
  const { services } = await openPanel({
    routes: (req, res) => {
      if (req.path !== '/vertex/stream') return false;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      for (const text of ['The **North** ', 'region leads.\n\n', '| Region | Amount |\n|---|---|\n| North | 17 |'])
        res.write(`data: ${JSON.stringify({ text, finished: false, error: null, session_id: null })}\n\n`);
      res.end(`data: ${JSON.stringify({ text: '', finished: true, error: null, session_id: null })}\n\n`);
    },
  });
  await userEvent.type(input(), 'Which region leads?{Enter}');
  const table = await within(messages()).findByRole('table');
  expect(within(table).getByText('17')).toBeInTheDocument();
  expect(within(messages()).getByText('North', { selector: 'strong' })).toBeInTheDocument();
  const call = services.server.requests.find((r) => r.path === '/vertex/stream');
  expect(call?.body).toMatchObject({
    message: 'Which region leads?',
    temperature: 0.7,
    stream_mode: true,
    workspace_context: { current_sheet: { id: 'sheet-1', name: 'Budget', total_rows: 3, total_columns: 2, sample_rows: budget.rows } },
  });
});

test('functions picked from GET /git/functions go out with the next message as selected_functions; a failed list is a warning', async () => {
  let fail = true;
  const fn = (name: string, filePath: string, line: number) => ({ id: `${filePath}:${name}:${line}`, name, description: `${name} does it`, filePath, code: `def ${name}(): pass`, language: 'python', line });
  const { services } = await openPanel({
    routes: (req, res) => {
      if (req.path === '/git/functions') {
        if (fail) return void res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: 'down' } }));
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ functions: [fn('totals', 'jobs/totals.py', 3), fn('rota', 'jobs/rota.py', 10)], count: 2, truncated: false }));
      }
      if (req.path !== '/vertex/stream') return false;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`data: ${JSON.stringify({ text: 'ok', finished: true, error: null, session_id: null })}\n\n`);
    },
  });
  await userEvent.click(screen.getByRole('button', { name: 'Show Context' }));
  const picker = screen.getByRole('group', { name: 'Git Functions' });
  await userEvent.click(within(picker).getByRole('button', { name: 'Choose' }));
  expect(await within(picker).findByRole('alert')).toHaveTextContent('Failed to load git functions');
  fail = false;
  await userEvent.click(within(picker).getByRole('button', { name: 'Retry' }));
  await userEvent.type(await within(picker).findByRole('textbox', { name: 'Filter functions' }), 'tot');
  expect(within(picker).getAllByRole('checkbox')).toHaveLength(1);
  await userEvent.click(within(picker).getByRole('checkbox'));
  await userEvent.click(within(picker).getByRole('button', { name: 'Done' }));
  expect(within(picker).getByRole('button', { name: 'Remove totals' })).toBeInTheDocument();

  await userEvent.type(input(), 'What does totals do?{Enter}');
  await within(messages()).findByText('ok');
  expect(services.server.requests.find((r) => r.path === '/vertex/stream')?.body).toMatchObject({
    workspace_context: { selected_functions: [{ id: 'jobs/totals.py:totals:3', name: 'totals', file_path: 'jobs/totals.py', description: 'totals does it' }] },
  });
});

test('Standard chat with enhanced chat needs a session and says so without calling', async () => {
  const { services } = await openPanel();
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.type(input(), 'hello{Enter}');
  expect(await within(messages()).findByText('Error: No active session for enhanced mode. Please create a session first.')).toBeInTheDocument();
  expect(services.server.calls().filter((c) => c.includes('/vertex/') && !c.includes('user-sessions'))).toEqual([]);
});

test('Clear empties the message list', async () => {
  await openPanel({
    routes: (req, res) => (req.path === '/vertex/stream' ? void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`data: ${JSON.stringify({ text: 'hi', finished: true, error: null, session_id: null })}\n\n`) : false),
  });
  await userEvent.type(input(), 'hello{Enter}');
  await within(messages()).findByText('hi');
  await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
  expect(within(messages()).queryByRole('article')).not.toBeInTheDocument();
});

test('a middleware without streaming offers Standard only', async () => {
  await openPanel({ capabilities: { streamingSupported: false } });
  expect(screen.getByText('AI service: builtin 0.2.0 • Streaming unavailable')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Standard' })).toBeDisabled();
});

test('Agent • AI Powered sends the instruction (or its default) with the git files and the last messages', async () => {
  const { services } = await openPanel({
    routes: (req, res) => (req.path === '/hybrid/forward' ? void streamHybrid(res, hybridReply(null, { mode: 'agent-ai', message: 'Analysed' })) : false),
  });
  await userEvent.click(screen.getByRole('button', { name: 'Show Context' }));
  const zone = screen.getByTestId('git-files-dropzone');
  const drop = createEvent.drop(zone);
  Object.defineProperty(drop, 'dataTransfer', { value: { types: ['application/x-tessera-path'], getData: () => 'src/report.py' } });
  fireEvent(zone, drop);
  await chooseMode('Agent • AI Powered');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await within(messages()).findByText('Analysed');
  const [call] = hybridCalls(services.server.requests);
  expect(call.body).toMatchObject({
    problem: 'Analyze and process the provided data and code',
    enable_ai_generation: true,
    files: ['src/report.py'],
    conversation_context: [],
  });
  expect(call.body).not.toHaveProperty('code');
});

test('an Agent • AI Powered reply shows the Python that ran as a code block, before its output', async () => {
  // Code with a ``` run inside a string: the block's fence must not end there.
  const code = 'print("```", len(rows))\nresult = len(rows)\n';
  await openPanel({
    routes: (req, res) =>
      req.path === '/hybrid/forward'
        ? void streamHybrid(res, hybridReply(null, { mode: 'agent-ai', message: 'Code executed: 3', code, execution_output: '``` 3\n' }))
        : false,
  });
  await chooseMode('Agent • AI Powered');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  fireEvent.change(input(), { target: { value: 'count the rows' } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await within(messages()).findByText('Code executed: 3');

  const reply = within(messages()).getAllByRole('article', { name: 'AI message' }).at(-1)!;
  const blocks = [...reply.querySelectorAll('pre code')];
  expect(blocks.map((b) => [b.className, b.textContent])).toEqual([
    ['language-python', 'print("```", len(rows))\nresult = len(rows)\n'],
    ['language-text', '``` 3\n'],
  ]);
  expect(within(reply).getByText('Code')).toBeInTheDocument();
});

test('a long printed result shows its first 400 characters, 200 beside a grid, and Show all opens the whole of it (spec 02 §9)', async () => {
  const long = Array.from({ length: 60 }, (_, i) => `line ${String(i).padStart(2, '0')} of the output`).join('\n');
  let withGrid = false;
  await openPanel({
    routes: (req, res) =>
      req.path === '/hybrid/forward'
        ? void streamHybrid(res, hybridReply(withGrid ? { headers: ['Region', 'Amount'], rows: [['North', 1]] } : null, { execution_output: `${long}\n` }))
        : false,
  });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['print("long")']);
  await within(messages()).findByText('Code executed successfully');
  let reply = within(messages()).getAllByRole('article', { name: 'AI message' }).at(-1)!;
  expect(reply.querySelector('pre code.language-text')?.textContent).toBe(`${long.slice(0, 400)}\n…\n`);
  const showAll = within(reply).getByRole('button', { name: `Show all (${long.length.toLocaleString('en-US')} characters)` });
  await userEvent.click(showAll);
  expect(within(reply).getByLabelText('Whole output').textContent).toBe(long);
  await userEvent.click(within(reply).getByRole('button', { name: 'Show less' }));
  expect(within(reply).queryByLabelText('Whole output')).not.toBeInTheDocument();

  withGrid = true;
  await sendCode(['print("long")']);
  await waitFor(() => expect(within(messages()).getAllByRole('article', { name: 'AI message' })).toHaveLength(2));
  await waitFor(() => expect(within(messages()).getAllByRole('article', { name: 'AI message' }).at(-1)!.querySelector('pre code.language-text')).not.toBeNull());
  reply = within(messages()).getAllByRole('article', { name: 'AI message' }).at(-1)!;
  expect(reply.querySelector('pre code.language-text')?.textContent).toBe(`${long.slice(0, 200)}\n…\n`);
});

test('a Direct Exec reply does not echo the code the user sent', async () => {
  await openPanel({
    routes: (req, res) => (req.path === '/hybrid/forward' ? void streamHybrid(res, hybridReply(null, { code: 'print(1)\n', execution_output: '1\n' })) : false),
  });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await sendCode(['print(1)']);
  await within(messages()).findByText('Code executed successfully');
  const reply = within(messages()).getAllByRole('article', { name: 'AI message' }).at(-1)!;
  expect([...reply.querySelectorAll('pre code')].map((b) => b.className)).toEqual(['language-text']);
});

test("a pasted script shows in the user's message as typed, not as Markdown", async () => {
  await openPanel({ routes: (req, res) => (req.path === '/hybrid/forward' ? void streamHybrid(res, hybridReply(null)) : false) });
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  const script = '# Double the amounts\nresult = [[r[0], r[1] * 2] for r in rows]\nprint(len(rows))';
  fireEvent.change(input(), { target: { value: script } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await within(messages()).findByText('Code executed successfully');
  const mine = within(messages()).getByRole('article', { name: 'You message' });
  expect(within(mine).queryByRole('heading')).not.toBeInTheDocument();
  expect(mine.textContent).toBe(`You${script}`);
});

test('Direct Exec with an empty prompt runs the first git file the context lists', async () => {
  const { services } = await openPanel({
    routes: (req, res) => {
      if (req.path === '/git/code-content') return json(res, 200, { identifier: req.query.get('identifier'), content: 'result = len(rows)\n', commit_hash: 'abc', metadata: { size: 19, blob: 'b1', language: 'python', utf8: true } });
      if (req.path === '/hybrid/forward') return void streamHybrid(res, hybridReply(null));
      return false;
    },
  });
  await userEvent.click(screen.getByRole('button', { name: 'Show Context' }));
  const zone = screen.getByTestId('git-files-dropzone');
  const drop = createEvent.drop(zone);
  Object.defineProperty(drop, 'dataTransfer', { value: { types: ['application/x-tessera-path'], getData: () => 'jobs/count.py' } });
  fireEvent(zone, drop);
  await chooseMode('Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await within(messages()).findByText('Code executed successfully');
  expect(within(messages()).getByText('Execute the code directly')).toBeInTheDocument();
  expect(services.server.requests.find((r) => r.path === '/git/code-content')?.query.get('identifier')).toBe('jobs/count.py');
  expect(hybridCalls(services.server.requests)[0].body).toMatchObject({ code: 'result = len(rows)\n', problem: 'Execute the code directly' });
});
