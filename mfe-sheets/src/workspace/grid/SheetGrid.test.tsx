import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { currentGrid } from '../testing/grid-instances.js';
import { recordingFormulaWorker } from '../testing/in-page-formula-worker.js';
import type { ToFormulaWorker } from './formulas/formula-messages.js';
import { SheetGrid } from './SheetGrid.js';

jest.setTimeout(30_000);

// Two headers: jsdom has no layout, so the grid renders only its first columns.
const HOSTILE = ['<img src=x onerror="window.__owned=1"> & "Co"', '<div style="position:fixed;inset:0">Sign in</div>'];

// Issue 17 §4: a column header is user text. Handsontable writes header labels as HTML, so
// a header must reach it escaped: it renders as the literal text and creates no element.
test('column headers render as text, never as HTML', async () => {
  const { container } = render(
    <div style={{ position: 'relative', width: 800, height: 400 }}>
      <SheetGrid
        data={[['a', 'b']]}
        headers={{ current: HOSTILE }}
        formulaEngine={null}
        onCellsChanged={() => {}}
        onStructureChanged={() => {}}
        onSelect={() => {}}
      />
    </div>,
  );
  const grid = container.querySelector('[data-testid="sheet-grid"]')!;
  await waitFor(() => expect(grid.querySelectorAll('.colHeader').length).toBeGreaterThan(0));
  const labels = [...grid.querySelectorAll('.colHeader')].map((h) => h.textContent);
  for (const header of HOSTILE) expect(labels).toContain(header);
  expect(grid.querySelector('img')).toBeNull();
  expect(grid.querySelector('thead div[style*="fixed"], .colHeader div')).toBeNull();
  expect((window as unknown as { __owned?: number }).__owned).toBeUndefined();
});

// A grid turning read-only (a version preview opens, access changes) or highlighting cells renders
// again; Handsontable must not take the rows again then: that mapped every row and recomputed every
// formula, their values blank meanwhile.
test('turning read-only keeps the formulas’ values shown and computes nothing again', async () => {
  const posted: ToFormulaWorker[] = [];
  const engine = () => recordingFormulaWorker(posted);
  const data = [[10], [20], ['=SUM(A1:A2)']];
  const grid = (readOnly: boolean) => (
    <div style={{ position: 'relative', width: 800, height: 400 }}>
      <SheetGrid data={data} headers={{ current: ['A'] }} formulaEngine={engine} readOnly={readOnly} onCellsChanged={() => {}} onStructureChanged={() => {}} onSelect={() => {}} />
    </div>
  );
  const { container, rerender } = render(grid(false));
  const sumCell = () => container.querySelector('.ht_master tbody tr:nth-child(3) td')?.textContent;
  await waitFor(() => expect(sumCell()).toBe('30'));
  const loads = posted.filter((m) => m.type === 'begin').length;
  rerender(grid(true));
  expect(sumCell()).toBe('30');
  await new Promise((r) => setTimeout(r, 50));
  expect(sumCell()).toBe('30');
  expect(posted.filter((m) => m.type === 'begin').length).toBe(loads);
});

// As spreadsheets do (and the windowed grid): Handsontable's own Ctrl+Arrow goes to the grid's last cell whatever the data.
test('Ctrl+Arrow goes to the edge of the data block, the next filled cell or the grid edge; with Shift it selects to there', async () => {
  //            A     B     C     D     E
  const data = [
    ['a', 'b', 'c', null, 'e'],
    ['a', null, null, null, null],
    ['a', null, null, null, null],
    [null, null, null, null, null],
    ['a', null, null, null, null],
  ];
  const selected: number[][] = [];
  render(
    <div style={{ position: 'relative', width: 800, height: 400 }}>
      <SheetGrid data={data} headers={{ current: [] }} formulaEngine={null} onCellsChanged={() => {}} onStructureChanged={() => {}} onSelect={() => {}} onSelectRange={(...range) => selected.push(range)} />
    </div>,
  );
  await waitFor(() => expect(currentGrid().getDataAtCell(0, 0)).toBe('a'));
  const hot = currentGrid();
  const press = (key: string, shiftKey = false) => act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true, shiftKey }));
  act(() => {
    hot.selectCell(0, 0);
    hot.listen();
  });
  press('ArrowDown');
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([2, 0, 2, 0]));
  press('ArrowDown');
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([4, 0, 4, 0]));
  press('ArrowDown');
  // No filled cell below: the grid's last row (its spare rows included).
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([hot.countRows() - 1, 0, hot.countRows() - 1, 0]));
  press('ArrowUp');
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([4, 0, 4, 0]));
  act(() => hot.selectCell(0, 0));
  press('ArrowRight');
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([0, 2, 0, 2]));
  press('ArrowRight');
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([0, 4, 0, 4]));
  press('ArrowLeft', true);
  await waitFor(() => expect(hot.getSelectedLast()).toEqual([0, 4, 0, 2]));
  // The range reported is the one selected (Insert chart offers it).
  expect(selected.at(-1)).toEqual([0, 4, 0, 2]);
});
