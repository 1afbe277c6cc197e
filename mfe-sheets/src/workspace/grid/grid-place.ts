import type Handsontable from 'handsontable/base';
import type { GridPlace } from './grid-link.js';

/**
 * A grid shows the user where they were in another one of the same sheet (a windowed sheet switched
 * to whole when a formula came, issue 23): the same row at its top, the same cells selected.
 */
export function restorePlace(hot: Handsontable, { top, selection }: GridPlace): void {
  const last = hot.countRows() - 1;
  if (last < 0) return;
  const clamp = (row: number) => Math.max(0, Math.min(row, last));
  hot.batch(() => {
    if (selection) hot.selectCell(clamp(selection[0]), selection[1], clamp(selection[2]), selection[3], false);
    hot.scrollViewportTo({ row: clamp(top), verticalSnap: 'top' });
  });
}
