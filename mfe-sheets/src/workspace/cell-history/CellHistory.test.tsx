import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { serveVersions, type VersionsTestApi } from '../preview/versions-test-api.js';
import { currentGrid } from '../testing/grid-instances.js';
import { makeSheet, startSheetApi, type SheetTestApi } from '../testing/workspace-test-api.js';
import Workspace from '../Workspace.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let versions: VersionsTestApi;
let budget: Sheet;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

beforeEach(async () => {
  budget = makeSheet('Budget', [['Rent', 1300], ['Food', 350]], ['Item', 'Cost']);
  api = await startSheetApi([budget]);
  versions = serveVersions(api);
  versions.cellHistory.set(
    budget.id,
    new Map([
      [
        '0:1',
        [
          { version: 3, author: 'bo', created_at: minutesAgo(5.5), kind: 'edit', old: 1250, new: 1300 },
          { version: 2, author: null, created_at: minutesAgo(3 * 60 + 0.5), kind: 'edit', old: null, new: 1250 },
        ],
      ],
    ]),
  );
});
afterEach(() => api.close());

/** What choosing 'Cell history' in the grid's right-click menu on that cell runs. */
function cellHistoryFromMenu(row: number, col: number) {
  act(() => {
    const grid = currentGrid();
    grid.selectCell(row, col);
    grid.getPlugin('contextMenu').executeCommand('cell_history');
  });
}

test("the grid's context menu opens a cell's history: who, when (relative), from what to what", async () => {
  renderInShell(<Workspace shell={createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  const items = (currentGrid().getSettings().contextMenu as { items: Record<string, { name?: string }> }).items;
  expect(items.cell_history.name).toBe('Cell history');

  cellHistoryFromMenu(0, 1);
  const dialog = await screen.findByTestId('cell-history');
  expect(within(dialog).getByText('History of B1')).toBeInTheDocument();
  await waitFor(() => expect(within(dialog).getAllByTestId('cell-history-entry')).toHaveLength(2));
  expect(within(dialog).getAllByTestId('cell-history-entry').map((e) => e.textContent)).toEqual(['#3bo5m ago1250 → 1300', '#2Unknown3h ago(empty) → 1250']);
  expect(api.requests.map((r) => r.path)).toContain(`/api/v1/sheets/${budget.id}/cells/0/1/history`);

  await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByTestId('cell-history')).not.toBeInTheDocument());

  cellHistoryFromMenu(1, 0);
  expect(await screen.findByText('No changes recorded for this cell')).toBeInTheDocument();
  expect(screen.getByText('History of A2')).toBeInTheDocument();
});

test('a failed history says why', async () => {
  renderInShell(<Workspace shell={createDevShellContext({ apiBaseURL: api.url, sheetId: budget.id, tab: 'data' })} />);
  await screen.findByTestId('sheet-grid');
  versions.next = { status: 403, body: { error: { code: 'forbidden', message: 'You cannot see this sheet' } } };
  cellHistoryFromMenu(0, 0);
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load cell history: You cannot see this sheet');
});
