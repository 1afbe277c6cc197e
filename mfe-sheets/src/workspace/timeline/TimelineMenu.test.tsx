import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SnapshotListSchema, createDevShellContext, type Sheet, type ShellContext, type Snapshot } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from '../testing/grid-instances.js';
import { makeSheet, startSheetApi, type SheetTestApi } from '../testing/workspace-test-api.js';
import Workspace from '../Workspace.js';
import { serveTimeline, type TimelineTestApi } from './timeline-test-api.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let timeline: TimelineTestApi;
let budget: Sheet;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function entry(version: number, author: string | null, createdAt: string, delta: number | null): Snapshot {
  // Built through the contracts' schema: the test server answers only what the api may answer.
  return SnapshotListSchema.parse({
    snapshots: [{ sheet_id: budget.id, version, first_version: version, created_at: createdAt, author, delta_cells: delta, label: null }],
  }).snapshots[0];
}

beforeEach(async () => {
  budget = makeSheet('Budget', [['Rent', 1300], ['Food', 350]], ['Item', 'Cost']);
  budget.version = 3;
  api = await startSheetApi([budget]);
  timeline = serveTimeline(api);
  // Half a minute past the minute: the label holds however long the render takes.
  timeline.snapshots.set(budget.id, [
    entry(3, 'ana', minutesAgo(5.5), 2),
    entry(2, 'bo', minutesAgo(3 * 60 + 0.5), 1),
    entry(1, null, minutesAgo(2 * 24 * 60 + 0.5), null),
  ]);
  timeline.contents.set(
    budget.id,
    new Map([
      [1, [['Rent', 1200], ['Food', 300]]],
      [2, [['Rent', 1250], ['Food', 300]]],
    ]),
  );
});
afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

const snapshotCalls = () => api.requests.filter((r) => r.path.includes('/snapshots'));

async function openTimeline(shell: ShellContext = createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' })) {
  renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  await userEvent.click(screen.getByTestId('timeline-menu'));
  const panel = await screen.findByTestId('timeline-panel');
  await waitFor(() => expect(within(panel).getAllByTestId('timeline-entry').length).toBeGreaterThan(0));
  return { shell, panel };
}

const rows = (panel: HTMLElement) => within(panel).getAllByTestId('timeline-entry').map((e) => e.textContent);

