import { CHART_NOMINAL_GRID } from '@tessera/contracts';
import { anchorAt, boxPosition, slabGeometry } from './chart-geometry.js';

const { columnHeaderHeight: head, rowHeight: h, rowHeaderWidth, columnWidth } = CHART_NOMINAL_GRID;

test('a windowed grid whose slab starts at row 200,000: a box is placed at its absolute row, above, in or below the slab, and a drop anchors to the absolute row under it', () => {
  // No grid laid out: the nominal sizes (the slab's rows are summed as Handsontable lays them out when there is one).
  const geometry = slabGeometry(() => null, 200_000, () => 10_000);
  const box = (row: number) => boxPosition({ row, col: 2, dx: 4, dy: 6, width: 300, height: 200 }, geometry);
  expect(box(200_000)).toEqual({ x: rowHeaderWidth + 2 * columnWidth + 4, y: head + 6 });
  expect(box(200_010).y).toBe(head + 10 * h + 6);
  // Above the slab: off the top; below it: past its last row.
  expect(box(199_990).y).toBe(head - 10 * h + 6);
  expect(box(210_005).y).toBe(head + 10_005 * h + 6);
  expect(anchorAt(rowHeaderWidth + columnWidth + 7, head + 25 * h + 3, geometry)).toEqual({ row: 200_025, col: 1, dx: 7, dy: 3 });
});
