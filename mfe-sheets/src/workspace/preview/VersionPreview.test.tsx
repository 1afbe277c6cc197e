import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type Sheet, type ShellContext, type Snapshot } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { HIGHLIGHT_CLASS } from '../grid/SheetGrid.js';
import { currentGrid, shownText } from '../testing/grid-instances.js';
import { makeSheet, startSheetApi, type SheetTestApi } from '../testing/workspace-test-api.js';
import { serveTimeline } from '../timeline/timeline-test-api.js';
import Workspace from '../Workspace.js';
import { serveVersions, versionOf, type VersionsTestApi } from './versions-test-api.js';

jest.setTimeout(30_000);

const PROPOSAL = '5f0c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';

let api: SheetTestApi;
let versions: VersionsTestApi;
let budget: Sheet;
let reloads: number;

const snapshot = (version: number): Snapshot => ({
  sheet_id: budget.id,
  version,
  first_version: version,
  created_at: new Date().toISOString(),
  author: 'ana',
  delta_cells: 1,
  label: null,
});

beforeEach(async () => {
  budget = makeSheet('Budget', [['Rent', 1300], ['Food', 350], ['Gym', 40]], ['Item', 'Cost']);
  budget.version = 3;
  api = await startSheetApi([budget]);
  const timeline = serveTimeline(api);
  timeline.snapshots.set(budget.id, [snapshot(3), snapshot(2), snapshot(1)]);
  versions = serveVersions(api);
  versions.versions.set(
    budget.id,
    new Map([
      ['1', versionOf('1', 'archived', ['Item', 'Cost'], [['Rent', 1200], ['Food', 300]])],
      ['2', versionOf('2', 'archived', ['Item', 'Cost'], [['Rent', 1300], ['Food', 300]])],
      ['3', versionOf('3', 'live', ['Item', 'Cost'], [['Rent', 1300], ['Food', 350], ['Gym', 40]])],
      [PROPOSAL, versionOf(PROPOSAL, 'proposed', ['Item', 'Cost'], [['Rent', 1300], ['Food', 350], ['Gym', 45]])],
    ]),
  );
  reloads = 0;
});
afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

/** The dev shell, with a live socket that counts reload requests (the shell's sends reload_request). */
function shellFor(sheetId: string): ShellContext {
  const shell = createDevShellContext({ apiBaseURL: api.url, sheetId, tab: 'data' });
  return { ...shell, live: { ...shell.live, requestReload: () => void reloads++ } };
}

async function openWorkspace(shell = shellFor(budget.id)) {
  renderInShell(<Workspace shell={shell} />);
  await screen.findByTestId('sheet-grid');
  return shell;
}

async function previewFromTimeline(version: number) {
  await userEvent.click(screen.getByTestId('timeline-menu'));
  const panel = await screen.findByTestId('timeline-panel');
  await userEvent.click(await within(panel).findByRole('button', { name: `Preview #${version}` }));
  return screen.findByTestId('preview-banner');
}

const highlighted = () => [...screen.getByTestId('sheet-grid').querySelectorAll(`td.${HIGHLIGHT_CLASS}`)].map((td) => td.textContent);

test("Preview from the Timeline shows that version read-only under 'Previewing version #N', its differences highlighted; Exit Preview returns to the live grid", async () => {
  const shell = await openWorkspace();
  const previewing: unknown[] = [];
  shell.bus.on('sheet-version-previewing', (e) => previewing.push(e));
  const banner = await previewFromTimeline(1);
  expect(within(banner).getByText('Previewing version #1')).toBeInTheDocument();
  await waitFor(() => expect(currentGrid().getSourceDataAtCell(0, 1)).toBe(1200));
  // The toolbar says the version's size (2 rows), not the live sheet's (3).
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('2 rows × 2 cols');
  expect(currentGrid().getSettings().readOnly).toBe(true);
  // Live: Rent 1300, Food 350, Gym 40; version 1: Rent 1200, Food 300 and no Gym row.
  expect(within(banner).getByTestId('preview-diff-count')).toHaveTextContent('4 cells differ from the live version');
  await waitFor(() => expect(highlighted()).toEqual(['1200', '300', '', '']));
  // Saving or deleting is not offered while a version is previewed.
  await userEvent.click(screen.getByTestId('file-menu'));
  expect(await screen.findByTestId('file-save')).toHaveAttribute('data-disabled');
  await userEvent.keyboard('{Escape}');
  expect(previewing).toContainEqual({ sheetId: budget.id, versionId: '1' });

  await userEvent.click(within(banner).getByRole('button', { name: 'Exit Preview' }));
  await waitFor(() => expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument());
  await waitFor(() => expect(currentGrid().getSourceDataAtCell(0, 1)).toBe(1300));
  expect(currentGrid().getSettings().readOnly).toBe(false);
  expect(highlighted()).toEqual([]);
  expect(screen.getByTestId('sheet-size')).toHaveTextContent('3 rows × 2 cols');
  expect(previewing.at(-1)).toEqual({ sheetId: budget.id, versionId: null });
  expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);
});

