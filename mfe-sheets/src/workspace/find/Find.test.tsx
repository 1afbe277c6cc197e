import { fireEvent, screen, waitFor } from '@testing-library/react';
import { FIND_TEXTS, type Sheet } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { currentGrid, shownText } from '../testing/grid-instances.js';
import { closeLiveShells, liveShellFor } from '../testing/live-shell.js';
import { makeSheet, startSheetApi, type SheetTestApi } from '../testing/workspace-test-api.js';
import Workspace from '../Workspace.js';
import { FIND_CURRENT_CLASS, FIND_MATCH_CLASS } from './find-marks.js';

jest.setTimeout(30_000);

let api: SheetTestApi;
let fruit: Sheet;

beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  fruit = makeSheet('Fruit', [['Apple', 3], ['Pear', 'pineapple'], [null, 13], ['APPLE pie', 'x']], ['Name', 'N']);
  api = await startSheetApi([fruit]);
});
afterEach(async () => {
  closeLiveShells();
  await api.close();
});

async function opens(readOnly = false) {
  renderInShell(<Workspace shell={liveShellFor(api.url, fruit.id, 'alice')} readOnly={readOnly} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('Apple'));
  // The user is in the grid (a cell selected): Ctrl+F is the sheet's.
  currentGrid().selectCell(2, 1);
}

const ctrlF = (options: { ctrlKey?: boolean; metaKey?: boolean } = { ctrlKey: true }) => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'f', ...options });
const findBox = () => screen.getByRole('textbox', { name: FIND_TEXTS.label });
const selected = () => currentGrid().getSelectedLast()?.slice(0, 2);
const count = () => screen.getByTestId('find-count');

