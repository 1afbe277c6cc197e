import { render, waitFor } from '@testing-library/react';
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