test('the Timeline menu lists the snapshots newest first with author, relative time and changed cells, asking for 60', async () => {
  expect(snapshotCalls()).toEqual([]);
  const { panel } = await openTimeline();
  expect(within(panel).getByText('Snapshots')).toBeInTheDocument();
  expect(snapshotCalls().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/sheets/${budget.id}/snapshots?limit=60`]);
  expect(rows(panel)).toEqual([
    '#3 · ana5m ago · 2 cellscurrent',
    '#2 · bo3h ago · 1 cellPreviewRestore',
    '#1 · Unknown2d ago · whole sheetPreviewRestore',
  ]);
  // The live version is what the sheet shows: nothing to restore there.
  expect(within(panel).queryByRole('button', { name: 'Restore #3' })).not.toBeInTheDocument();
});

test("Refresh and 'sheet-history-refresh' for this sheet fetch the list again; another sheet's event does not", async () => {
  const { shell, panel } = await openTimeline();
  timeline.snapshots.get(budget.id)?.unshift(entry(4, 'cy', minutesAgo(0.5), 3));
  await userEvent.click(within(panel).getByTestId('timeline-refresh'));
  await waitFor(() => expect(rows(panel)[0]).toBe('#4 · cy0m ago · 3 cellsPreviewRestore'));
  expect(snapshotCalls()).toHaveLength(2);

  timeline.snapshots.get(budget.id)?.unshift(entry(5, 'di', minutesAgo(0.5), 7));
  act(() => shell.bus.emit('sheet-history-refresh', { sheetId: 'some-other-sheet' }));
  act(() => shell.bus.emit('sheet-history-refresh', { sheetId: budget.id }));
  await waitFor(() => expect(rows(panel)[0]).toBe('#5 · di0m ago · 7 cellsPreviewRestore'));
  expect(snapshotCalls()).toHaveLength(3);
});

test('Restore asks first; Cancel sends nothing; confirming restores, reloads the grid at the new version, emits sheet-updated and reloads the list', async () => {
  const dev = createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' });
  let reloads = 0;
  const { shell } = await openTimeline({ ...dev, live: { ...dev.live, requestReload: () => void reloads++ } });
  const updated: unknown[] = [];
  shell.bus.on('sheet-updated', (e) => updated.push(e));

  await userEvent.click(screen.getByRole('button', { name: 'Restore #1' }));
  let dialog = await screen.findByRole('alertdialog');
  expect(within(dialog).getByText('Restore version #1?')).toBeInTheDocument();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);

  await userEvent.click(screen.getByTestId('timeline-menu'));
  await userEvent.click(await screen.findByRole('button', { name: 'Restore #1' }));
  dialog = await screen.findByRole('alertdialog');
  const gets = api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${budget.id}`).length;
  await userEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));

  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/v1/sheets/${budget.id}/snapshots/1/restore`]);
  // The grid shows the server's sheet again: version 4, holding version 1's content.
  await waitFor(() => expect(shell.sheet.version).toBe(4));
  await screen.findByTestId('sheet-grid');
  expect(currentGrid().getSourceDataAtCell(0, 1)).toBe(1200);
  expect(api.requests.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v1/sheets/${budget.id}`)).toHaveLength(gets + 1);
  expect(updated).toEqual([{ sheetId: budget.id, version: 4 }]);
  // A restore is a checkout: everyone on the sheet is asked to reload it (reload_request).
  expect(reloads).toBe(1);
  // Spec 02 §4: then the snapshot list is reloaded: the restore is its newest entry, and the live one.
  await userEvent.click(screen.getByTestId('timeline-menu'));
  const panel = await screen.findByTestId('timeline-panel');
  await waitFor(() => expect(rows(panel)[0]).toBe('#4 · Unknown0m ago · whole sheetcurrent'));
  expect(snapshotCalls().filter((r) => r.method === 'GET')).toHaveLength(3);
});

test("a failed list shows 'Failed to load snapshots: {server message}'; Refresh recovers", async () => {
  timeline.next = { status: 403, body: { error: { code: 'forbidden', message: 'You cannot see this sheet' } } };
  renderInShell(<Workspace shell={createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  await userEvent.click(screen.getByTestId('timeline-menu'));
  expect(await screen.findByTestId('timeline-error')).toHaveTextContent('Failed to load snapshots: You cannot see this sheet');
  await userEvent.click(screen.getByTestId('timeline-refresh'));
  await waitFor(() => expect(screen.getAllByTestId('timeline-entry')).toHaveLength(3));
  expect(screen.queryByTestId('timeline-error')).not.toBeInTheDocument();
});

test('a reply that does not match the contracts\' schema is not shown raw', async () => {
  timeline.next = { status: 200, body: { snapshots: [{ version: 'three' }] } };
  jest.spyOn(console, 'error').mockImplementation(() => {});
  renderInShell(<Workspace shell={createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  await userEvent.click(screen.getByTestId('timeline-menu'));
  expect(await screen.findByTestId('timeline-error')).toHaveTextContent('Failed to load snapshots: Unknown error occurred');
  expect(screen.queryAllByTestId('timeline-entry')).toHaveLength(0);
});

test('a refused restore keeps the dialog open with the reason; the grid stays as it was', async () => {
  await openTimeline();
  await userEvent.click(screen.getByRole('button', { name: 'Restore #2' }));
  const dialog = await screen.findByRole('alertdialog');
  timeline.next = { status: 409, body: { error: { code: 'conflict', message: 'Version 2 was discarded' } } };
  await userEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
  expect(await within(dialog).findByTestId('timeline-restore-error')).toHaveTextContent('Failed to restore snapshot: Version 2 was discarded');
  expect(currentGrid().getSourceDataAtCell(0, 1)).toBe(1300);
  expect(api.sheets.get(budget.id)?.version).toBe(3);
});
