import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SCHEDULE_GRID_EXTRACTION_FAILED, SCHEDULE_ORIGINS, solverFailedMessage, type EventMap } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import ChatPanel from '../chat-panel/ChatPanel.js';
import { leaveEditing } from '../editing-mode/editing-mode.store.js';
import HeaderStatus from '../editing-mode/HeaderStatus.js';
import { committedVersion, hybridReply, startFakeServices, testShell } from '../test/fake-services.js';
import {
  P1_PROMPT,
  P2_PROMPT,
  P2_SUGGESTED_ACTIONS,
  failedAfterRetries,
  p1Problem,
  p2Problem,
  solved,
  solverMiddleware,
  stepGate,
  type SolverMiddlewareOptions,
} from '../test/fake-solver.js';
import { closeAllLoopbackServers } from '@tessera/jest-react/loopback';
import RecoveryBanner from './RecoveryBanner.js';
import { resetSolverState } from './solver.store.js';

afterEach(async () => {
  cleanup();
  leaveEditing();
  resetSolverState();
  await closeAllLoopbackServers();
});

const roster = { id: 'sheet-1', name: 'Roster', headers: ['Doctor', 'Hours'], rows: [['Ada', 40], ['Ben', 30]] as (string | number)[][] };
const sortedRoster = { headers: roster.headers, rows: [['Ben', 30], ['Ada', 40]] };

/** The header (./HeaderStatus), the main area (./RecoveryBanner) and the chat panel on one shell, as the shell mounts them. */
async function openWorkspace(options: SolverMiddlewareOptions = {}) {
  const services = await startFakeServices({ routes: solverMiddleware({ fallback: () => hybridReply(sortedRoster), ...options }) });
  const { shell, reloads } = testShell(services.server, roster);
  const events: string[] = [];
  const record = <K extends keyof EventMap>(name: K) => shell.bus.on(name, (p) => events.push(`${name} ${JSON.stringify(p)}`));
  (['sheet-history-refresh', 'sheet-created'] as const).forEach(record);
  renderInShell(
    <>
      <header>
        <HeaderStatus shell={shell} />
      </header>
      <main>
        <RecoveryBanner shell={shell} />
      </main>
      <ChatPanel shell={shell} />
    </>,
  );
  await screen.findByText(/^AI service: builtin/);
  // Health answered: an agent mode can send (its empty prompt stands for the default instruction).
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • AI Powered');
  await replied();
  return { services, shell, events, reloads };
}

async function ask(mode: 'Agent • AI Powered' | 'Agent • Direct Exec', text: string) {
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), mode);
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: text } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}

const messages = () => screen.getByRole('log', { name: 'Messages' });
const solverBadge = () => screen.queryByRole('status', { name: 'Solver status' });
const banner = () => screen.queryByRole('alert', { name: 'Operation Failed' });
const hybridBodies = (services: Awaited<ReturnType<typeof startFakeServices>>) =>
  services.server.requests.filter((r) => r.path === '/hybrid/forward').map((r) => r.body as Record<string, unknown>);
/** Waits for the reply to finish (Send is back). */
const replied = () => waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());

test('the solver badge follows the streamed statuses (retrying 1..3, then failed) and the Operation Failed panel opens with the suggested actions', async () => {
  const steps = stepGate();
  await openWorkspace({ gate: steps.gate });
  expect(solverBadge()).not.toBeInTheDocument();

  await ask('Agent • AI Powered', P2_PROMPT);
  for (const attempt of [1, 2, 3]) {
    steps.step();
    await waitFor(() => expect(solverBadge()).toHaveTextContent(`Solver: retrying (attempt ${attempt} of 3)`));
    expect(banner()).not.toBeInTheDocument();
  }
  steps.step();
  await waitFor(() => expect(solverBadge()).toHaveTextContent('Solver: failed'));

  // The main area's banner: the §8 message, the suggested actions and the three choices.
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });
  expect(within(panel).getByRole('heading', { name: 'Operation Failed' })).toBeInTheDocument();
  expect(within(panel).getByText(solverFailedMessage(3))).toHaveTextContent(
    'Math model requirements update cannot be fulfilled. Solver could not solve the problem after 3 attempts.',
  );
  expect(within(panel).getByText('Suggested actions')).toBeInTheDocument();
  expect(within(panel).getAllByRole('listitem').map((li) => li.textContent)).toEqual(P2_SUGGESTED_ACTIONS);
  for (const name of ['Rollback', 'Retry with Simpler Requirements', 'Reset Session']) {
    expect(within(panel).getByRole('button', { name })).toBeEnabled();
  }

  // The reply in the chat: the failure, 'Solver failed after 3 attempts' and the actions as a list.
  const log = messages();
  expect(await within(log).findByText('Solver failed after 3 attempts')).toBeInTheDocument();
  expect(within(log).getByText(`Error: ${solverFailedMessage(3)}`)).toBeInTheDocument();
  expect(within(log).getAllByRole('listitem').map((li) => li.textContent)).toEqual(P2_SUGGESTED_ACTIONS);
  expect(screen.getByRole('status', { name: 'Progress' })).toHaveTextContent('Final response: failed');
});