test('Ctrl+F opens the find bar over the grid; typing finds without case and selects the first match; Enter and Shift+Enter go round; Escape closes it', async () => {
  await opens();
  expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
  const event = ctrlF();
  // Not the browser's find.
  expect(event).toBe(false);
  expect(findBox()).toHaveFocus();

  fireEvent.change(findBox(), { target: { value: 'apple' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 3'));
  expect(selected()).toEqual([0, 0]);
  fireEvent.keyDown(findBox(), { key: 'Enter' });
  expect(count()).toHaveTextContent('2 of 3');
  expect(selected()).toEqual([1, 1]);
  fireEvent.keyDown(findBox(), { key: 'Enter' });
  expect(selected()).toEqual([3, 0]);
  // Past the last: the first again; and back.
  fireEvent.keyDown(findBox(), { key: 'Enter' });
  expect(count()).toHaveTextContent('1 of 3');
  expect(selected()).toEqual([0, 0]);
  fireEvent.keyDown(findBox(), { key: 'Enter', shiftKey: true });
  expect(count()).toHaveTextContent('3 of 3');
  expect(selected()).toEqual([3, 0]);
  fireEvent.click(screen.getByRole('button', { name: FIND_TEXTS.previous }));
  expect(selected()).toEqual([1, 1]);
  // A number is found by the text it shows; nothing found says so.
  fireEvent.change(findBox(), { target: { value: '13' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 1'));
  expect(selected()).toEqual([2, 1]);
  fireEvent.change(findBox(), { target: { value: 'kiwi' } });
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.noMatches));

  fireEvent.keyDown(findBox(), { key: 'Escape' });
  expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
  // The keys are the grid's again, on the cell it was at.
  expect(currentGrid().isListening()).toBe(true);
  expect(selected()).toEqual([2, 1]);
});

test("Ctrl+F is the sheet's with nothing focused (the sheet just opened) or a button elsewhere focused; not while the user types in another field or is in a dialog", async () => {
  renderInShell(<Workspace shell={liveShellFor(api.url, fruit.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('Apple'));
  currentGrid().unlisten();
  // Another remote's text field (the chat's composer): the browser's find.
  const composer = document.body.appendChild(document.createElement('textarea'));
  composer.focus();
  expect(ctrlF()).toBe(true);
  expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
  // A dialog over the page: its own.
  const dialog = document.body.appendChild(document.createElement('div'));
  dialog.setAttribute('role', 'dialog');
  const ok = dialog.appendChild(document.createElement('button'));
  ok.focus();
  expect(ctrlF()).toBe(true);
  expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
  // A button of the navigator: the sheet's find.
  const navigatorRow = document.body.appendChild(document.createElement('button'));
  navigatorRow.focus();
  expect(ctrlF()).toBe(false);
  expect(findBox()).toHaveFocus();
  fireEvent.keyDown(findBox(), { key: 'Escape' });
  // Nothing focused (the page just loaded on the sheet's address).
  (document.activeElement as HTMLElement).blur();
  currentGrid().unlisten();
  expect(document.activeElement).toBe(document.body);
  expect(ctrlF()).toBe(false);
  expect(findBox()).toHaveFocus();
  composer.remove();
  dialog.remove();
  navigatorRow.remove();
});

test('a cell edited since the search is passed over: the grid is searched again', async () => {
  await opens();
  ctrlF({ metaKey: true });
  fireEvent.change(findBox(), { target: { value: 'apple' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 3'));
  currentGrid().setDataAtCell(1, 1, 'plum');
  fireEvent.keyDown(findBox(), { key: 'Enter' });
  await waitFor(() => expect(count()).toHaveTextContent('2 of 2'));
  expect(selected()).toEqual([3, 0]);
});

test('a read-only grid (a viewer, a version preview) finds too', async () => {
  await opens(true);
  ctrlF();
  fireEvent.change(findBox(), { target: { value: 'pie' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 1'));
  expect(selected()).toEqual([3, 0]);
});

test("a formula is found by the value it shows, not by its text", async () => {
  const totals = makeSheet('Totals', [[2, '=A1*21', 'sum']]);
  api.sheets.set(totals.id, totals);
  renderInShell(<Workspace shell={liveShellFor(api.url, totals.id, 'alice')} />);
  await screen.findByTestId('sheet-grid');
  await waitFor(() => expect(shownText(0, 1)).toBe('42'));
  currentGrid().selectCell(0, 0);
  ctrlF();
  fireEvent.change(findBox(), { target: { value: '42' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 1'));
  expect(selected()).toEqual([0, 1]);
  fireEvent.change(findBox(), { target: { value: 'a1' } });
  await waitFor(() => expect(count()).toHaveTextContent(FIND_TEXTS.noMatches));
});

test('every drawn match is marked, the one gone to more strongly; the marks follow edits and go when the bar closes', async () => {
  await opens();
  const marked = () =>
    [0, 1, 2, 3].flatMap((row) => [0, 1].map((col) => [row, col, currentGrid().getCell(row, col)?.className ?? ''] as const)).filter(([, , c]) => c.includes(FIND_MATCH_CLASS));
  const current = () => marked().filter(([, , c]) => c.includes(FIND_CURRENT_CLASS)).map(([row, col]) => [row, col]);
  ctrlF();
  fireEvent.change(findBox(), { target: { value: 'apple' } });
  await waitFor(() => expect(count()).toHaveTextContent('1 of 3'));
  await waitFor(() => expect(marked().map(([row, col]) => [row, col])).toEqual([[0, 0], [1, 1], [3, 0]]));
  expect(current()).toEqual([[0, 0]]);
  fireEvent.keyDown(findBox(), { key: 'Enter' });
  await waitFor(() => expect(current()).toEqual([[1, 1]]));
  // Edited to stop matching: no mark; edited to match: marked (by the same rule as find, without case).
  currentGrid().setDataAtCell(3, 0, 'plum');
  currentGrid().setDataAtCell(2, 1, 'Crab APPLE');
  await waitFor(() => expect(marked().map(([row, col]) => [row, col])).toEqual([[0, 0], [1, 1], [2, 1]]));
  fireEvent.keyDown(findBox(), { key: 'Escape' });
  await waitFor(() => expect(marked()).toEqual([]));
});
