import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { FREEZE_STORAGE_KEY, FREEZE_TEXTS, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid } from './testing/grid-instances.js';
import { menuEntry, menuTexts } from './testing/workspace-menus.js';
import { closeLiveShells, colleagueJoins, liveShellFor } from './testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';
import Workspace from './Workspace.js';

jest.setTimeout(30_000);

/** The user's own frozen rows and columns (freeze/): the menu's entries, the grid's frozen panes, following others' ops, remembered per sheet. */
let api: SheetTestApi;
let tasks: Sheet;

beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  localStorage.clear();
  tasks = makeSheet(
    'Tasks',
    [
      ['Paint', 'open', 3],
      ['Wire', 'done', 5],
      ['Plumb', 'open', 8],
    ],
    ['Task', 'Status', 'Hours'],
  );
  api = await startSheetApi([tasks]);
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

async function aliceOpens() {
  renderInShell(<Workspace shell={liveShellFor(api.url, tasks.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(api.live.sockets('alice')).toBe(1));
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('Paint'));
}

const bobJoins = () => colleagueJoins(api.url, tasks.id);

/** What the grid keeps in view: its frozen rows and columns (Handsontable's fixed panes). */
const frozen = () => {
  const settings = currentGrid().getSettings();
  return { rows: settings.fixedRowsTop ?? 0, cols: settings.fixedColumnsStart ?? 0 };
};
/** The column headers drawn in the frozen pane at the start, as the user reads them. */
const frozenHeaders = () => [...document.querySelectorAll('.ht_clone_top_inline_start_corner thead th')].map((th) => th.textContent?.trim()).filter((t) => t);
const aliceOps = () => api.live.received.filter((r) => r.userId === 'alice' && r.frame.type === 'operation');

test("'Freeze up to column X' and 'Freeze up to row N' keep the first columns and rows in view; others' inserts and removes before the edge move it; nothing is sent", async () => {
  await aliceOpens();
  const hot = currentGrid();
  act(() => void hot.selectCell(1, 1));
  expect(menuTexts(hot)).toEqual(expect.arrayContaining([FREEZE_TEXTS.columns('Status'), FREEZE_TEXTS.rows(2), FREEZE_TEXTS.unfreeze]));
  expect(menuEntry(hot, FREEZE_TEXTS.unfreeze)).toBe('disabled');
  act(() => hot.getPlugin('contextMenu').executeCommand('freeze_columns'));
  expect(frozen()).toEqual({ rows: 0, cols: 2 });
  act(() => hot.getPlugin('contextMenu').executeCommand('freeze_rows'));
  expect(frozen()).toEqual({ rows: 2, cols: 2 });
  expect(frozenHeaders()).toEqual(['Task', 'Status']);
  expect(menuEntry(hot, FREEZE_TEXTS.unfreeze)).toBe('enabled');
  // Past the bound (11 columns): shown, greyed out, saying why.
  act(() => void hot.selectCell(0, 10));
  const tooMany = FREEZE_TEXTS.columnsTooMany('K');
  expect(menuEntry(hot, tooMany)).toBe('disabled');

  // Bob inserts a column before Task: Task and Status stay frozen, one column on (the new one with them).
  const bob = await bobJoins();
  await bob.acked(bob.send({ type: 'columns_insert', index: 0, count: 1 }));
  await waitFor(() => expect(frozen()).toEqual({ rows: 2, cols: 3 }));
  // One right of the edge: nothing more frozen. Two removed across the edge (Status and Hours): one less.
  await bob.acked(bob.send({ type: 'columns_insert', index: 3, count: 1 }));
  await bob.acked(bob.send({ type: 'columns_remove', index: 2, count: 2 }));
  await waitFor(() => expect(frozen()).toEqual({ rows: 2, cols: 2 }));
  // Rows inserted at the top: the two frozen rows are rows 3 and 4 now, with the new ones above them.
  await bob.acked(bob.send({ type: 'rows_insert', index: 0, count: 2 }));
  await waitFor(() => expect(frozen()).toEqual({ rows: 4, cols: 2 }));
  // Alice's own insert before the edge moves it too.
  act(() => {
    hot.selectCell(0, 0);
    hot.getPlugin('contextMenu').executeCommand('col_left');
  });
  expect(frozen()).toEqual({ rows: 4, cols: 3 });
  // Freezing is personal: none of it went to the server (only the column insert).
  await waitFor(() => expect(aliceOps()).toHaveLength(1));
});

test('the freeze is remembered for the sheet across a reload; Unfreeze forgets it; what storage holds is checked before it is used', async () => {
  await aliceOpens();
  act(() => {
    currentGrid().selectCell(0, 0);
    currentGrid().getPlugin('contextMenu').executeCommand('freeze_columns');
    currentGrid().getPlugin('contextMenu').executeCommand('freeze_rows');
  });
  cleanup();
  closeLiveShells();
  await aliceOpens();
  expect(frozen()).toEqual({ rows: 1, cols: 1 });
  act(() => {
    currentGrid().selectCell(0, 0);
    currentGrid().getPlugin('contextMenu').executeCommand('unfreeze');
  });
  expect(frozen()).toEqual({ rows: 0, cols: 0 });
  cleanup();
  closeLiveShells();
  // Someone's storage naming more than the bound: not used.
  localStorage.setItem(`${FREEZE_STORAGE_KEY}.alice`, JSON.stringify([[tasks.id, 1000, 2]]));
  await aliceOpens();
  expect(frozen()).toEqual({ rows: 0, cols: 0 });
});
