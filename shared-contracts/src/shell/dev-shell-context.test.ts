import { createDevShellContext } from './dev-shell-context.js';
import { nextCellSelection } from './shell-context.js';

test('the §4 selection rule: non-negative integers only, the same cell again is no change', () => {
  expect(nextCellSelection(null, 0, 0)).toEqual({ kind: 'select', selection: { row: 0, col: 0 } });
  expect(nextCellSelection({ row: 1, col: 2 }, 1, 2)).toEqual({ kind: 'same' });
  expect(nextCellSelection({ row: 1, col: 2 }, 2, 2)).toEqual({ kind: 'select', selection: { row: 2, col: 2 } });
  for (const [row, col] of [[-1, 0], [0, -3], [Number.NaN, 1], [1.5, 1], ['1', 1], [null, 0]]) {
    expect(nextCellSelection(null, row, col).kind).toBe('invalid');
  }
});

test("the dev shell's sheet takes the Workspace's reports for its own id and keeps the selection rule", () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  const { sheet } = createDevShellContext({ sheetId: 's1', onAction: () => {} });
  expect(sheet.getData()).toBeNull();
  sheet.report({ id: 's2', name: 'Other', headers: [], size: { rows: 1, cols: 1 }, version: 1, getData: () => [[1]] });
  expect(sheet.name).toBeNull();
  sheet.report({ id: 's1', name: 'Mine', headers: ['A'], size: { rows: 1, cols: 1 }, version: 4, getData: () => [[2]] });
  expect(sheet).toMatchObject({ name: 'Mine', headers: ['A'], size: { rows: 1, cols: 1 }, version: 4 });
  expect(sheet.getData()).toEqual([[2]]);

  sheet.select(3, 1);
  sheet.select(-1, 1);
  expect(sheet.selection).toEqual({ row: 3, col: 1 });
  expect(warn).toHaveBeenCalledTimes(1);
  warn.mockRestore();
});

test('the dev shell says where another remote would be mounted', () => {
  // Node test environment: the dev shell only writes the element's text.
  const element = { textContent: '' } as HTMLElement;
  const unmount = createDevShellContext().remotes.mount(element, 'mfe-git', './CodeEditor');
  expect(element.textContent).toBe('mfe-git ./CodeEditor is mounted here by the shell');
  unmount();
  expect(element.textContent).toBe('');
});

test('the dev shell without a live token has no socket: live is disconnected and operations wait in its queue', () => {
  const { live } = createDevShellContext({ sheetId: 's1', onAction: () => {} });
  expect(live.state).toBe('disconnected');
  live.send({ id: 'op-1', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x' });
  expect(live.pending).toBe(1);
  expect(live.state).toBe('disconnected');
});