test('Retry with Simpler Requirements waits while the chat is replying: disabled until the reply is in', async () => {
  const steps = stepGate();
  await openWorkspace({ gate: steps.gate });
  await ask('Agent • AI Powered', P2_PROMPT);
  for (let i = 0; i < 4; i++) steps.step();
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });
  await replied();
  expect(within(panel).getByRole('button', { name: 'Retry with Simpler Requirements' })).toBeEnabled();

  // The user asks again: while that reply streams, the old failure's Retry waits.
  await ask('Agent • AI Powered', P2_PROMPT);
  await waitFor(() => expect(screen.getAllByRole('button', { name: 'Stop' }).length).toBeGreaterThan(0));
  expect(within(panel).getByRole('button', { name: 'Retry with Simpler Requirements' })).toBeDisabled();
  expect(within(panel).getByRole('button', { name: 'Reset Session' })).toBeEnabled();
  for (let i = 0; i < 4; i++) steps.step();
  await replied();
  expect(within(await screen.findByRole('alert', { name: 'Operation Failed' })).getByRole('button', { name: 'Retry with Simpler Requirements' })).toBeEnabled();
});

test('Retry with Simpler Requirements clears the panel and solves again at the next level: a "-retry" sheet with origin schedule_manual_retry', async () => {
  const { services, events } = await openWorkspace();
  await ask('Agent • AI Powered', P2_PROMPT);
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });

  await userEvent.click(within(panel).getByRole('button', { name: 'Retry with Simpler Requirements' }));
  expect(banner()).not.toBeInTheDocument();
  // The retry is a turn of the chat: the user's line, then the new sheet.
  expect(await within(messages()).findByText(/^Retry with Simpler Requirements: coverage made a target/)).toBeInTheDocument();
  const note = await within(messages()).findByText(/^Created sheet/);
  expect(note).toHaveTextContent(/^Created sheet Schedule \d\d-\d\d-\d\d-retry \(20 rows × 32 cols\)\.$/);

  const [, retry] = hybridBodies(services);
  expect(retry).toMatchObject({
    enable_ai_generation: false,
    parameters: { optimization: { kind: 'schedule', problem: p2Problem(), relaxation_level: 4, manual_retry: true } },
  });
  expect(retry).not.toHaveProperty('code');

  // What the api received: the name with the suffix, the origin, then the schedule's rows.
  const create = services.server.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/sheets');
  expect(create?.body).toMatchObject({
    name: expect.stringMatching(/^Schedule \d\d-\d\d-\d\d-retry$/),
    metadata: { origin: SCHEDULE_ORIGINS.manualRetry, rows: 20, columns: 32, grid_rows: 3, grid_cols: 32 },
  });
  const [[id, sheet]] = [...services.sheets];
  expect(sheet.metadata).toMatchObject({ origin: 'schedule_manual_retry' });
  expect(sheet.headers?.slice(0, 3)).toEqual(['Doctor ID', 'Doctor Name', '1']);
  expect(sheet.data?.[0].slice(0, 2)).toEqual(['D1', 'Doctor 1']);
  expect(events).toContain(`sheet-created ${JSON.stringify({ sheetId: id, name: create && (create.body as { name: string }).name })}`);
  await waitFor(() => expect(solverBadge()).toHaveTextContent('Solver: success'));
});

test('Retry is off when the failed run is already at the last relaxation level', async () => {
  await openWorkspace({ answer: (prompt) => (prompt === P2_PROMPT ? failedAfterRetries(p2Problem(), ['Add doctors'], 4) : null) });
  await ask('Agent • AI Powered', P2_PROMPT);
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });
  expect(within(panel).getByRole('button', { name: 'Retry with Simpler Requirements' })).toBeDisabled();
  expect(within(panel).getByRole('button', { name: 'Rollback' })).toBeEnabled();
});