test('Apply checks out an archived version: the grid reloads with its content, reload_request goes out, the lists refresh', async () => {
  const shell = await openWorkspace();
  const refreshed: unknown[] = [];
  shell.bus.on('sheet-history-refresh', (e) => refreshed.push(e));
  const banner = await previewFromTimeline(2);
  await waitFor(() => expect(within(banner).getByRole('button', { name: 'Apply' })).toBeEnabled());
  await userEvent.click(within(banner).getByRole('button', { name: 'Apply' }));

  await waitFor(() => expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/v1/sheets/${budget.id}/versions/2/checkout`]);
  await waitFor(() => expect(shell.sheet.version).toBe(4));
  await screen.findByTestId('sheet-grid');
  expect(currentGrid().getSourceDataAtCell(1, 1)).toBe(300);
  expect(currentGrid().getSettings().readOnly).toBe(false);
  expect(reloads).toBe(1);
  expect(refreshed).toEqual([{ sheetId: budget.id }]);
});

test("the git tab's preview request opens a proposal; Apply accepts it", async () => {
  const shell = await openWorkspace();
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: 'another-sheet', versionId: PROPOSAL }));
  expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument();
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: budget.id, versionId: PROPOSAL }));
  const banner = await screen.findByTestId('preview-banner');
  expect(within(banner).getByText(`Previewing version #${PROPOSAL.slice(0, 8)}`)).toBeInTheDocument();
  await waitFor(() => expect(within(banner).getByTestId('preview-diff-count')).toHaveTextContent('1 cell differs from the live version'));
  await waitFor(() => expect(highlighted()).toEqual(['45']));

  await userEvent.click(within(banner).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/v1/sheets/${budget.id}/versions/${PROPOSAL}/accept`]);
  await waitFor(() => expect(shell.sheet.version).toBe(4));
  await screen.findByTestId('sheet-grid');
  expect(currentGrid().getSourceDataAtCell(2, 1)).toBe(45);
  expect(reloads).toBe(1);
});

test('a staged AI edit previews through the bus without Apply (the badge decides) and a null version ends the preview', async () => {
  const shell = await openWorkspace();
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: budget.id, versionId: PROPOSAL, staged: true }));
  const banner = await screen.findByTestId('preview-banner');
  expect(within(banner).getByTestId('preview-staged')).toHaveTextContent('AI Editing Mode: Commit or Discard it with the badge in the header');
  expect(within(banner).queryByRole('button', { name: 'Apply' })).not.toBeInTheDocument();
  expect(within(banner).queryByRole('button', { name: 'Exit Preview' })).not.toBeInTheDocument();
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: 'another-sheet', versionId: null }));
  expect(screen.getByTestId('preview-banner')).toBeInTheDocument();
  act(() => shell.bus.emit('sheet-version-preview', { sheetId: budget.id, versionId: null }));
  await waitFor(() => expect(screen.queryByTestId('preview-banner')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);
});

test('a refused Apply is only logged (spec 02 §8) and the preview stays; without a current sheet id Apply does nothing', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const shell = await openWorkspace();
  const banner = await previewFromTimeline(1);
  await waitFor(() => expect(within(banner).getByRole('button', { name: 'Apply' })).toBeEnabled());
  versions.next = { status: 409, body: { error: { code: 'conflict', message: 'Version 1 was discarded' } } };
  await userEvent.click(within(banner).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(errors).toHaveBeenCalledWith(expect.stringContaining('apply of version 1 failed'), 409, 'Failed to checkout version: Version 1 was discarded'));
  expect(screen.getByTestId('preview-banner')).toBeInTheDocument();
  expect(reloads).toBe(0);
  expect(api.sheets.get(budget.id)?.version).toBe(3);

  // The route lost its sheet (spec 02 §4: Apply does nothing without a current sheet id).
  (shell.sheet as { id: string | null }).id = null;
  await userEvent.click(within(banner).getByRole('button', { name: 'Apply' }));
  expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
});

test('a version that cannot be loaded says why in the banner', async () => {
  await openWorkspace();
  versions.next = { status: 404, body: { error: { code: 'not_found', message: 'Version not found' } } };
  const banner = await previewFromTimeline(2);
  expect(await within(banner).findByTestId('preview-error')).toHaveTextContent('Failed to load version: Version not found');
  expect(within(banner).getByRole('button', { name: 'Apply' })).toBeDisabled();
});

test('a version that holds formulas previews them computed, on a plain live sheet', async () => {
  versions.versions.get(budget.id)?.set('2', versionOf('2', 'archived', ['Item', 'Cost'], [['Rent', 1300], ['Food', 300], ['Total', '=SUM(B1:B2)']]));
  await openWorkspace();
  expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'off');
  await previewFromTimeline(2);
  await waitFor(() => expect(screen.getByTestId('sheet-grid')).toHaveAttribute('data-formulas', 'on'));
  await waitFor(() => expect(shownText(2, 1)).toBe('1600'));
  expect(currentGrid().getSourceDataAtCell(2, 1)).toBe('=SUM(B1:B2)');
});
