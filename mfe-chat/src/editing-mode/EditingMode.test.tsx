import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { renderInShell } from '@tessera/jest-react';
import ChatPanel from '../chat-panel/ChatPanel.js';
import { hybridReply, startFakeServices, testShell } from '../test/fake-services.js';
import { closeAllLoopbackServers, json } from '@tessera/jest-react/loopback';
import { leaveEditing } from './editing-mode.store.js';
import HeaderStatus from './HeaderStatus.js';

afterEach(async () => {
  cleanup();
  leaveEditing();
  await closeAllLoopbackServers();
});

const budget = { id: 'sheet-1', name: 'Budget', headers: ['Region', 'Amount'], rows: [['North', 10], ['South', 5]] as (string | number)[][] };
const sorted = { headers: budget.headers, rows: [['South', 5], ['North', 10]] };

/** The header (./HeaderStatus) and the chat panel on one shell, as the shell mounts them. */
async function openBoth(reply: () => unknown = () => hybridReply(sorted)) {
  const services = await startFakeServices({ routes: (req, res) => (req.path === '/hybrid/forward' ? json(res, 200, reply()) : false) });
  const { shell, sent, paused } = testShell(services.server, budget);
  const events: string[] = [];
  shell.bus.on('sheet-proposal', (e) => events.push(`sheet-proposal ${e.versionId}`));
  shell.bus.on('sheet-snapshot-merged', (e) => events.push(`sheet-snapshot-merged ${e.version}`));
  shell.bus.on('sheet-version-preview', (e) => events.push(`preview ${e.versionId}`));
  renderInShell(
    <>
      <header>
        <HeaderStatus shell={shell} />
      </header>
      <ChatPanel shell={shell} />
    </>,
  );
  await screen.findByText(/^AI service: builtin/);
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  return { services, sent, events, paused };
}

async function run(code: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: code } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}
const badge = () => screen.queryByRole('group', { name: 'AI Editing Mode' });

test('with AI Editing Mode on live sync pauses and a result becomes a staged edit shown in the grid; Commit accepts it and ends the mode', async () => {
  const { services, sent, events, paused } = await openBoth();
  expect(badge()).not.toBeInTheDocument();
  expect(paused()).toBe(false);
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  expect(paused()).toBe(true);
  expect(badge()).toHaveTextContent('AI Editing Mode');
  expect(screen.getByRole('button', { name: 'AI Editing Mode' })).toHaveAttribute('aria-pressed', 'true');

  await run('result = sorted(rows, key=lambda r: r[1])');
  await within(screen.getByRole('log', { name: 'Messages' })).findByText(/Staged as a proposed version/);
  expect(badge()).toHaveTextContent('Staged edit');
  expect(sent).toEqual([]); // the sheet itself is untouched until Commit
  const propose = services.server.requests.find((r) => r.path === '/api/v1/sheets/sheet-1/versions');
  expect(propose?.body).toEqual({ headers: budget.headers, data: sorted.rows });
  const proposalId = services.versions[0].split(' ')[1];
  expect(events).toEqual([`sheet-proposal ${proposalId}`, `preview ${proposalId}`]);

  await userEvent.click(within(badge()!).getByRole('button', { name: 'Commit' }));
  await waitFor(() => expect(badge()).not.toBeInTheDocument());
  expect(services.versions).toEqual([`propose ${proposalId}`, `accept ${proposalId}`]);
  expect(events).toEqual([`sheet-proposal ${proposalId}`, `preview ${proposalId}`, 'preview null', 'sheet-snapshot-merged 4']);
  expect(paused()).toBe(false);
  expect(screen.getByRole('button', { name: 'AI Editing Mode' })).toHaveAttribute('aria-pressed', 'false');
});

test('Discard discards the staged edit and keeps the original; a new result replaces the staged one', async () => {
  const { services, sent, paused } = await openBoth();
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  await run('result = sorted(rows)');
  await within(screen.getByRole('log', { name: 'Messages' })).findByText(/Staged as a proposed version/);
  await run('result = sorted(rows)');
  await waitFor(() => expect(services.versions).toHaveLength(3));
  const [first, second] = services.versions.filter((v) => v.startsWith('propose')).map((v) => v.split(' ')[1]);
  expect(services.versions).toEqual([`propose ${first}`, `propose ${second}`, `discard ${first}`]);

  await userEvent.click(within(badge()!).getByRole('button', { name: 'Discard' }));
  await waitFor(() => expect(badge()).not.toBeInTheDocument());
  expect(services.versions.at(-1)).toBe(`discard ${second}`);
  expect(sent).toEqual([]);
  expect(paused()).toBe(false);
});

test('a proposal the middleware made (merge_timeline) is staged, not accepted, while the mode is on', async () => {
  const versionId = '11111111-2222-4333-8444-555555555555';
  const { services } = await openBoth(() => hybridReply(sorted, { snapshot: { sheet_id: 'sheet-1', version_id: versionId, status: 'proposed', base_version: 3 } }));
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  await run('result = sorted(rows)');
  await within(screen.getByRole('log', { name: 'Messages' })).findByText(/Staged as a proposed version/);
  expect(services.versions).toEqual([]);
  await userEvent.click(within(badge()!).getByRole('button', { name: 'Commit' }));
  await waitFor(() => expect(services.versions).toEqual([`accept ${versionId}`]));
});

test('the badge shows nothing for another sheet than the one in AI Editing Mode', async () => {
  const services = await startFakeServices();
  const a = testShell(services.server, budget);
  const b = testShell(services.server, { ...budget, id: 'sheet-2', name: 'Other' });
  renderInShell(
    <>
      <HeaderStatus shell={b.shell} />
      <ChatPanel shell={a.shell} />
    </>,
  );
  await userEvent.click(await screen.findByRole('button', { name: 'AI Editing Mode' }));
  expect(badge()).not.toBeInTheDocument();
});

test('the badge follows the sheet the user switches to: shown on the sheet in AI Editing Mode, gone on another', async () => {
  const services = await startFakeServices();
  const a = testShell(services.server, budget);
  const b = testShell(services.server, { ...budget, id: 'sheet-2', name: 'Other' });
  const both = (header: typeof a) => (
    <ChakraProvider value={defaultSystem}>
      <HeaderStatus shell={header.shell} />
      <ChatPanel shell={a.shell} />
    </ChakraProvider>
  );
  const { rerender } = renderInShell(both(b));
  await userEvent.click(await screen.findByRole('button', { name: 'AI Editing Mode' }));
  expect(badge()).not.toBeInTheDocument();
  rerender(both(a));
  expect(badge()).toBeInTheDocument();
  rerender(both(b));
  expect(badge()).not.toBeInTheDocument();
});