test('Rollback discards the staged AI edit, checks out the version from before the AI’s last change and goes back to the last schedule that solved', async () => {
  const { services, events, reloads } = await openWorkspace();
  // The sheet's history as the api lists it: version 3 was live when the AI changed the sheet.
  services.history.set('sheet-1', [committedVersion(4, 'live'), committedVersion(3, 'archived'), committedVersion(2, 'archived')]);

  // 1. The AI changes the active sheet (version 3 before it).
  await ask('Agent • Direct Exec', 'result = sorted(rows)');
  await within(messages()).findByText(/: 4 cells changed\./);
  // 2. A schedule solves (P1): the model rollback goes back to.
  await ask('Agent • AI Powered', P1_PROMPT);
  expect(await within(messages()).findByText(/^Created sheet/)).toHaveTextContent(/^Created sheet Schedule \d\d-\d\d-\d\d \(/);
  await waitFor(() => expect(solverBadge()).toHaveTextContent('Solver: success'));
  // 3. AI Editing Mode with a staged edit.
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  await ask('Agent • Direct Exec', 'result = sorted(rows)');
  await within(messages()).findByText(/^Staged as a proposed version/);
  const proposal = services.versions[0].split(' ')[1];
  // 4. P2 fails after its retries.
  await ask('Agent • AI Powered', P2_PROMPT);
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });
  expect(solverBadge()).toHaveTextContent('Solver: failed');

  await userEvent.click(within(panel).getByRole('button', { name: 'Rollback' }));
  expect(
    await within(messages()).findByText(
      /discarded the staged AI edit; restored the sheet to version 3 \(now live as version 5\); back to the last schedule model that solved \(12 staff over 28 days\)\.$/,
    ),
  ).toBeInTheDocument();
  expect(services.versions).toEqual([`propose ${proposal}`, `discard ${proposal}`, 'checkout 3']);
  expect(services.server.calls()).toContain('GET /api/v1/sheets/sheet-1/history');
  expect(reloads()).toBe(1);
  expect(events).toContain('sheet-history-refresh {"sheetId":"sheet-1"}');
  expect(banner()).not.toBeInTheDocument();
  expect(screen.queryByRole('group', { name: 'AI Editing Mode' })).not.toBeInTheDocument();
  expect(solverBadge()).toHaveTextContent('Solver: success');
});

test('Rollback after a committed AI edit checks out the version it was committed on; with no schedule solved before, the badge goes', async () => {
  const { services } = await openWorkspace();
  services.history.set('sheet-1', [committedVersion(4, 'live'), committedVersion(3, 'archived')]);
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  await ask('Agent • Direct Exec', 'result = sorted(rows)');
  await within(messages()).findByText(/^Staged as a proposed version/);
  await userEvent.click(within(screen.getByRole('group', { name: 'AI Editing Mode' })).getByRole('button', { name: 'Commit' }));
  await waitFor(() => expect(screen.queryByRole('group', { name: 'AI Editing Mode' })).not.toBeInTheDocument());
  await ask('Agent • AI Powered', P2_PROMPT);
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });

  await userEvent.click(within(panel).getByRole('button', { name: 'Rollback' }));
  expect(
    await within(messages()).findByText(/restored the sheet to version 3 \(now live as version 5\); no schedule had solved before, so the solver status is cleared\.$/),
  ).toBeInTheDocument();
  const proposal = services.versions[0].split(' ')[1];
  expect(services.versions).toEqual([`propose ${proposal}`, `accept ${proposal}`, 'checkout 3']);
  expect(solverBadge()).not.toBeInTheDocument();
  expect(banner()).not.toBeInTheDocument();
});

test('Reset Session discards the active AI edit and clears the response and the solver state: badge and banner go', async () => {
  const { services } = await openWorkspace();
  await userEvent.click(screen.getByRole('button', { name: 'AI Editing Mode' }));
  await ask('Agent • Direct Exec', 'result = sorted(rows)');
  await within(messages()).findByText(/^Staged as a proposed version/);
  await ask('Agent • AI Powered', P2_PROMPT);
  const panel = await screen.findByRole('alert', { name: 'Operation Failed' });
  expect(solverBadge()).toHaveTextContent('Solver: failed');

  await userEvent.click(within(panel).getByRole('button', { name: 'Reset Session' }));
  await waitFor(() => expect(banner()).not.toBeInTheDocument());
  expect(solverBadge()).not.toBeInTheDocument();
  expect(screen.queryByRole('group', { name: 'AI Editing Mode' })).not.toBeInTheDocument();
  const proposal = services.versions[0].split(' ')[1];
  expect(services.versions).toEqual([`propose ${proposal}`, `discard ${proposal}`]);
  // Nothing was checked out: Reset does not touch the sheet's versions.
  expect(services.server.calls()).not.toContain('GET /api/v1/sheets/sheet-1/history');
});

test('a solve that says it succeeded but carries no grid is an error, and no sheet is made', async () => {
  const { services } = await openWorkspace({ answer: (prompt) => (prompt === P1_PROMPT ? solved(p1Problem(), { withGrid: false }) : null) });
  await ask('Agent • AI Powered', P1_PROMPT);
  expect(await within(messages()).findByText(`Error: ${SCHEDULE_GRID_EXTRACTION_FAILED}`)).toHaveTextContent(
    'Error: Schedule success flag true but grid extraction failed',
  );
  await replied();
  expect(screen.getByRole('status', { name: 'Progress' })).toHaveTextContent('Final response: failed');
  expect(services.server.calls()).not.toContain('POST /api/v1/sheets');
});
